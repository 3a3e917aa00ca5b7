/**
 * Asking a person: one question at a time (a batch of untrusted reads must
 * not pop ten dialogs at once), never without a handler (headless means deny,
 * never hang), and allow-always remembered against the tool's pin hash so a
 * tool that changes needs a new answer (its approval is tied to the pin hash).
 */
import { writeApprovals } from './approvals-file.js';
import type { CatalogTool, ConfirmAnswer, ConfirmHandler, ConfirmRequest } from './types.js';

/** The answer, or why there is none. */
export type ConfirmOutcome = ConfirmAnswer | 'cancelled' | 'no-handler' | 'timed-out' | 'failed';

/**
 * The confirmation desk.
 *
 * @example
 * ```ts
 * const desk = new Confirmations({ handler: async (q) => (await askUser(q.reason)) ? 'allow-once' : 'deny' });
 * const answer = await desk.ask(request, signal);
 * ```
 */
export class Confirmations {
  readonly #handler: ConfirmHandler | undefined;
  readonly #timeoutMs: number | undefined;
  readonly #approved: Set<string>;
  readonly #file: string | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #saving: Promise<void> = Promise.resolve();

  /**
   * `approved` and `file`: approvals read from (and saved back to) an approvals
   * file, so allow-always survives a restart (see approvals-file.ts).
   */
  constructor(options: { handler?: ConfirmHandler; timeoutMs?: number; approved?: Set<string>; file?: string }) {
    this.#handler = options.handler;
    this.#timeoutMs = options.timeoutMs;
    this.#approved = options.approved ?? new Set();
    this.#file = options.file;
  }

  /** Resolves when every approval remembered so far is on disk (a no-op without a file). */
  saved(): Promise<void> {
    return this.#saving;
  }

  /** Whether a handler exists (headless hosts have none). */
  get interactive(): boolean {
    return this.#handler !== undefined;
  }

  /** Whether allow-always was answered for this tool at its current hash. */
  remembered(tool: Pick<CatalogTool, 'name' | 'hash'>): boolean {
    return this.#approved.has(approvalKey(tool));
  }

  /** Remember allow-always for this tool at its current hash. */
  remember(tool: Pick<CatalogTool, 'name' | 'hash'>): void {
    const key = approvalKey(tool);
    if (this.#approved.has(key)) return;
    this.#approved.add(key);
    this.#persist();
  }

  /** Forget every remembered approval of a tool (any hash). */
  forget(name: string): void {
    let changed = false;
    for (const key of this.#approved) {
      if (key.startsWith(`${name}\n`)) {
        this.#approved.delete(key);
        changed = true;
      }
    }
    if (changed) this.#persist();
  }

  /** Queue a write of the whole set; writes never overlap, and a failed write is reported once. */
  #persist(): void {
    const file = this.#file;
    if (file === undefined) return;
    this.#saving = this.#saving.then(() =>
      writeApprovals(file, this.#approved).catch((error: Error) => {
        process.emitWarning(`candor: could not save approvals to ${file}: ${error.message}`);
      }),
    );
  }

  /** Ask, after any question already being asked; resolves `cancelled` when the signal aborts first. */
  ask(request: ConfirmRequest, signal: AbortSignal, context?: unknown): Promise<ConfirmOutcome> {
    const handler = this.#handler;
    if (!handler) return Promise.resolve('no-handler');
    const turn = this.#queue.then(() => this.#askNow(handler, request, signal, context));
    this.#queue = turn.catch(() => {});
    return turn;
  }

  async #askNow(
    handler: ConfirmHandler,
    request: ConfirmRequest,
    signal: AbortSignal,
    context: unknown,
  ): Promise<ConfirmOutcome> {
    if (signal.aborted) return 'cancelled';
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<ConfirmOutcome>((resolve) => {
      onAbort = () => resolve('cancelled');
      signal.addEventListener('abort', onAbort, { once: true });
      if (this.#timeoutMs !== undefined) timer = setTimeout(() => resolve('timed-out'), this.#timeoutMs);
    });
    try {
      const answer = Promise.resolve()
        .then(() => handler(request, context))
        .then(
          (value): ConfirmOutcome => (value === 'allow-once' || value === 'allow-always' ? value : 'deny'),
          (): ConfirmOutcome => 'failed',
        );
      return await Promise.race([answer, stop]);
    } finally {
      if (timer) clearTimeout(timer);
      if (onAbort) signal.removeEventListener('abort', onAbort);
    }
  }
}

function approvalKey(tool: Pick<CatalogTool, 'name' | 'hash'>): string {
  return `${tool.name}\n${tool.hash}`;
}
