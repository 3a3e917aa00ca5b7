/**
 * The resources, resource templates and prompts of a server as `candor inspect` prints
 * them (a table each). The server's words are shown on one line without control
 * characters, so a title cannot move the cursor or recolour the terminal.
 */
import type { ServerOffers } from '../targets/offers.js';
import { renderTable } from './table.js';

const MAX_WORDS = 72;

/** One line of the server's words: control characters become spaces, long text is cut with an ellipsis. */
export function terminalLine(value: string | undefined): string {
  if (value === undefined) return '—';
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    out += code < 0x20 || (code >= 0x7f && code < 0xa0) ? ' ' : char;
    if (out.length > MAX_WORDS) return `${out.slice(0, MAX_WORDS - 1).trimEnd()}…`;
  }
  return out.trim() === '' ? '—' : out.trim();
}

/**
 * The resources, templates and prompts as tables; a kind the server offers none of is left out.
 *
 * @example
 * ```ts
 * renderOffers(offers); // 'RESOURCES (1)\nURI  NAME  TYPE …'
 * ```
 */
export function renderOffers(offers: ServerOffers): string[] {
  return [
    ...section(
      'Resources',
      ['URI', 'NAME', 'MIME TYPE', 'DESCRIPTION'],
      offers.resources.map((r) => [r.uri, r.title ?? r.name, r.mimeType, r.description].map(terminalLine)),
    ),
    ...section(
      'Resource templates',
      ['URI TEMPLATE', 'NAME', 'MIME TYPE', 'DESCRIPTION'],
      offers.resourceTemplates.map((t) =>
        [t.uriTemplate, t.title ?? t.name, t.mimeType, t.description].map(terminalLine),
      ),
    ),
    ...section(
      'Prompts',
      ['NAME', 'ARGUMENTS', 'DESCRIPTION'],
      offers.prompts.map((p) => [
        terminalLine(p.name),
        p.arguments.length === 0
          ? '—'
          : terminalLine(p.arguments.map((a) => `${a.name}${a.required ? '' : '?'}`).join(', ')),
        terminalLine(p.description ?? p.title),
      ]),
    ),
  ];
}

/** One titled table with its count, or nothing when there are no rows. */
function section(title: string, headers: string[], rows: string[][]): string[] {
  if (rows.length === 0) return [];
  return [`${title} (${rows.length}):`, renderTable({ indent: '  ', headers, rows }), ''];
}
