/**
 * The `ctx` of one tool call in the 2026-07-28 era. A modern server sends no
 * requests to the client: when a handler awaits `ctx.elicit()`,
 * `ctx.confirm()`, `ctx.sample()` or `ctx.listRoots()` and no answer is known
 * yet, the call ends with an `input_required` result (basic/patterns/mrtr),
 * and the client retries it with the answers.
 *
 * ## How a handler is re-run (the rule for tool authors)
 *
 * On the retry the handler runs again from the start, with the same
 * arguments. Its interactions are numbered in the order it makes them
 * (`elicit-0`, `sample-1`, …); each one that was answered in an earlier round
 * resolves at once with that answer, and the first unanswered one ends the
 * round again. So a handler that awaits `ctx.confirm()` works in both eras
 * unchanged, provided that:
 *
 * - it asks the same questions in the same order for the same arguments
 *   (no randomness or clock in what it asks, or whether it asks);
 * - whatever it does *before* an interaction runs again on every round: keep
 *   side effects after the last interaction, or make them idempotent (reads
 *   and computations before a question are fine).
 *
 * When a round ends, the handler's `ctx.signal` aborts and the pending
 * interaction rejects with an `InputRequiredError`; let it propagate (a
 * `finally` still runs). Whatever the handler returns after that is ignored.
 */
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
} from '../../tool/types.js';
import { BaseCallContext } from '../call-context-base.js';
import type { Channel, JsonRpcId } from '../channel.js';
import { shouldSend } from '../log-levels.js';
import type { Envelope } from './envelope.js';
import { BecameTaskError } from './input-required-error.js';
import { type InputRequest, Interactions, type Offered } from './interactions.js';

// Where they were defined first; kept importable from here.
export { InputRequiredError } from './input-required-error.js';
export type { InputRequest } from './interactions.js';

/** What a modern call context is built from. */
export interface ModernCallOptions {
  id: JsonRpcId;
  envelope: Envelope;
  channel: Channel;
  auth?: AuthInfo;
  http?: HttpInfo;
  progressToken?: string | number;
  /** Answers from earlier rounds, by input key. */
  answers: ReadonlyMap<string, unknown>;
  /** Answers the request brought unasked (no requestState). */
  offered?: Offered | undefined;
  /** A plain call of an `asksBeforeTask` tool whose request declared the tasks extension. */
  mayBecomeTask?: boolean;
}

/** The 2026-era implementation of {@link CallContext}. */
export class ModernCallContext extends BaseCallContext {
  readonly era = '2026' as const;
  readonly session = undefined;
  readonly #options: ModernCallOptions;
  readonly #asked: Interactions;
  #becameTask = false;

  constructor(tool: ToolDefinition, args: unknown, options: ModernCallOptions) {
    super(tool, args, options);
    this.#options = options;
    this.#asked = new Interactions(
      options.envelope.clientCapabilities,
      options.answers,
      `The tool "${tool.name}"`,
      (r) => this.abort(r),
      options.offered,
    );
  }

  get clientCapabilities(): Readonly<{ [key: string]: unknown }> {
    return this.#options.envelope.clientCapabilities;
  }

  /** Interactions asked in this round and not answered yet, by input key. */
  get inputRequests(): Map<string, InputRequest> {
    return this.#asked.requests;
  }

  protected canNotify(): boolean {
    return !this.finished && !this.aborted && this.#options.channel.open;
  }

  protected notify(method: string, params: { [key: string]: unknown }): void {
    this.#options.channel.send({ jsonrpc: '2.0', method, params });
  }

  /** 2026-07-28: log messages only when the request set `io.modelcontextprotocol/logLevel` (SEP-2575). */
  log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    const minimum = this.#options.envelope.logLevel;
    if (minimum === undefined || !this.canNotify() || !shouldSend(level, minimum)) return Promise.resolve();
    const params: { [key: string]: unknown } = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.notify('notifications/message', params);
    return Promise.resolve();
  }

  async elicit(params: ElicitParams, options?: AskOptions): Promise<ElicitResult> {
    return this.#asked.elicit(params, options);
  }

  async sample(params: SampleParams, options?: AskOptions): Promise<SampleResult> {
    return this.#asked.sample(params, options);
  }

  async listRoots(options?: AskOptions): Promise<Array<{ uri: string; name?: string }>> {
    return this.#asked.listRoots(options);
  }

  /** Set once the handler reached `becomeTask()` in a plain call that may turn into a task. */
  get becameTask(): boolean {
    return this.#becameTask;
  }

  override async becomeTask(): Promise<void> {
    if (this.#options.mayBecomeTask !== true || this.task !== undefined) return;
    this.#becameTask = true;
    const reason = new BecameTaskError();
    this.abort(reason);
    throw reason;
  }
}
