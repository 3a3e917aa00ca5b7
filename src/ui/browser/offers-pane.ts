/**
 * The "Resources and prompts" pane: for each server that offers any, its resources,
 * resource templates and prompts (with their arguments, optional ones marked "?"). The
 * server's words go into text nodes only, never into markup.
 */
import type { ServerOffersRow } from '../server/offers.js';
import { h } from './dom.js';

function list(title: string, items: HTMLElement[]): HTMLElement | null {
  return items.length === 0 ? null : h('div', {}, h('h4', {}, `${title} (${items.length})`), h('ul', {}, ...items));
}

function describe(...parts: Array<string | undefined>): string {
  return parts.filter((part): part is string => part !== undefined && part !== '').join(' · ');
}

/**
 * Show the servers' offers in `container` (empty when no server offers anything).
 *
 * @example
 * ```ts
 * renderOffers(document.getElementById('offers')!, rows);
 * ```
 */
export function renderOffers(container: HTMLElement, rows: readonly ServerOffersRow[]): void {
  const shown = rows.filter(
    (row) => 'error' in row || row.resources.length + row.resourceTemplates.length + row.prompts.length > 0,
  );
  if (shown.length === 0) {
    container.replaceChildren();
    return;
  }
  container.replaceChildren(
    h('h2', {}, 'Resources and prompts'),
    ...shown.map((row) =>
      h(
        'article',
        { class: 'offers', 'data-offers': row.server },
        h('h3', {}, row.server),
        'error' in row
          ? h('p', { class: 'error' }, `could not list: ${row.error}`)
          : h(
              'div',
              {},
              list(
                'Resources',
                row.resources.map((r) =>
                  h(
                    'li',
                    { 'data-resource': r.uri },
                    h('code', {}, r.uri),
                    ` ${describe(r.title ?? r.name, r.mimeType, r.description)}`,
                  ),
                ),
              ),
              list(
                'Resource templates',
                row.resourceTemplates.map((t) =>
                  h(
                    'li',
                    { 'data-resource-template': t.uriTemplate },
                    h('code', {}, t.uriTemplate),
                    ` ${describe(t.title ?? t.name, t.mimeType, t.description)}`,
                  ),
                ),
              ),
              list(
                'Prompts',
                row.prompts.map((p) =>
                  h(
                    'li',
                    { 'data-prompt': p.name },
                    h(
                      'code',
                      {},
                      `${p.name}(${p.arguments.map((a) => `${a.name}${a.required ? '' : '?'}`).join(', ')})`,
                    ),
                    ` ${describe(p.title, p.description)}`,
                  ),
                ),
              ),
            ),
      ),
    ),
  );
}
