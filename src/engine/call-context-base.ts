/**
 * What the `ctx` of a tool call does the same way in both protocol eras: the
 * lazily made AbortSignal and state Map (tools/call is the hot path; most
 * handlers use neither), abort and finish, strictly increasing progress, and
 * `confirm()` as a one-checkbox elicitation. The era classes add how messages
 * reach the client and how the client is asked.
 */
import type { CallContext } from '../pipeline/types.js';
import type {
  AskOptions,
  AuthInfo,
  ElicitParams,
  ElicitResult,
  HttpInfo,
  LogLevel,
  SampleParams,
  SampleResult,
  ToolDefinition,
} from '../tool/types.js';
import type { JsonRpcId } from './channel.js';

/** The schema `confirm()` asks with: one required boolean. */
export const CONFIRM_SCHEMA = Object.freeze({
  type: 'object',
  properties: { confirm: { type: 'boolean', title: 'Confirm', description: 'Allow this action?', default: false } },
  required: ['confirm'],
});

/** Form elicitation is supported when declared with no modes (2025-06-18 shape) or with `form`. */
export function canElicitForm(capability: { form?: object; url?: object } | undefined): boolean {
  if (capability === undefined || capability === null || typeof capability !== 'object') return false;
  return capability.form !== undefined || capability.url === undefined;
}

/** URL-mode elicitation is supported only when declared (`elicitation.url`). */
export function canElicitUrl(capability: { form?: object; url?: object } | undefined): boolean {
  return (
    capability !== undefined && capability !== null && typeof capability === 'object' && capability.url !== undefined
  );
}

/**
 * A yes/no question as a one-checkbox elicitation: true only if the user
 * accepted AND ticked the box; decline, cancel and unchecked are a no.
 */
export async function confirmBy(
  elicit: (params: ElicitParams, options?: AskOptions) => Promise<ElicitResult>,
  message: string,
  options?: AskOptions,
): Promise<boolean> {
  const answer = await elicit({ message, requestedSchema: CONFIRM_SCHEMA }, options);
  return answer.action === 'accept' && answer.content?.confirm === true;
}

/** The parts of {@link CallContext} both eras share. */
export abstract class BaseCallContext implements CallContext {
  readonly tool: ToolDefinition;
  args: unknown;
  readonly requestId: JsonRpcId;
  abstract readonly era: '2025' | '2026';
  readonly auth: AuthInfo | undefined;
  readonly http: HttpInfo | undefined;
  abstract readonly session: { readonly id: string } | undefined;
  abstract readonly clientCapabilities: Readonly<{ [key: string]: unknown }>;
  /** Set by the task runtime when the call runs as a task (declared only: plain calls keep their shape). */
  declare task: { readonly taskId: string } | undefined;
  readonly #progressToken: string | number | undefined;
  #lastProgress = Number.NEGATIVE_INFINITY;
  #controller: AbortController | undefined;
  #abortReason: unknown;
  #aborted = false;
  #state: Map<string, unknown> | undefined;
  #finished = false;
  #abortListeners: Array<(reason: unknown) => void> | undefined;

  constructor(
    tool: ToolDefinition,
    args: unknown,
    request: { id: JsonRpcId; auth?: AuthInfo; http?: HttpInfo; progressToken?: string | number },
  ) {
    this.tool = tool;
    this.args = args;
    this.requestId = request.id;
    this.auth = request.auth;
    this.http = request.http;
    this.#progressToken = request.progressToken;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#abortReason);
    }
    return this.#controller.signal;
  }

  onAbort(listener: (reason: unknown) => void): () => void {
    if (this.#aborted) {
      listener(this.#abortReason);
      return () => {};
    }
    this.#abortListeners ??= [];
    this.#abortListeners.push(listener);
    return () => {
      const at = this.#abortListeners?.indexOf(listener) ?? -1;
      if (at >= 0) this.#abortListeners!.splice(at, 1);
    };
  }

  get state(): Map<string, unknown> {
    this.#state ??= new Map();
    return this.#state;
  }

  /** Whether `abort()` was called. */
  protected get aborted(): boolean {
    return this.#aborted;
  }

  /** Whether the call has been answered. */
  protected get finished(): boolean {
    return this.#finished;
  }

  abort(reason: unknown = new Error('The tool call was aborted.')): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#abortReason = reason;
    this.#controller?.abort(reason);
    const listeners = this.#abortListeners;
    this.#abortListeners = undefined;
    for (const listener of listeners ?? []) listener(reason);
  }

  /** Called by the engine once the call is answered (or cancelled): later messages are dropped. */
  finish(): void {
    this.#finished = true;
  }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    const token = this.#progressToken;
    // Progress MUST increase (spec, progress); non-increasing values and values after completion are dropped.
    if (token === undefined || !this.canNotify() || !(progress > this.#lastProgress) || !Number.isFinite(progress)) {
      return Promise.resolve();
    }
    this.#lastProgress = progress;
    const params: { [key: string]: unknown } = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    this.notify('notifications/progress', params);
    return Promise.resolve();
  }

  elicitationComplete(elicitationId: string): void {
    if (this.era === '2025' && this.canNotify()) this.notify('notifications/elicitation/complete', { elicitationId });
  }

  confirm(message: string, options?: AskOptions): Promise<boolean> {
    return confirmBy((params, asked) => this.elicit(params, asked), message, options);
  }

  /** Whether a notification about this call may still be sent. */
  protected abstract canNotify(): boolean;
  /** Send a notification about this call to the client. */
  protected abstract notify(method: string, params: { [key: string]: unknown }): void;

  abstract log(level: LogLevel, data: unknown, logger?: string): Promise<void>;
  abstract elicit(params: ElicitParams, options?: AskOptions): Promise<ElicitResult>;
  abstract sample(params: SampleParams, options?: AskOptions): Promise<SampleResult>;
  abstract listRoots(options?: AskOptions): Promise<Array<{ uri: string; name?: string }>>;

  /** Resolves at once: only a 2026-07-28 plain call of an `asksBeforeTask` tool turns into a task here. */
  becomeTask(): Promise<void> {
    return Promise.resolve();
  }
}
