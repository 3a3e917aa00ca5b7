/**
 * Confirmations answered by a person in the console. The host's `onConfirm`
 * (and the View-call gate) put a question on the event stream; the page shows
 * the dialog outside any View's iframe and posts the answer back. A question
 * nobody can see (no page open) is denied at once: headless never hangs.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { ConfirmAnswer, ConfirmRequest } from '../../host/types.js';
import type { EventHub } from './event-stream.js';
import type { SessionLog } from './session-log.js';

/** Who a call is made for; carried through the host's call by AsyncLocalStorage. */
export interface CallScope {
  origin: 'console' | `view:${string}`;
  callId?: string;
}

/** Which call the host is running right now, for the confirmation it may ask. */
export const callScope = new AsyncLocalStorage<CallScope>();

/** A question as the console shows it. */
export interface ConsoleQuestion {
  id: string;
  origin: CallScope['origin'];
  callId?: string;
  tool: string;
  server: string;
  title: string;
  args: Record<string, unknown>;
  hints: ConfirmRequest['hints'];
  trust: ConfirmRequest['trust'];
  reason: string;
  canRemember: boolean;
  pin?: ConfirmRequest['pin'];
  command?: ConfirmRequest['command'];
}

const ANSWERS: ReadonlySet<string> = new Set(['allow-once', 'allow-always', 'deny']);

/**
 * Open questions and their answers.
 *
 * @example
 * ```ts
 * const broker = new ConfirmBroker(hub, log);
 * const host = await createHost({ servers, onConfirm: (request) => broker.ask(request) });
 * // later, from POST /api/confirm:
 * broker.answer(id, 'deny');
 * ```
 */
export class ConfirmBroker {
  readonly #pending = new Map<string, (answer: ConfirmAnswer) => void>();
  readonly #questions = new Map<string, ConsoleQuestion>();
  readonly #hub: EventHub;
  readonly #log: SessionLog;
  readonly #answerTimeoutMs: number;

  /** @param answerTimeoutMs A question nobody answers is denied after this long (default 5 minutes). */
  constructor(hub: EventHub, log: SessionLog, answerTimeoutMs = 5 * 60_000) {
    this.#hub = hub;
    this.#log = log;
    this.#answerTimeoutMs = answerTimeoutMs;
  }

  /** Ask the person; resolves with their answer (deny when nobody is there or the call is aborted). */
  ask(request: ConfirmRequest, signal?: AbortSignal): Promise<ConfirmAnswer> {
    const scope = callScope.getStore() ?? { origin: 'console' as const };
    const question: ConsoleQuestion = {
      id: randomUUID(),
      origin: scope.origin,
      ...(scope.callId ? { callId: scope.callId } : {}),
      tool: request.tool,
      server: request.server,
      title: request.title,
      args: request.args,
      hints: request.hints,
      trust: request.trust,
      reason: request.reason,
      canRemember: request.canRemember,
      pin: request.pin,
      ...(request.command ? { command: request.command } : {}),
    };
    if (!this.#hub.listening) {
      this.#decided(question, 'deny', 'no console page is open to ask');
      return Promise.resolve('deny');
    }
    return new Promise<ConfirmAnswer>((resolve) => {
      const settle = (answer: ConfirmAnswer, note?: string) => {
        if (!this.#pending.delete(question.id)) return;
        this.#questions.delete(question.id);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#hub.send({ type: 'confirm-settled', data: { id: question.id, answer } });
        this.#decided(question, answer, note);
        resolve(answer);
      };
      const onAbort = () => settle('deny', 'the call was aborted');
      signal?.addEventListener('abort', onAbort, { once: true });
      // A call never waits forever on a tab nobody looks at: no answer is a deny, logged as such.
      const timer = setTimeout(
        () => settle('deny', `nobody answered within ${Math.round(this.#answerTimeoutMs / 1000)} s`),
        this.#answerTimeoutMs,
      );
      timer.unref?.();
      this.#pending.set(question.id, settle);
      this.#questions.set(question.id, question);
      this.#hub.send({ type: 'confirm', data: question });
    });
  }

  /** The person's answer from the page; false when the question is unknown or the answer is not one of the three. */
  answer(id: unknown, answer: unknown): boolean {
    if (typeof id !== 'string' || typeof answer !== 'string' || !ANSWERS.has(answer)) return false;
    const settle = this.#pending.get(id);
    if (!settle) return false;
    settle(answer as ConfirmAnswer);
    return true;
  }

  /** Questions still waiting: shown again to a page that (re)connects, so a reload never strands a call. */
  openQuestions(): ConsoleQuestion[] {
    return [...this.#questions.values()];
  }

  /** Deny everything still open (shutdown). */
  denyAll(): void {
    for (const settle of [...this.#pending.values()]) settle('deny');
  }

  #decided(question: ConsoleQuestion, answer: ConfirmAnswer, note?: string): void {
    this.#log.add({
      kind: 'decision',
      origin: question.origin,
      tool: question.tool,
      summary: `${answer}${note ? ` (${note})` : ''}: ${question.reason}`,
    });
  }
}
