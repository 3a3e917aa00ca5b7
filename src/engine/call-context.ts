/**
 * The `ctx` of one tool call in the 2025 era. One object per call; its
 * methods live on the prototype and the AbortController and state Map are made
 * only when something asks for them (tools/call is the hot path).
 */
import { ToolError } from '../errors.js';
import type { CallContext } from '../pipeline/types.js';
import type {
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
import type { RequestScope } from './engine.js';
import { elicitationHasMode } from './era.js';
import { shouldSend } from './log-levels.js';

/** The schema `confirm()` asks with: one required boolean. */
const CONFIRM_SCHEMA = Object.freeze({
  type: 'object',
  properties: { confirm: { type: 'boolean', title: 'Confirm', description: 'Allow this action?', default: false } },
  required: ['confirm'],
});

/** The 2025-era implementation of {@link CallContext}. */
export class EngineCallContext implements CallContext {
  readonly tool: ToolDefinition;
  args: unknown;
  readonly requestId: JsonRpcId;
  readonly era = '2025' as const;
  readonly auth: AuthInfo | undefined;
  readonly http: HttpInfo | undefined;
  readonly session: { readonly id: string } | undefined;
  readonly #scope: RequestScope;
  readonly #progressToken: string | number | undefined;
  #lastProgress = Number.NEGATIVE_INFINITY;
  #controller: AbortController | undefined;
  #abortReason: unknown;
  #aborted = false;
  #state: Map<string, unknown> | undefined;
  #finished = false;

  constructor(tool: ToolDefinition, args: unknown, scope: RequestScope, progressToken: string | number | undefined) {
    this.tool = tool;
    this.args = args;
    this.requestId = scope.id;
    this.#scope = scope;
    this.#progressToken = progressToken;
    const info = scope.info;
    this.auth = info?.auth;
    this.http = info?.http;
    const sessionId = scope.peer.sessionId;
    this.session = sessionId === undefined ? undefined : { id: sessionId };
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#abortReason);
    }
    return this.#controller.signal;
  }

  get state(): Map<string, unknown> {
    this.#state ??= new Map();
    return this.#state;
  }

  abort(reason: unknown = new Error('The tool call was aborted.')): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#abortReason = reason;
    this.#controller?.abort(reason);
  }

  /** Called by the engine when the call has been answered: later progress is dropped. */
  finish(): void {
    this.#finished = true;
  }

  progress(progress: number, total?: number, message?: string): Promise<void> {
    const token = this.#progressToken;
    // Progress MUST increase (spec, progress); non-increasing values and values after completion are dropped.
    if (token === undefined || this.#finished || !(progress > this.#lastProgress) || !Number.isFinite(progress)) {
      return Promise.resolve();
    }
    this.#lastProgress = progress;
    const params: { [key: string]: unknown } = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    this.#send('notifications/progress', params);
    return Promise.resolve();
  }

  log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    if (!shouldSend(level, this.#scope.peer.logLevel)) return Promise.resolve();
    const params: { [key: string]: unknown } = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.#send('notifications/message', params);
    return Promise.resolve();
  }

  async elicit(params: ElicitParams): Promise<ElicitResult> {
    const { peer } = this.#scope;
    if (!canElicitForm(peer.clientCapabilities.elicitation)) {
      throw new ToolError(
        'This tool needs to ask the user, but the client did not declare the elicitation capability (form mode), so it cannot.',
        { code: 'elicitation_unsupported' },
      );
    }
    const request: { [key: string]: unknown } = { message: params.message, requestedSchema: params.requestedSchema };
    if (elicitationHasMode(peer.protocolVersion)) request.mode = 'form';
    const result = await this.#request('elicitation/create', request);
    const action = result.action;
    if (action !== 'accept' && action !== 'decline' && action !== 'cancel') {
      throw new ToolError(`The client answered elicitation/create with an unknown action ${JSON.stringify(action)}.`);
    }
    const out: ElicitResult = { action };
    if (action === 'accept' && typeof result.content === 'object' && result.content !== null) {
      out.content = result.content as { [key: string]: unknown };
    }
    return out;
  }

  async confirm(message: string): Promise<boolean> {
    const answer = await this.elicit({ message, requestedSchema: CONFIRM_SCHEMA });
    // True only if the user accepted AND ticked the box; decline/cancel/unchecked are a no.
    return answer.action === 'accept' && answer.content?.confirm === true;
  }

  async sample(params: SampleParams): Promise<SampleResult> {
    if (this.#scope.peer.clientCapabilities.sampling === undefined) {
      throw new ToolError(
        'This tool needs the client to run its model (sampling), but the client did not declare the sampling capability.',
        { code: 'sampling_unsupported' },
      );
    }
    return (await this.#request('sampling/createMessage', params)) as SampleResult;
  }

  async listRoots(): Promise<Array<{ uri: string; name?: string }>> {
    if (this.#scope.peer.clientCapabilities.roots === undefined) {
      throw new ToolError('This tool needs the client roots, but the client did not declare the roots capability.', {
        code: 'roots_unsupported',
      });
    }
    const result = await this.#request('roots/list', {});
    return Array.isArray(result.roots) ? (result.roots as Array<{ uri: string; name?: string }>) : [];
  }

  #send(method: string, params: { [key: string]: unknown }): void {
    const { channel, peer } = this.#scope;
    // Related to the request: on its channel while it is open (HTTP: that POST's SSE stream).
    if (channel.open) channel.send({ jsonrpc: '2.0', method, params });
    else peer.notify({ jsonrpc: '2.0', method, params });
  }

  #request(method: string, params: { [key: string]: unknown }): Promise<{ [key: string]: unknown }> {
    const { engine, peer, channel } = this.#scope;
    const target = channel.open ? channel : peer.channel;
    if (target === undefined) {
      return Promise.reject(new ToolError(`Cannot send ${method}: the connection to the client is closed.`));
    }
    return engine.clientRequests.request(peer, target, method, params, { signal: this.signal });
  }
}

/** Form elicitation is supported when declared with no modes (2025-06-18 shape) or with `form`. */
function canElicitForm(capability: { form?: object; url?: object } | undefined): boolean {
  if (capability === undefined || capability === null || typeof capability !== 'object') return false;
  return capability.form !== undefined || capability.url === undefined;
}
