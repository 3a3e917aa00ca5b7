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
import { ToolError } from '../../errors.js';
import type {
  AuthInfo,
  ElicitParams,
  ElicitResult,
  HttpInfo,
  LogLevel,
  SampleParams,
  SampleResult,
  ToolDefinition,
} from '../../tool/types.js';
import { BaseCallContext, canElicitForm } from '../call-context-base.js';
import type { Channel, JsonRpcId } from '../channel.js';
import { shouldSend } from '../log-levels.js';
import type { Envelope } from './envelope.js';
import { MissingCapabilityError } from './missing-capability.js';

/** The reason on `ctx.signal` and the rejection of an unanswered interaction. */
export class InputRequiredError extends ToolError {
  constructor() {
    // A ToolError, so the pipeline neither masks nor logs it; the engine answers input_required instead.
    super('This call needs input from the client; it is answered with an input_required result.', {
      code: 'input_required',
    });
  }
}

/** One embedded request of an `input_required` result. */
export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params: { [key: string]: unknown };
}

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
}

/** The 2026-era implementation of {@link CallContext}. */
export class ModernCallContext extends BaseCallContext {
  readonly era = '2026' as const;
  readonly session = undefined;
  /** Interactions asked in this round and not answered yet, by input key. */
  readonly inputRequests = new Map<string, InputRequest>();
  readonly #options: ModernCallOptions;
  #sequence = 0;

  constructor(tool: ToolDefinition, args: unknown, options: ModernCallOptions) {
    super(tool, args, options);
    this.#options = options;
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

  async elicit(params: ElicitParams): Promise<ElicitResult> {
    const capability = this.#options.envelope.clientCapabilities.elicitation;
    // mrtr: a server MUST NOT put a request the client did not declare into inputRequests;
    // the revision's answer is -32021 naming what to declare (basic/index, "Error Codes").
    if (!canElicitForm(capability)) {
      throw new MissingCapabilityError(
        'elicitation',
        `The tool "${this.tool.name}" needs to ask the user, but the request did not declare the elicitation capability (form mode) in its _meta clientCapabilities.`,
      );
    }
    const answer = this.#interact('elicit', {
      method: 'elicitation/create',
      params: { mode: 'form', message: params.message, requestedSchema: params.requestedSchema },
    }) as { action: ElicitResult['action']; content?: { [key: string]: unknown } };
    const out: ElicitResult = { action: answer.action };
    if (answer.action === 'accept' && answer.content !== undefined) out.content = answer.content;
    return out;
  }

  async sample(params: SampleParams): Promise<SampleResult> {
    if (this.#options.envelope.clientCapabilities.sampling === undefined) {
      throw new MissingCapabilityError(
        'sampling',
        `The tool "${this.tool.name}" needs the client to run its model, but the request did not declare the sampling capability.`,
      );
    }
    return this.#interact('sample', { method: 'sampling/createMessage', params: { ...params } }) as SampleResult;
  }

  async listRoots(): Promise<Array<{ uri: string; name?: string }>> {
    if (this.#options.envelope.clientCapabilities.roots === undefined) {
      throw new MissingCapabilityError(
        'roots',
        `The tool "${this.tool.name}" needs the client's roots, but the request did not declare the roots capability.`,
      );
    }
    const answer = this.#interact('roots', { method: 'roots/list', params: {} }) as {
      roots: Array<{ uri: string; name?: string }>;
    };
    return answer.roots;
  }

  /** The known answer for the next interaction, or record it as asked and end the round. */
  #interact(kind: 'elicit' | 'sample' | 'roots', request: InputRequest): unknown {
    const key = `${kind}-${this.#sequence++}`;
    const answers = this.#options.answers;
    if (answers.has(key)) return answers.get(key);
    this.inputRequests.set(key, request);
    const reason = new InputRequiredError();
    this.abort(reason);
    throw reason;
  }
}
