/**
 * The review pane: servers a gateway with this lockfile would quarantine
 * and tools it would block, with the scan at the door's findings and the field diff,
 * and an Approve button per server. Approving asks in the console's confirmation
 * dialog (on the Node side, so a View cannot answer it) and then pins through the
 * same code as `candor pin`.
 */
import type { PinReview } from '../../host/pins/pin-review.js';
import type { ReviewItem } from '../server/review.js';
import { postJson } from './api.js';
import { h } from './dom.js';

/**
 * Show what waits for review in `container`; `done` runs after an approval.
 *
 * @example
 * ```ts
 * renderReview(document.getElementById('review')!, items, () => refresh());
 * ```
 */
export function renderReview(container: HTMLElement, items: readonly ReviewItem[], done: () => void): void {
  if (items.length === 0) {
    container.replaceChildren();
    return;
  }
  container.replaceChildren(
    h('h2', {}, 'Waiting for your review'),
    h(
      'p',
      { class: 'muted' },
      'A gateway with this lockfile offers none of these tools yet. Approving pins them (as candor pin does).',
    ),
    ...items.map((item) => {
      const status = h('p', { class: 'review-status', role: 'status' });
      const errors = item.tools.flatMap((t) => t.findings.filter((f) => f.severity === 'error').map((f) => f.ruleId));
      const accept = [...new Set(errors)].sort();
      const approve = h(
        'button',
        { type: 'button', 'data-action': 'approve', 'data-server': item.server },
        accept.length > 0 ? `Approve, accepting ${accept.join(', ')}` : 'Approve',
      );
      approve.addEventListener('click', () => {
        approve.disabled = true;
        status.textContent = 'Waiting for your answer in the dialog…';
        postJson<{ approved: boolean; review?: PinReview; reason?: string }>('/api/review/approve', {
          server: item.server,
          accept,
        })
          .then((answer) => {
            status.textContent = answer.approved
              ? `Pinned ${answer.review?.tools ?? 0} tools of ${item.server}.`
              : `Not approved: ${answer.reason ?? 'declined'}.`;
            approve.disabled = answer.approved;
            if (answer.approved) done();
          })
          .catch((error: Error) => {
            status.textContent = error.message;
            approve.disabled = false;
          });
      });
      return h(
        'article',
        { class: `review ${item.kind}`, 'data-review': item.server },
        h(
          'h3',
          {},
          item.server,
          ' ',
          h(
            'small',
            { class: 'warning' },
            item.kind === 'quarantined' ? 'quarantined: not pinned yet' : 'changed since pinned: blocked',
          ),
        ),
        h(
          'ul',
          {},
          ...item.tools.map((tool) =>
            h(
              'li',
              { 'data-review-tool': tool.name },
              h('code', {}, tool.toolName),
              ` (${tool.pin})`,
              tool.changes.length > 0
                ? h('ul', { class: 'pin-diff' }, ...tool.changes.map((c) => h('li', {}, c)))
                : null,
              tool.findings.length > 0
                ? h(
                    'ul',
                    { class: 'lint' },
                    ...tool.findings.map((f) =>
                      h('li', { class: f.severity }, `${f.severity} ${f.ruleId}: ${f.message}`),
                    ),
                  )
                : null,
            ),
          ),
        ),
        approve,
        status,
      );
    }),
  );
}
