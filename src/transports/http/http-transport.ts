/**
 * The Streamable HTTP core (spec 2025-03-26 / 2025-06-18 / 2025-11-25,
 * transports): one object per handler that applies the security checks,
 * routes POST / GET / DELETE, keeps the sessions, and hands each JSON-RPC
 * message to the dispatcher with a per-request `Channel`. The node:http and
 * fetch handlers are thin adapters over it (see `create-http-handler.ts`).
 *
 * Order of checks on every request: shutting down (503; POSTs of responses
 * and notifications still pass, see `close`) → Origin / Host (403)
 * → global rate limit (429) → method (405). Then per method: Accept (406),
 * Content-Type (415), body size (413), JSON (400, -32700), batch size (400),
 * session (400 missing / 404 unknown), MCP-Protocol-Version (400).
 */
import type { Dispatcher } from '../../engine/dispatcher.js';
import { isSupportedVersion } from '../../engine/era.js';
import { serializeMessage } from '../../engine/jsonrpc.js';
import { classifyEra, type EraRoute } from '../../engine/modern/classify.js';
import type { HeaderMap } from '../../engine/modern/header-value.js';
import { httpStatusOf } from '../../engine/modern/protocol.js';
import type { ClientCapabilities, Peer } from '../../engine/peer.js';
import type { ServerLogger } from '../../util/logger.js';
import { type HttpAuthorizer, isRefusal, principalKey } from './authorizer.js';
import { ClusterSessions } from './cluster-sessions.js';
import { corsHeaders, preflightHeaders } from './cors.js';
import { type EventStore, InMemoryEventStore } from './event-store.js';
import type { Exchange } from './exchange.js';
import { serveGetStream } from './get-stream.js';
import { GoneSignal } from './gone-signal.js';
import type { HttpCloseOptions, HttpHandlerOptions } from './handler-options.js';
import { createHttpRateLimiter, type HttpRateLimiter } from './http-rate-limit.js';
import { acceptable } from './media-types.js';
import { isInitialize } from './message-kinds.js';
import { REFUSED, readPostMessage } from './post-body.js';
import { PostChannel, type PostChannelConfig } from './post-channel.js';
import { RequestGuard } from './request-guard.js';
import {
  allowedMethods,
  JSON_HEADERS,
  quoteHeader,
  refuse,
  refuseClosing,
  refuseUnserved,
  TRANSPORT_ERROR,
} from './responses.js';
import { badProtocolVersion, SessionLookup } from './session-lookup.js';
import { Session, SessionStore, StreamChannel } from './sessions.js';
import { SseStream } from './sse-stream.js';

/** Why a stateless peer closes; made once (an Error per request would cost a stack trace each time). */
const REQUEST_ENDED = new Error('The request ended.');

/** Assumed for stateless clients (see `statelessClientCapabilities`). */
const STATELESS_CAPABILITIES: ClientCapabilities = Object.freeze({
  elicitation: { form: {} },
  sampling: {},
  roots: {},
});

/**
 * The transport core. Most code uses `createHttpHandler`, which wraps it.
 *
 * @example
 * ```ts
 * const transport = new HttpTransport({ dispatcher: server.dispatcher });
 * http.createServer((req, res) => transport.handle(new NodeExchange(req, res)));
 * ```
 */
export class HttpTransport {
  readonly #dispatcher: Dispatcher;
  readonly #logger: ServerLogger;
  readonly #stateful: boolean;
  readonly #getStream: boolean;
  readonly #guard: RequestGuard;
  readonly #limiter: HttpRateLimiter | undefined;
  readonly #store: EventStore | undefined;
  readonly #channels: PostChannelConfig;
  readonly #sessions: SessionStore;
  readonly #statelessCapabilities: ClientCapabilities;
  readonly #authorizer: HttpAuthorizer | undefined;
  /**
   * With an authorizer: who opened each session. Only that principal may use it (MCP security
   * best practices: bind session ids to the user), so a leaked id is useless to another user.
   */
  readonly #owners = new WeakMap<Session, string>();
  /** Shared sessions, events and messages when several instances serve this endpoint. */
  readonly #shared: ClusterSessions | undefined;
  /** Prefixes the ids of this instance's streams, so any instance can tell whose a stream is. */
  readonly #idPrefix: string;
  readonly #lookup: SessionLookup;
  /** The peer modern requests are handed with (the dispatcher uses their headers and signal, not a peer). */
  readonly #modernPeer: Peer;
  /** Modern requests in flight (ended on close). */
  readonly #modernRequests = new Set<GoneSignal>();
  #active = 0;
  #closing = false;
  /** Read by every POST; `closing` follows `#closing`. */
  readonly #limits: { bodyLimit: number; maxBatch: number | undefined; closing: boolean };
  #idle: (() => void) | undefined;

  constructor(options: HttpHandlerOptions) {
    const { dispatcher, sessions = 'stateful', bodyLimit = 4 * 1024 * 1024 } = options;
    this.#dispatcher = dispatcher;
    this.#logger = options.logger ?? dispatcher.logger;
    // Only 2026-07-28: no sessions, GET stream or DELETE (Streamable HTTP 2026-07-28, "Earlier Streamable HTTP Revisions").
    this.#stateful = sessions !== 'stateless' && !dispatcher.modernOnly;
    this.#getStream = this.#stateful && options.getStream !== false;
    this.#guard = new RequestGuard(options);
    this.#limiter = createHttpRateLimiter({
      option: options.rateLimit,
      env: options.env ?? globalThis.process?.env ?? {},
      logger: this.#logger,
      defaultStore: options.rateLimitStore,
    });
    this.#limits = { bodyLimit, maxBatch: options.maxBatch, closing: false };
    const cluster = options.cluster;
    this.#idPrefix = cluster === undefined ? '' : `${cluster.instanceId}-`;
    this.#store =
      options.eventStore === false
        ? undefined
        : (options.eventStore ?? cluster?.eventStore ?? new InMemoryEventStore());
    const streams = {
      keepAliveMs: options.keepAliveMs ?? 15_000,
      retryMs: options.retryMs ?? 1000,
      logger: this.#logger,
    };
    this.#channels = {
      sessionStreams: { ...streams, store: this.#store },
      plainStreams: { ...streams, store: undefined },
    };
    const idleMs = options.sessionIdleMs ?? 30 * 60_000;
    this.#sessions = new SessionStore({
      maxSessions: options.maxSessions ?? 10_000,
      idleMs,
      onExpire: (session) => this.#logger.debug('an idle HTTP session expired', { session: session.id }),
    });
    this.#statelessCapabilities = options.statelessClientCapabilities ?? STATELESS_CAPABILITIES;
    this.#authorizer = options.authorizer;
    this.#modernPeer = dispatcher.createPeer({ stateless: true });
    this.#shared =
      cluster === undefined
        ? undefined
        : new ClusterSessions({
            cluster,
            sessions: this.#sessions,
            owners: this.#owners,
            dispatcher,
            logger: this.#logger,
            channels: this.#channels,
            touchEveryMs: idleMs > 0 ? Math.min(60_000, idleMs / 10) : 60_000,
            newSession: (id) => this.#newSession(id),
          });
    this.#lookup = new SessionLookup({
      sessions: this.#sessions,
      owners: this.#owners,
      authorizer: this.#authorizer,
      shared: this.#shared,
    });
  }

  /** Live sessions (stateful mode). */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** Answer one request. Never rejects; an unexpected failure becomes a 500. */
  async handle(exchange: Exchange): Promise<void> {
    try {
      // While draining, a POST may still answer a server→client request of a running call.
      if (this.#closing && exchange.method !== 'POST') {
        refuseClosing(exchange);
        return;
      }
      const origin = exchange.header('origin');
      const refusal = this.#guard.check(origin, exchange.header('host'), exchange);
      if (refusal !== undefined) {
        refuse(exchange, 403, TRANSPORT_ERROR, refusal);
        return;
      }
      // Browsers need CORS headers to read answers from an allowed cross-origin page.
      if (origin !== undefined) exchange.extraHeaders = corsHeaders(origin);
      if (this.#limiter !== undefined) {
        const wait = await this.#limiter.consume(exchange.http);
        if (wait !== undefined) {
          refuse(exchange, 429, TRANSPORT_ERROR, `Too many requests: try again in ${wait} s.`, [
            'retry-after',
            String(wait),
          ]);
          return;
        }
      }
      // MCP authorization: every request but a CORS preflight carries the token.
      if (this.#authorizer !== undefined && exchange.method !== 'OPTIONS' && !(await this.#admit(exchange))) return;
      switch (exchange.method) {
        case 'POST':
          return await this.#post(exchange);
        case 'GET':
          return await this.#get(exchange);
        case 'DELETE':
          return await this.#delete(exchange);
        case 'OPTIONS':
          return this.#options(exchange, origin);
        default:
          refuse(exchange, 405, TRANSPORT_ERROR, `Method not allowed: ${quoteHeader(exchange.method)}.`, [
            'allow',
            this.#allow(),
          ]);
      }
    } catch (error) {
      this.#logger.error('the HTTP transport failed on a request', { error });
      if (!exchange.responded) refuse(exchange, 500, -32603, 'Internal error.');
    }
  }

  /**
   * Stop taking requests (503), wait for those in flight (up to `timeoutMs`),
   * then end every session: running calls are aborted and SSE streams end.
   * While waiting, POSTs that carry only responses and notifications still
   * pass, so a running call can get its elicitation answered and finish.
   */
  async close(options: HttpCloseOptions = {}): Promise<void> {
    const { timeoutMs = 10_000 } = options;
    this.#closing = true;
    this.#limits.closing = true;
    if (this.#active > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.#idle = resolve;
        timer = setTimeout(resolve, timeoutMs);
        timer.unref?.();
      });
      clearTimeout(timer);
    }
    this.#shared?.close();
    // Only this process's copies end: the shared records stay for the other instances.
    this.#sessions.closeAll(new Error('The server is shutting down.'));
    // Modern requests still open (listen streams of a dispatcher that was not drained) end too.
    for (const request of [...this.#modernRequests]) request.end(new Error('The server is shutting down.'));
  }

  async #post(exchange: Exchange): Promise<void> {
    const accepts = acceptable(exchange.header('accept'));
    const message = await readPostMessage(exchange, accepts, this.#limits);
    if (message === REFUSED) return;
    const canStream = accepts.sse;
    if (this.#authorizer !== undefined && exchange.auth !== undefined) {
      const refused = this.#authorizer.permit(message, exchange.auth);
      if (refused !== undefined) {
        refuse(exchange, refused.status, TRANSPORT_ERROR, refused.message, refused.headers);
        return;
      }
    }
    // 2026-07-28: the body picks the era; a modern message never touches sessions.
    const headers: HeaderMap = (name) => exchange.header(name);
    const route = classifyEra(message, { headers, modernOnly: this.#dispatcher.modernOnly });
    if (route.era === 'refused') {
      exchange.reply(httpStatusOf(route.response), JSON_HEADERS, serializeMessage(route.response));
      return;
    }
    if (route.era === 'modern') return this.#postModern(exchange, message, route, headers, canStream);
    // The route goes along, so the dispatcher does not walk the message again.
    if (this.#stateful) await this.#postInSession(exchange, message, route, canStream);
    else await this.#postStateless(exchange, message, route, canStream);
  }

  /**
   * A 2026-07-28 message: stateless (no session is read or minted), its
   * headers cross-checked by the dispatcher, and closing the response stream
   * cancels it: the handler's signal aborts and nothing more is written.
   */
  async #postModern(
    exchange: Exchange,
    message: unknown,
    route: EraRoute,
    headers: HeaderMap,
    canStream: boolean,
  ): Promise<void> {
    const channel = new PostChannel(this.#channels, exchange, undefined, canStream);
    exchange.closer = channel;
    const gone = new GoneSignal(exchange);
    this.#modernRequests.add(gone);
    this.#active++;
    try {
      const value = await this.#dispatcher.handle(message, {
        peer: this.#modernPeer,
        channel,
        headers,
        route,
        info: gone,
      });
      if (!exchange.gone) channel.finish(value);
    } finally {
      gone.release();
      this.#modernRequests.delete(gone);
      if (--this.#active === 0 && this.#idle !== undefined) this.#idle();
    }
  }

  async #postInSession(exchange: Exchange, message: unknown, route: EraRoute, canStream: boolean): Promise<void> {
    if (isInitialize(message)) {
      if (this.#sessions.full) {
        refuse(exchange, 503, TRANSPORT_ERROR, 'Service unavailable: too many open sessions; try again later.', [
          'retry-after',
          '30',
        ]);
        return;
      }
      const session = this.#newSession();
      const answer = await this.#dispatch(exchange, message, route, session.peer, session, canStream);
      if (answer === undefined) return;
      if (answer.value !== undefined && 'result' in answer.value) {
        const principal = this.#authorizer === undefined ? undefined : principalKey(exchange.auth);
        if (principal !== undefined) this.#owners.set(session, principal);
        if (this.#shared !== undefined && !(await this.#shared.share(session, principal, { quiet: true }))) {
          // Degraded: the session is served here, and shared once the store answers again.
          this.#logger.info('a new session is kept on this instance until Redis returns (then it is shared)', {
            session: session.id,
          });
        }
        this.#sessions.add(session);
        answer.channel.finish(answer.value, session.id);
      } else {
        session.close(new Error('initialize failed'));
        answer.channel.finish(answer.value);
      }
      return;
    }
    // One process (no cluster): the session is in memory, found without a promise.
    const session = this.#shared === undefined ? this.#lookup.local(exchange) : await this.#lookup.find(exchange);
    if (session === undefined || badProtocolVersion(exchange)) return;
    this.#shared?.forwardAnswers(session, message);
    const level = session.peer.logLevel;
    const channel = new PostChannel(this.#channels, exchange, session, canStream);
    exchange.closer = channel;
    this.#active++;
    let value: Awaited<ReturnType<Dispatcher['handle']>>;
    try {
      value = await this.#dispatcher.handle(message, {
        peer: session.peer,
        channel,
        route,
        info: { http: exchange.http, auth: exchange.auth, tools: exchange.tools },
      });
    } finally {
      if (--this.#active === 0 && this.#idle !== undefined) this.#idle();
    }
    // logging/setLevel holds for the session wherever its next request lands.
    if (this.#shared !== undefined && session.peer.logLevel !== level)
      void this.#shared.share(session, this.#owners.get(session));
    channel.finish(value);
  }

  async #postStateless(exchange: Exchange, message: unknown, route: EraRoute, canStream: boolean): Promise<void> {
    if (badProtocolVersion(exchange)) return;
    const version = exchange.header('mcp-protocol-version');
    const peer = this.#dispatcher.createPeer({
      stateless: true,
      protocolVersion: version !== undefined && isSupportedVersion(version) ? version : undefined,
    });
    peer.clientCapabilities = this.#statelessCapabilities;
    try {
      const answer = await this.#dispatch(exchange, message, route, peer, undefined, canStream);
      answer?.channel.finish(answer.value);
    } finally {
      peer.close(REQUEST_ENDED);
    }
  }

  /** Hand a message to the dispatcher; resolves with the answer and the channel to deliver it on. */
  async #dispatch(
    exchange: Exchange,
    message: unknown,
    route: EraRoute,
    peer: Peer,
    session: Session | undefined,
    canStream: boolean,
  ): Promise<{ value: any; channel: PostChannel } | undefined> {
    const channel = new PostChannel(this.#channels, exchange, session, canStream);
    exchange.closer = channel;
    this.#active++;
    try {
      const value = await this.#dispatcher.handle(message, {
        peer,
        channel,
        route,
        info: { http: exchange.http, auth: exchange.auth, tools: exchange.tools },
      });
      return { value, channel };
    } finally {
      if (--this.#active === 0 && this.#idle !== undefined) this.#idle();
    }
  }

  /**
   * Authorization (src/auth): verify the request's token before anything
   * else of it is read; the principal becomes `ctx.auth`. False once refused.
   */
  async #admit(exchange: Exchange): Promise<boolean> {
    const admission = await this.#authorizer!.authenticate((name) => exchange.header(name));
    if (isRefusal(admission)) {
      refuse(exchange, admission.status, TRANSPORT_ERROR, admission.message, admission.headers);
      return false;
    }
    exchange.auth = admission.auth;
    exchange.tools = admission.tools;
    return true;
  }

  async #get(exchange: Exchange): Promise<void> {
    if (!this.#getStream) {
      refuseUnserved(exchange, 'GET', { modernOnly: this.#dispatcher.modernOnly, allow: this.#allow() });
      return;
    }
    if (!acceptable(exchange.header('accept')).sse) {
      refuse(exchange, 406, TRANSPORT_ERROR, 'Not acceptable: a GET stream needs Accept: text/event-stream.');
      return;
    }
    const session = await this.#lookup.find(exchange);
    if (session === undefined || badProtocolVersion(exchange)) return;
    // Other instances stop writing this session's standalone events: the client listens here now.
    this.#shared?.claimStream(session);
    await serveGetStream(exchange, session, { store: this.#store, logger: this.#logger });
  }

  async #delete(exchange: Exchange): Promise<void> {
    if (!this.#stateful) {
      refuseUnserved(exchange, 'DELETE', { modernOnly: this.#dispatcher.modernOnly, allow: this.#allow() });
      return;
    }
    const session = await this.#lookup.find(exchange);
    if (session === undefined || badProtocolVersion(exchange)) return;
    this.#sessions.delete(session.id, new Error('The client ended the session.'));
    await this.#shared?.ended(session);
    exchange.reply(200, [], undefined);
  }

  #options(exchange: Exchange, origin: string | undefined): void {
    exchange.reply(204, preflightHeaders(this.#allow(), origin), undefined);
  }

  #allow(): string {
    return allowedMethods({ stateful: this.#stateful, getStream: this.#getStream });
  }

  // crypto.randomUUID: cryptographically random and visible ASCII, as the spec asks of session ids.
  #newSession(id: string = crypto.randomUUID()): Session {
    const standalone = new SseStream(`${id}.0`, this.#channels.sessionStreams);
    const peer = this.#dispatcher.createPeer({ sessionId: id, channel: new StreamChannel(standalone) });
    return new Session(id, peer, standalone, this.#idPrefix);
  }
}
