/**
 * The `ctx` of one tool call in the 2025 era: messages about the call go on
 * its channel (HTTP: that POST's SSE stream), and the client is asked with
 * server→client requests correlated to the call.
 */
import { ToolError } from '../errors.js';
import type {
  ElicitParams,
  ElicitResult,
  LogLevel,
  SampleParams,
  SampleResult,
  ToolDefinition,
} from '../tool/types.js';
import { elicitOnRequest } from './ask.js';
import { BaseCallContext } from './call-context-base.js';
import type { RequestScope } from './engine.js';
import { shouldSend } from './log-levels.js';

/** The 2025-era implementation of {@link CallContext}. */
export class EngineCallContext extends BaseCallContext {
  readonly era = '2025' as const;
  readonly session: { readonly id: string } | undefined;
  readonly #scope: RequestScope;
  /** `_meta` for the requests this call sends the client (a task's related-task key); declared only. */
  declare protected requestMeta: { [key: string]: unknown } | undefined;

  constructor(tool: ToolDefinition, args: unknown, scope: RequestScope, progressToken: string | number | undefined) {
    super(tool, args, { id: scope.id, auth: scope.info?.auth, http: scope.info?.http, progressToken });
    this.#scope = scope;
    const sessionId = scope.peer.sessionId;
    this.session = sessionId === undefined ? undefined : { id: sessionId };
  }

  get clientCapabilities(): Readonly<{ [key: string]: unknown }> {
    return this.#scope.peer.clientCapabilities;
  }

  protected canNotify(): boolean {
    return !this.finished;
  }

  log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    if (!shouldSend(level, this.#scope.peer.logLevel)) return Promise.resolve();
    const params: { [key: string]: unknown } = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.notify('notifications/message', params);
    return Promise.resolve();
  }

  elicit(params: ElicitParams): Promise<ElicitResult> {
    return elicitOnRequest(this.#scope, params, this.signal, undefined, this.requestMeta);
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

  protected notify(method: string, params: { [key: string]: unknown }): void {
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
    const meta = this.requestMeta;
    const sent = meta === undefined ? params : { ...params, _meta: meta };
    return engine.clientRequests.request(peer, target, method, sent, { signal: this.signal });
  }
}
