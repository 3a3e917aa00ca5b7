/**
 * The dispatcher: one long-lived object per server that answers JSON-RPC
 * messages. Transports are thin adapters around it.
 *
 * ## Contract for transports
 *
 * ```ts
 * const dispatcher = server.dispatcher; // or createDispatcher({...})
 *
 * // 1. One Peer per client: per stdio connection, per HTTP session, or per
 * //    stateless HTTP request ({ stateless: true, protocolVersion: <header> }).
 * const peer = dispatcher.createPeer({ sessionId, channel: standaloneChannelOrUndefined });
 *
 * // 2. Every parsed message (object or batch array, anything JSON.parse gave you):
 * const answer = await dispatcher.handle(message, { peer, channel, info });
 * //    `channel` is where messages about THIS request go before its answer:
 * //    progress, logs, and server→client requests (elicitation/sampling/roots).
 * //    HTTP: the POST's response stream (upgrade to SSE on the first send).
 * //    stdio: the stdout writer.
 * //    `info` carries auth / http details / an abort signal (RequestInfo).
 * //
 * //    answer is:
 * //    - a JsonRpcResponse for a request,
 * //    - an array of responses for a batch with at least one request,
 * //    - undefined for notifications, for client responses (they resolve the
 * //      pending server→client request, whatever POST they came on), and for a
 * //      request the client cancelled with notifications/cancelled (the spec
 * //      says it gets no response: end the stream without one).
 * //    handle() never throws and never rejects.
 * //    Body that is not JSON: answer `parseError()` yourself.
 * //    WRITE every outgoing message with `serializeMessage(msg)`, not
 * //    JSON.stringify: a tools/list result is a `RawJson` (the registry's cached
 * //    JSON text) that serializeMessage splices in as is. (JSON.stringify still
 * //    works through toJSON, just slower.) Messages given to `channel.send` are
 * //    plain objects, but serializeMessage is right for them too.
 * //    To know whether a POST body has requests: `classify(msg) === 'request'`.
 *
 * // 3. Notifications that belong to no request (tools/resources/prompts
 * //    list_changed, resources/updated) go to each live peer's standalone
 * //    channel: pass it to createPeer() or later with peer.attach(channel)
 * //    (HTTP: the session's GET stream; peer.detach(channel) when it closes).
 * //    Peers without one simply miss them. To push your own:
 * //    dispatcher.broadcast(notification).
 *
 * // 4. When the client goes away: peer.close() (aborts its in-flight calls,
 * //    rejects its pending server→client requests). To drain first:
 * //    await peer.settled().
 *
 * // 5. Shutdown: await dispatcher.drain({ timeoutMs }) — refuses new tool calls,
 * //    waits for running ones, aborts stragglers after timeoutMs.
 * ```
 *
 * Batches: JSON-RPC batches exist only in 2025-03-26 (removed in 2025-06-18).
 * They are accepted from peers on 2025-03-26 (the version assumed before
 * negotiation), up to `maxBatchSize` entries (default 32), never with an
 * `initialize` inside; other peers get one -32600 error explaining why.
 */
import { isProtocolError } from '../errors.js';
import { createToolPipeline } from '../pipeline/pipeline.js';
import { type ServerLogger, stderrLogger } from '../util/logger.js';
import { capabilitiesOf } from './capabilities.js';
import type { Channel, JsonRpcNotification, JsonRpcResponse, RequestInfo } from './channel.js';
import { ClientRequests } from './client-requests.js';
import type { DispatchContext, DispatcherOptions, DrainOptions } from './dispatcher-options.js';
import type { Engine, Params, ServerCapabilities, ToolScope } from './engine.js';
import { allowsBatches } from './era.js';
import {
  classify,
  errorResponse,
  INTERNAL_ERROR,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  resultResponse,
  salvageId,
} from './jsonrpc.js';
import { methodTable, notificationTable } from './methods/table.js';
import { classifyEra, type EraRoute } from './modern/classify.js';
import { ModernEngine } from './modern/modern-engine.js';
import { Peer, type PeerOptions } from './peer.js';
import { TaskRuntime } from './tasks/task-runtime.js';

/**
 * Answers JSON-RPC messages for every transport. See the module comment for
 * the transport contract.
 *
 * @example
 * ```ts
 * const dispatcher = createDispatcher({ serverInfo: { name: 'demo', version: '1.0.0' }, tools: registry });
 * const peer = dispatcher.createPeer();
 * const answer = await dispatcher.handle({ jsonrpc: '2.0', id: 1, method: 'ping' }, { peer, channel });
 * ```
 */
export class Dispatcher {
  readonly #engine: Engine;
  readonly #peers = new Set<Peer>();
  /** Tool calls running now; a count, not a Set of promises (hashing a promise per call showed in profiles). */
  #running = 0;
  readonly #whenIdle: Array<() => void> = [];
  readonly #settled = (): void => {
    if (--this.#running === 0) for (const wake of this.#whenIdle.splice(0)) wake();
  };
  readonly #maxBatch: number;
  readonly #modern: ModernEngine;
  readonly #unsubscribe: Array<() => void> = [];
  readonly #toolScope: ToolScope | undefined;
  readonly #modernOnly: boolean;
  /** Classification options of a message without headers (stdio, memory), made once. */
  readonly #plain: { modernOnly: boolean };
  #accepting = true;

  constructor(options: DispatcherOptions) {
    const logger = options.logger ?? stderrLogger();
    const self = this;
    this.#engine = {
      serverInfo: options.serverInfo,
      instructions: options.instructions,
      capabilities: capabilitiesOf(options),
      tools: options.tools,
      resources: options.resources,
      prompts: options.prompts,
      runTool: createToolPipeline({ ...options, logger, tools: options.tools }),
      logger,
      clientRequests: new ClientRequests(),
      tasks: options.tasks === undefined ? undefined : new TaskRuntime(options.tasks, logger),
      get accepting() {
        return self.#accepting;
      },
      track: (done) => {
        this.#running++;
        done.then(this.#settled, this.#settled); // also handles a rejection, so none is ever unhandled
      },
    };
    this.#maxBatch = options.maxBatchSize ?? 32;
    this.#toolScope = options.toolScope;
    this.#modernOnly = options.modern?.only === true;
    this.#plain = { modernOnly: this.#modernOnly };
    // The 2026-07-28 era on the same engine: same registries, pipeline and logger.
    this.#modern = new ModernEngine(this.#engine, options.modern);
    // One notification per registry change (the registry fires 'changed' once per change).
    const listChanged = (method: string) => () => this.broadcast({ jsonrpc: '2.0', method });
    this.#unsubscribe.push(options.tools.on('changed', listChanged('notifications/tools/list_changed')));
    if (options.resources) {
      this.#unsubscribe.push(
        options.resources.on('changed', listChanged('notifications/resources/list_changed')),
        options.resources.on('updated', (uri) => this.#notifyUpdated(uri)),
      );
    }
    if (options.prompts) {
      this.#unsubscribe.push(options.prompts.on('changed', listChanged('notifications/prompts/list_changed')));
    }
  }

  /** The capabilities sent in the `initialize` result. */
  get capabilities(): ServerCapabilities {
    return this.#engine.capabilities;
  }

  /** Whether the server speaks only 2026-07-28 (`modern: { only: true }`); transports then offer no sessions. */
  get modernOnly(): boolean {
    return this.#modernOnly;
  }

  /** The task runtime, when the server serves tasks. */
  get tasks(): TaskRuntime | undefined {
    return this.#engine.tasks;
  }

  /** Live peers (created and not closed). */
  get peers(): ReadonlySet<Peer> {
    return this.#peers;
  }

  /** Number of tool calls running now. */
  get inFlight(): number {
    return this.#running;
  }

  /** The server logger (transports log their own problems here too). */
  get logger(): ServerLogger {
    return this.#engine.logger;
  }

  /** Create a peer (one per stdio connection / HTTP session / stateless request). */
  createPeer(options: PeerOptions = {}): Peer {
    const peer = new Peer(options, this.#peerHooks);
    this.#peers.add(peer);
    return peer;
  }

  /** One hooks object for every peer (stateless HTTP makes a peer per request:). */
  readonly #peerHooks = {
    onClose: (closed: Peer, reason: unknown): void => {
      this.#peers.delete(closed);
      this.#engine.clientRequests.dropPeer(closed, reason);
    },
  };

  /**
   * Answer one parsed JSON value (a message or a batch). Never throws or
   * rejects. See the module comment for what comes back.
   */
  handle(message: unknown, ctx: DispatchContext): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    // Not an async function: the promise of the era's handler is the answer, without one more
    // promise and two more microtask turns around it per message. Those handlers never
    // reject by design; `#failed` is the net should one ever do.
    try {
      // The era is chosen per message, by the body (src/engine/modern/classify.ts).
      const route =
        ctx.route ??
        classifyEra(
          message,
          ctx.headers === undefined ? this.#plain : { headers: ctx.headers, modernOnly: this.#modernOnly },
        );
      if (route.era === 'refused') return Promise.resolve(route.response);
      if (this.#toolScope !== undefined) {
        const scoped = this.#scoped(ctx, route.era, message);
        // A scope that reads shared state (search mode's found tools on Redis) answers later.
        if (scoped instanceof Promise) {
          return scoped.then(
            (c) => this.#route(message, route, c),
            (error: unknown) => this.#failed(message, error),
          );
        }
        ctx = scoped;
      }
      return this.#route(message, route, ctx);
    } catch (error) {
      return Promise.resolve(this.#failed(message, error));
    }
  }

  /** {@link handle} once the era is known and the tools are scoped. */
  #route(
    message: unknown,
    route: Exclude<EraRoute, { era: 'refused' }>,
    ctx: DispatchContext,
  ): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    try {
      if (route.era === 'modern') {
        return this.#modern
          .handle(route, {
            channel: ctx.channel,
            ...(ctx.info === undefined ? {} : { info: ctx.info }),
            // HTTP: the headers are checked, a disconnect cancels. stdio: notifications/cancelled finds calls through the peer.
            ...(ctx.headers === undefined ? { peer: ctx.peer } : { headers: ctx.headers }),
          })
          .catch((error: unknown) => this.#failed(message, error));
      }
      if (Array.isArray(message))
        return this.#batch(message, ctx).catch((error: unknown) => this.#failed(message, error));
      return this.#one(message, ctx, false);
    } catch (error) {
      return Promise.resolve(this.#failed(message, error));
    }
  }

  /** Unreachable by design; kept so a bug here degrades to an error answer, not a crash. */
  #failed(message: unknown, error: unknown): JsonRpcResponse {
    this.#engine.logger.error('dispatcher failed on a message', { error });
    return errorResponse(salvageId(message), INTERNAL_ERROR, 'Internal error.');
  }

  /**
   * Tell clients their tool list changed when only theirs did: a
   * peer (a 2025 session or a stdio connection) gets the notification on its
   * standalone channel; `'modern'` reaches the open 2026-07-28
   * `subscriptions/listen` streams (which are not tied to a client, so all of them).
   */
  notifyToolsChanged(target: Peer | 'modern'): void {
    if (target === 'modern') this.#modern.publish({ type: 'tools_list_changed' });
    else if (!target.stateless && (target.negotiated || target.initialized))
      target.notify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
  }

  /** Send a notification to every live peer's standalone channel. */
  broadcast(notification: JsonRpcNotification): void {
    for (const peer of this.#peers) {
      if (peer.negotiated || peer.initialized) peer.notify(notification);
    }
  }

  /**
   * Stop taking tool calls and wait for the running ones; abort those still
   * running after `timeoutMs`. Also detaches from the registries.
   */
  async drain(options: DrainOptions = {}): Promise<void> {
    const { timeoutMs = 10_000 } = options;
    this.#accepting = false;
    for (const stop of this.#unsubscribe.splice(0)) stop();
    // Open subscriptions/listen streams end gracefully, with their closing result.
    this.#modern.close();
    if (this.#running === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<'expired'>((resolve) => {
      timer = setTimeout(() => resolve('expired'), timeoutMs);
      timer.unref?.();
    });
    try {
      const outcome = await Promise.race([this.#idle(), expired]);
      if (outcome === 'expired') {
        const reason = new Error('The server is shutting down.');
        for (const peer of this.#peers) for (const call of peer.inFlight.values()) call.abort(reason);
        this.#engine.tasks?.abortAll(reason);
        await this.#idle();
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** Resolves once no tool call runs. */
  #idle(): Promise<void> {
    return this.#running === 0 ? Promise.resolve() : new Promise((resolve) => this.#whenIdle.push(resolve));
  }

  #scoped(
    ctx: DispatchContext,
    era: 'legacy' | 'modern',
    message: unknown,
  ): DispatchContext | Promise<DispatchContext> {
    const method =
      typeof message === 'object' && message !== null && !Array.isArray(message)
        ? (message as { method?: unknown }).method
        : undefined;
    const request = { peer: ctx.peer, info: ctx.info, era, ...(typeof method === 'string' ? { method } : {}) };
    const tools = this.#toolScope!(request);
    if (tools instanceof Promise)
      return tools.then((t) => (t === undefined ? ctx : { ...ctx, info: { ...ctx.info, tools: t } }));
    return tools === undefined ? ctx : { ...ctx, info: { ...ctx.info, tools } };
  }

  async #batch(batch: unknown[], ctx: DispatchContext): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    if (batch.length === 0) return errorResponse(null, INVALID_REQUEST, 'Invalid request: an empty batch.');
    if (!allowsBatches(ctx.peer.protocolVersion)) {
      return errorResponse(
        null,
        INVALID_REQUEST,
        `Invalid request: JSON-RPC batches were removed in protocol version 2025-06-18 and this session uses ${ctx.peer.protocolVersion}; send one message at a time.`,
      );
    }
    if (batch.length > this.#maxBatch) {
      return errorResponse(
        null,
        INVALID_REQUEST,
        `Invalid request: the batch has ${batch.length} entries; the limit is ${this.#maxBatch}.`,
      );
    }
    const answers = await Promise.all(batch.map((m) => this.#one(m, ctx, true)));
    const responses = answers.filter((a): a is JsonRpcResponse => a !== undefined);
    return responses.length > 0 ? responses : undefined;
  }

  async #one(message: unknown, ctx: DispatchContext, inBatch: boolean): Promise<JsonRpcResponse | undefined> {
    // Never rejects: handle() returns this promise as it is (the single-message hot path).
    try {
      const kind = classify(message);
      if (kind === 'invalid') {
        return errorResponse(salvageId(message), INVALID_REQUEST, invalidReason(message));
      }
      const m = message as { id?: unknown; method?: string; params?: unknown };
      const { peer, channel, info } = ctx;
      if (kind === 'response') {
        this.#engine.clientRequests.settle(peer, message as JsonRpcResponse);
        return undefined;
      }
      const params = m.params;
      if (kind === 'notification') {
        const handler = notificationTable.get(m.method!);
        if (handler === undefined || !isParams(params)) return undefined;
        try {
          handler(params ?? EMPTY, { peer, channel, info, engine: this.#engine });
        } catch (error) {
          this.#engine.logger.warn(`notification ${m.method} failed`, { error });
        }
        return undefined;
      }
      const id = m.id as string | number;
      if (!isParams(params)) {
        return errorResponse(id, INVALID_PARAMS, 'Invalid params: params must be an object.');
      }
      const handler = methodTable.get(m.method!);
      if (handler === undefined) return errorResponse(id, METHOD_NOT_FOUND, `Method not found: ${m.method}`);
      if (inBatch && m.method === 'initialize') {
        return errorResponse(id, INVALID_REQUEST, 'Invalid request: initialize must not be part of a batch.');
      }
      try {
        const result = await handler(params ?? EMPTY, { id, peer, channel, info, engine: this.#engine });
        return result === undefined ? undefined : resultResponse(id, result);
      } catch (error) {
        if (isProtocolError(error)) return errorResponse(id, error.rpcCode, error.message, error.data);
        this.#engine.logger.error(`${m.method} failed`, { requestId: id, error });
        return errorResponse(id, INTERNAL_ERROR, `Internal error while handling ${m.method}.`);
      }
    } catch (error) {
      return this.#failed(message, error);
    }
  }

  #notifyUpdated(uri: string): void {
    for (const peer of this.#peers) {
      if (peer.subscriptions.has(uri)) {
        peer.notify({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
      }
    }
  }
}

/**
 * Create a dispatcher. Most code calls `createServer`, which builds one.
 *
 * @example
 * ```ts
 * const dispatcher = createDispatcher({ serverInfo: { name: 'demo', version: '1.0.0' }, tools: registry });
 * ```
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  return new Dispatcher(options);
}

const EMPTY: Params = Object.freeze({}) as Params;

function isParams(value: unknown): value is Params | undefined {
  return value === undefined || (typeof value === 'object' && value !== null && !Array.isArray(value));
}

function invalidReason(message: unknown): string {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return 'Invalid request: a JSON-RPC message must be an object.';
  }
  const m = message as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return 'Invalid request: "jsonrpc" must be "2.0".';
  if ('method' in m && typeof m.method !== 'string') return 'Invalid request: "method" must be a string.';
  if ('id' in m && !(typeof m.id === 'string' || typeof m.id === 'number')) {
    return 'Invalid request: "id" must be a string or a number.';
  }
  return 'Invalid request: not a JSON-RPC request, notification or response.';
}

export { classify, parseError, RawJson, serializeMessage } from './jsonrpc.js';

export type { Channel, JsonRpcResponse, Peer, PeerOptions, RequestInfo };
