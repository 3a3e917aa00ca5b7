/**
 * The host's confirmation dialog (`data-dialog="confirm"`), in the console page
 * and so outside every View's iframe: a View cannot click it. Questions come
 * from the Node side (the host's `onConfirm`, or the View-call gate) and wait
 * there until a person answers `data-answer="allow"`, `"allow-always"` or `"deny"`.
 */
import type { ConsoleQuestion } from '../server/confirm-broker.js';
import { postJson } from './api.js';
import { h, json } from './dom.js';

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** Shows one question at a time; later ones queue. */
export class ConfirmDialog {
  readonly #dialog: HTMLDialogElement;
  readonly #queue: ConsoleQuestion[] = [];
  #current: ConsoleQuestion | undefined;

  constructor(root: HTMLElement) {
    this.#dialog = h('dialog', { 'data-dialog': 'confirm', 'aria-labelledby': 'confirm-title' });
    // Escape must not leave a question unanswered without saying so: it denies.
    this.#dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      void this.#answer('deny');
    });
    root.append(this.#dialog);
  }

  ask(question: ConsoleQuestion): void {
    // A reconnecting event stream replays open questions: show each once.
    if (this.#current?.id === question.id || this.#queue.some((q) => q.id === question.id)) return;
    this.#queue.push(question);
    if (!this.#current) this.#next();
  }

  /** The Node side settled a question (answered in another tab, or the call was aborted). */
  settled(id: string): void {
    const index = this.#queue.findIndex((q) => q.id === id);
    if (index >= 0) this.#queue.splice(index, 1);
    if (this.#current?.id === id) {
      this.#current = undefined;
      this.#dialog.close();
      this.#next();
    }
  }

  #next(): void {
    const question = this.#queue.shift();
    this.#current = question;
    if (!question) return;
    const who =
      question.origin === 'console'
        ? 'You called this from the console.'
        : `A View of ${question.origin.slice(5)} asks for this call.`;
    const hints = h(
      'table',
      { class: 'hints' },
      ...HINTS.map((hint) =>
        h(
          'tr',
          {},
          h('th', {}, hint),
          h('td', { class: question.hints[hint] ? 'yes' : 'no' }, question.hints[hint] ? 'yes' : 'no'),
        ),
      ),
    );
    const buttons = h(
      'div',
      { class: 'buttons' },
      h('button', { type: 'button', 'data-answer': 'deny', class: 'deny' }, 'Deny'),
      question.canRemember ? h('button', { type: 'button', 'data-answer': 'allow-always' }, 'Always allow') : null,
      h('button', { type: 'button', 'data-answer': 'allow', class: 'allow' }, 'Allow once'),
    );
    buttons.addEventListener('click', (event) => {
      const answer = (event.target as HTMLElement).closest('button')?.dataset.answer;
      if (answer === 'allow') void this.#answer('allow-once');
      else if (answer === 'allow-always' || answer === 'deny') void this.#answer(answer);
    });
    const parts: Array<HTMLElement | null> = [
      h('h2', { id: 'confirm-title' }, `Run ${question.title}?`),
      h('p', { class: 'tool-name' }, h('code', {}, question.tool), ` · server ${question.server} · ${question.trust}`),
      h('p', { class: 'who' }, who),
      h('p', { class: 'reason' }, question.reason),
      hints,
      question.command ? h('p', {}, 'Command: ', h('code', {}, question.command.text)) : null,
      question.pin?.changes?.length ? h('p', { class: 'pin' }, `Changed since pinned (${question.pin.status}).`) : null,
      h('details', { open: true }, h('summary', {}, 'Arguments'), h('pre', {}, json(question.args))),
      buttons,
    ];
    this.#dialog.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
    if (!this.#dialog.open) this.#dialog.showModal();
    (this.#dialog.querySelector('[data-answer="deny"]') as HTMLButtonElement).focus();
  }

  async #answer(answer: 'allow-once' | 'allow-always' | 'deny'): Promise<void> {
    const question = this.#current;
    if (!question) return;
    this.#current = undefined;
    this.#dialog.close();
    await postJson('/api/confirm', { id: question.id, answer }).catch(() => undefined);
    this.#next();
  }
}

/**
 * Ask a yes/no question in a host dialog (`data-dialog="<kind>"`), e.g. before opening a link a View asked for.
 */
export function askHost(root: HTMLElement, kind: string, title: string, body: string): Promise<boolean> {
  return new Promise((resolve) => {
    const dialog = h(
      'dialog',
      { 'data-dialog': kind },
      h('h2', {}, title),
      h('p', { class: 'reason' }, body),
      h(
        'div',
        { class: 'buttons' },
        h('button', { type: 'button', 'data-answer': 'deny', class: 'deny' }, 'Cancel'),
        h('button', { type: 'button', 'data-answer': 'allow', class: 'allow' }, 'Open'),
      ),
    );
    const finish = (yes: boolean) => {
      dialog.close();
      dialog.remove();
      resolve(yes);
    };
    dialog.addEventListener('cancel', () => finish(false));
    dialog.addEventListener('click', (event) => {
      const answer = (event.target as HTMLElement).closest('button')?.dataset.answer;
      if (answer) finish(answer === 'allow');
    });
    root.append(dialog);
    dialog.showModal();
  });
}
