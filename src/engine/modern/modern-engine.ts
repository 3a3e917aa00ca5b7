/**
 * The 2026-07-28 era on the dispatcher's long-lived state. Built
 * once per dispatcher next to the 2025 handlers, over the same registries,
 * pipeline and logger; nothing is constructed per request beyond the call's
 * context. The dispatcher classifies each message (classify.ts) and hands
 * modern ones here.
 *
 * What every modern answer gets: `resultType` (`complete` unless the call
 * needs input), `_meta['io.modelcontextprotocol/serverInfo']` (basic/index,
 * "Per-response protocol fields"; turn off with `announceServerInfo: false`),
 * and, over HTTP, the status the spec gives: 404 for an unknown method, 400
 * for header, envelope and version refusals, 200 otherwise.
 */
import { isProtocolError } from '../../errors.js';
import type { Channel, JsonRpcResponse, RequestInfo } from '../channel.js';
import type { Engine, Result } from '../engine.js';
import { errorResponse, INTERNAL_ERROR, METHOD_NOT_FOUND, RawJson, resultResponse } from '../jsonrpc.js';
import type { Peer } from '../peer.js';
import { CacheHints, type CacheOptions } from './cache-hints.js';
import { type ChangeEvent, type ChangeSource, InProcessChangeSource, publishRegistryChanges } from './change-source.js';
import type { EraRoute } from './classify.js';
import type { HeaderMap } from './header-value.js';
import { modernMethods, SpliceMemo } from './methods.js';
import { META, withHttpStatus } from './protocol.js';
import { type RequestStateOptions, RequestStateSealer } from './request-state.js';
import { type ModernScope, type ModernShared, statusOfError } from './scope.js';
import { SubscriptionHub, type SubscriptionOptions } from './subscriptions.js';

/** The server options of the 2026-07-28 era (part of `createServer`'s options as `modern`). */
export interface ModernOptions {
  /**
   * Speak only 2026-07-28: `initialize` and every other 2025-era request are
   * refused with -32022 naming the versions served (HTTP 400), batches are
   * refused, the HTTP endpoint has no sessions, GET stream or DELETE (405), and
   * `server/discover` lists 2026-07-28 alone. Default false: both eras on one endpoint.
   */
  only?: boolean;
  /** Sealing of `requestState` (secret, expiry). Share the secret across instances behind a load balancer. */
  requestState?: RequestStateOptions;
  /** `ttlMs` / `cacheScope` of discover, lists and reads. */
  cache?: CacheOptions;
  /** `subscriptions/listen`: limit, keep-alive interval, change source (e.g. one over Redis). */
  subscriptions?: SubscriptionOptions;
  /** Put `io.modelcontextprotocol/serverInfo` in every result's `_meta`. Default true. */
  announceServerInfo?: boolean;
}

/** Per-request facts the transport gives the modern engine. */
export interface ModernContext {
  channel: Channel;
  info?: RequestInfo;
  /** HTTP request headers (undefined on stdio: no header layer). */
  headers?: HeaderMap;
  /** The stdio connection's peer, for `notifications/cancelled` (undefined over HTTP). */
  peer?: Peer;
}

type ModernRoute = Extract<EraRoute, { era: 'modern' }>;

/**
 * Serves modern requests for one dispatcher.
 *
 * @example
 * ```ts
 * const modern = new ModernEngine(engine, { cache: { lists: { ttlMs: 300_000 } } });
 * const route = classifyEra(message, { headers });
 * if (route.era === 'modern') answer = await modern.handle(route, { channel, info, headers });
 * ```
 */
export class ModernEngine {
  readonly #engine: Engine;
  readonly #shared: ModernShared;
  readonly #resultMeta: { [key: string]: unknown };
  readonly #completeMembers: { [key: string]: unknown };
  /** `#completeMembers` as JSON members without the opening brace: `"resultType":"complete",…}`. */
  readonly #completeTail: string;
  readonly #memo = new SpliceMemo();
  readonly #stopPublishing: () => void;
  readonly #source: ChangeSource;

  constructor(engine: Engine, options: ModernOptions = {}) {
    this.#engine = engine;
    this.#resultMeta = options.announceServerInfo === false ? {} : { [META.serverInfo]: engine.serverInfo };
    this.#completeMembers =
      options.announceServerInfo === false
        ? { resultType: 'complete' }
        : { resultType: 'complete', _meta: this.#resultMeta };
    this.#completeTail = JSON.stringify(this.#completeMembers).slice(1);
    // The registries publish to the source; with a shared source (e.g. Redis) every instance hears every change.
    const source: ChangeSource =
      options.subscriptions?.source ??
      new InProcessChangeSource({ onError: (error) => engine.logger.warn('a change listener threw', { error }) });
    const stop = publishRegistryChanges(source, {
      tools: engine.tools,
      resources: engine.resources,
      prompts: engine.prompts,
    });
    this.#stopPublishing = stop;
    this.#source = source;
    this.#shared = {
      sealer: new RequestStateSealer(options.requestState),
      cache: new CacheHints(options.cache),
      subscriptions: new SubscriptionHub({
        ...options.subscriptions,
        source,
        capabilities: engine.capabilities,
        resultMeta: this.#resultMeta,
      }),
      modernOnly: options.only === true,
    };
  }

  /** Open `subscriptions/listen` streams. */
  get subscriptions(): number {
    return this.#shared.subscriptions.size;
  }

  /**
   * Answer one modern message. Never throws. Undefined for notifications and
   * for requests that get no response (cancelled, client gone).
   */
  async handle(route: ModernRoute, ctx: ModernContext): Promise<JsonRpcResponse | undefined> {
    if (route.kind === 'notification') {
      this.#notification(route.method, route.params, ctx);
      return undefined;
    }
    const { id, method } = route;
    const handler = modernMethods.get(method);
    if (handler === undefined) {
      // Streamable HTTP 2026-07-28: an unknown method is 404 with -32601 (so clients tell us from a legacy 404).
      return withHttpStatus(
        errorResponse(
          id,
          METHOD_NOT_FOUND,
          `Method not found: ${method} (protocol version ${route.envelope.protocolVersion}).`,
        ),
        404,
      );
    }
    const scope: ModernScope = {
      id,
      method,
      envelope: route.envelope,
      channel: ctx.channel,
      info: ctx.info,
      headers: ctx.headers,
      peer: ctx.peer,
      engine: this.#engine,
      shared: this.#shared,
    };
    try {
      const result = await handler(route.params, scope);
      if (result === undefined) return undefined;
      return resultResponse(id, this.#complete(result));
    } catch (error) {
      if (isProtocolError(error)) {
        const status = statusOfError(error) ?? (error.rpcCode === METHOD_NOT_FOUND ? 404 : 200);
        return withHttpStatus(errorResponse(id, error.rpcCode, error.message, error.data), status);
      }
      this.#engine.logger.error(`${method} failed`, { requestId: id, error });
      return errorResponse(id, INTERNAL_ERROR, `Internal error while handling ${method}.`);
    }
  }

  /** Publish a change to the open `subscriptions/listen` streams (e.g. one session's tool list changed). */
  publish(event: ChangeEvent): void {
    void Promise.resolve(this.#source.publish(event)).catch(() => {});
  }

  /** End every subscription gracefully and stop listening to the registries (server shutdown). */
  close(): void {
    this.#shared.subscriptions.closeAll();
    this.#stopPublishing();
  }

  /** `resultType` and the server's `_meta`, without touching the handler's object. */
  #complete(result: Result): Result {
    if (result instanceof RawJson)
      return new RawJson(this.#memo.splice(result.json, this.#completeMembers)) as unknown as Result;
    if (result.resultType === undefined && result._meta === undefined) {
      // The common answer (a tool result): splice the members in as text rather than copying the
      // object and serialising the server's _meta again on every call.
      const json = JSON.stringify(result);
      const spliced = json === '{}' ? `{${this.#completeTail}` : `${json.slice(0, -1)},${this.#completeTail}`;
      return new RawJson(spliced) as unknown as Result;
    }
    const meta = result._meta as { [key: string]: unknown } | undefined;
    return {
      ...result,
      resultType: result.resultType ?? 'complete',
      _meta: meta === undefined ? this.#resultMeta : { ...meta, ...this.#resultMeta },
    };
  }

  #notification(method: string, params: { [key: string]: unknown }, ctx: ModernContext): void {
    // stdio: the client cancels a request (or a subscription) this way; HTTP closes the stream instead.
    if (method !== 'notifications/cancelled' || ctx.peer === undefined) return;
    const id = params.requestId;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const call = ctx.peer.inFlight.get(id);
    if (call === undefined) return;
    call.cancelled = true;
    call.abort(new Error(typeof params.reason === 'string' ? params.reason : 'The client cancelled the request.'));
  }
}

export type { Result };
