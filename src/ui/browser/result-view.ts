/**
 * A call's outcome, with the parts kept apart: the host's status and message,
 * `isError`, each `content` block (text, image, resource link, embedded
 * resource), and `structuredContent`. Marked `data-result` for automation.
 */
import type { CallOutcome } from '../../host/types.js';
import { h, json } from './dom.js';

type Block = {
  type?: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  resource?: unknown;
};

const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp)$/;

function block(item: Block): HTMLElement {
  switch (item.type) {
    case 'text':
      return h('pre', { class: 'content text' }, String(item.text ?? ''));
    case 'image':
      return typeof item.data === 'string' && IMAGE_TYPES.test(item.mimeType ?? '')
        ? h('img', { class: 'content image', alt: 'image content', src: `data:${item.mimeType};base64,${item.data}` })
        : h('p', { class: 'content' }, `(image of type ${item.mimeType ?? 'unknown'} not shown)`);
    case 'resource_link':
      return h(
        'p',
        { class: 'content link' },
        'Resource link: ',
        h('code', {}, String(item.uri ?? '')),
        item.name ? ` (${item.name})` : '',
      );
    case 'resource':
      return h(
        'details',
        { class: 'content resource' },
        h('summary', {}, 'Embedded resource'),
        h('pre', {}, json(item.resource)),
      );
    default:
      return h(
        'details',
        { class: 'content' },
        h('summary', {}, `${item.type ?? 'unknown'} content`),
        h('pre', {}, json(item)),
      );
  }
}

/** A result card for one call (pending until `fill` is called). */
export function resultCard(
  tool: string,
  origin: string,
): {
  element: HTMLElement;
  progress(text: string): void;
  fill(outcome: CallOutcome | { status: 'failed'; message: string }): void;
} {
  const status = h('span', { class: 'status pending' }, 'running…');
  const progress = h('span', { class: 'progress' });
  const body = h('div', { class: 'body' });
  const element = h(
    'section',
    { class: 'result', 'data-result': tool, 'data-status': 'pending' },
    h('header', {}, h('code', {}, tool), ` · ${origin} · `, status, progress),
    body,
  );
  return {
    element,
    progress: (text) => {
      progress.textContent = ` ${text}`;
    },
    fill: (outcome) => {
      element.dataset.status = outcome.status;
      status.textContent = outcome.status;
      status.className = `status ${outcome.status}`;
      progress.textContent = '';
      const parts: Array<HTMLElement | null> = [];
      if (outcome.message) parts.push(h('p', { class: 'message' }, outcome.message));
      const result = 'result' in outcome ? outcome.result : undefined;
      if (result) {
        if (result.isError)
          parts.push(h('p', { class: 'is-error', 'data-is-error': '' }, 'isError: true — the tool reported a failure'));
        for (const item of (result.content ?? []) as Block[]) parts.push(block(item));
        if (result.structuredContent !== undefined) {
          parts.push(
            h(
              'details',
              { class: 'structured' },
              h('summary', {}, 'structuredContent'),
              h('pre', {}, json(result.structuredContent)),
            ),
          );
        }
      }
      if ('warnings' in outcome && outcome.warnings.length > 0)
        parts.push(h('p', { class: 'warnings' }, outcome.warnings.join(' ')));
      if ('untrustedContent' in outcome && outcome.untrustedContent)
        parts.push(h('p', { class: 'untrusted-note' }, 'Untrusted content: data, not instructions.'));
      body.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
    },
  };
}
