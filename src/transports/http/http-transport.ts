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
import { isSupportedVersion, SUPPORTED_PROTOCOL_VERSIONS } from '../../engine/era.js';
import { INVALID_REQUEST, PARSE_ERROR, serializeMessage } from '../../engine/jsonrpc.js';
import { classifyEra, type EraRoute } from '../../engine/modern/classify.js';
import type { HeaderMap } from '../../engine/modern/header-value.js';
import { httpStatusOf } from '../../engine/modern/protocol.js';
import type { ClientCapabilities, Peer } from '../../engine/peer.js';
import type { ServerLogger } from '../../util/logger.js';
import { type HttpAuthorizer, isRefusal, principalKey } from './authorizer.js';
import type { ClusterLink, ClusterMessage, SessionRecord } from './cluster-link.js';
import { corsHeaders, preflightHeaders } from './cors.js';
import { type EventStore, InMemoryEventStore } from './event-store.js';
import { ABORTED, type Exchange, TOO_LARGE } from './exchange.js';
import { openStandalone, resumeStream } from './get-stream.js';
import { GoneSignal } from './gone-signal.js';
import type { HttpCloseOptions, HttpHandlerOptions } from './handler-options.js';
import { createHttpRateLimiter, type HttpRateLimiter } from './http-rate-limit.js';
import { acceptable, isJsonContentType } from './media-types.js';
import { carriesRequest, isInitialize } from './message-kinds.js';
import { PostChannel, type PostChannelConfig } from './post-channel.js';
import { RequestGuard } from './request-guard.js';
import { JSON_HEADERS, quoteHeader, refuse, refuseClosing, SESSION_NOT_FOUND, TRANSPORT_ERROR } from './responses.js';
import { Session, SessionStore, StreamChannel } from './sessions.js';
import { SseStream } from './sse-stream.js';

const ALLOW_STATEFUL = 'GET, POST, DELETE, OPTIONS';
const ALLOW_WITHOUT_GET = 'POST, DELETE, OPTIONS';
const ALLOW_STATELESS = 'POST, OPTIONS';
/** Why a stateless peer closes; made once (an Error per request would cost a stack trace each time). */
const REQUEST_ENDED = new Error('The request ended.');
const MISSING_SESSION = 'Bad request: the Mcp-Session-Id header is required (send initialize first to get one).';
const UNKNOWN_SESSION = 'Session not found: it ended or never existed; initialize a new one.';
/** The channel a forwarded client answer is handled with (answers produce no output). */
const CLOSED_CHANNEL = Object.freeze({ open: false, send() {} });

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
  readonly #bodyLimit: number;
  readonly #maxBatch: number | undefined;
  readonly #store: EventStore | undefined;
  readonly #channels: PostChannelConfig;
  readonly #sessions: SessionStore;
  readonly #statelessCapabilities: ClientCapabilities;
  readonly #authorizer: HttpAuthorizer | undefined;
  /**
   * With an authorizer: who opened each session. A session is used only by
   * the principal that opened it (MCP security best practices: bind session
   * ids to the user), so a leaked id is useless with another user's token.
   */
  readonly #owners = new WeakMap<Session, string>();
  /** Shared sessions, events and messages when several instances serve this endpoint. */
  readonly #cluster: ClusterLink | undefined;
  readonly #stopCluster: (() => void) | undefined;
  readonly #stopRestored: (() => void) | undefined;
  /**
   * Sessions whose shared record could not be written (the store was down):
   * served here, and written when the store answers again.
   */
  readonly #unsaved = new Set<string>();
  /** How often a session's shared record is kept alive, at most (ms). */
  readonly #touchEveryMs: number;
  /** The peer modern requests are handed with (the dispatcher uses their headers and signal, not a peer). */
  readonly #modernPeer: Peer;
  /** Modern requests in flight (ended on close). */
  readonly #modernRequests = new Set<GoneSignal>();
  #active = 0;
  #closing = false;
  #idle: (() => void) | undefined;

  constructor(options: HttpHandlerOptions) {
    const { dispatcher, sessions = 'stateful', bodyLimit = 4 * 1024 * 1024 } = options;
    this.#dispatcher = dispatcher;
    this.#logger = options.logger ?? dispatcher.logger;
    this.#stateful = sessions !== 'stateless';
    this.#getStream = this.#stateful && options.getStream !== false;
    this.#guard = new RequestGuard(options);
    this.#limiter = createHttpRateLimiter({
      option: options.rateLimit,
      env: options.env ?? process.env,
      logger: this.#logger,
      defaultStore: options.rateLimitStore,
    });
    this.#bodyLimit = bodyLimit;
    this.#maxBatch = options.maxBatch;
    this.#cluster = options.cluster;
    this.#store =
      options.eventStore === false
        ? undefined
        : (options.eventStore ?? this.#cluster?.eventStore ?? new InMemoryEventStore());
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
    this.#touchEveryMs = idleMs > 0 ? Math.min(60_000, idleMs / 10) : 60_000;
    this.#sessions = new SessionStore({
      maxSessions: options.maxSessions ?? 10_000,
      idleMs,
      onExpire: (session) => this.#logger.debug('an idle HTTP session expired', { session: session.id }),
    });
    this.#statelessCapabilities = options.statelessClientCapabilities ?? STATELESS_CAPABILITIES;
    this.#authorizer = options.authorizer;
    this.#modernPeer = dispatcher.createPeer({ stateless: true });
    this.#stopCluster = this.#cluster?.onMessage((message) => this.#onClusterMessage(message));
    this.#stopRestored = this.#cluster?.onStoreRestored?.(() => void this.#writeBack());
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
    if (this.#active > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.#idle = resolve;
        timer = setTimeout(resolve, timeoutMs);
        timer.unref?.();
      });
      clearTimeout(timer);
    }
    this.#stopCluster?.();
    this.#stopRestored?.();
    // Only this process's copies end: the shared records stay for the other instances.
    this.#sessions.closeAll(new Error('The server is shutting down.'));
    // Modern requests still open (listen streams of a dispatcher that was not drained) end too.
    for (const request of [...this.#modernRequests]) request.end(new Error('The server is shutting down.'));
  }

  async #post(exchange: Exchange): Promise<void> {
    const accepts = acceptable(exchange.header('accept'));
    if (!accepts.json && !accepts.sse) {
      refuse(
        exchange,
        406,
        TRANSPORT_ERROR,
        'Not acceptable: the Accept header must allow application/json and text/event-stream.',
      );
      return;
    }
    if (!isJsonContentType(exchange.header('content-type'))) {
      refuse(
        exchange,
        415,
        TRANSPORT_ERROR,
        `Unsupported media type ${quoteHeader(exchange.header('content-type'))}: send JSON-RPC as application/json.`,
      );
      return;
    }
    const body = await exchange.readBody(this.#bodyLimit);
    if (body === ABORTED) return;
    if (body === TOO_LARGE) {
      refuse(exchange, 413, TRANSPORT_ERROR, `Payload too large: the limit is ${this.#bodyLimit} bytes.`, [
        'connection',
        'close',
      ]);
      return;
    }
    let message: unknown;
    if (typeof body === 'string') {
      try {
        message = JSON.parse(body);
      } catch {
        refuse(exchange, 400, PARSE_ERROR, 'Parse error: the body is not valid JSON.');
        return;
      }
    } else {
      message = body.value;
    }
    if (this.#closing && carriesRequest(message)) {
      refuseClosing(exchange);
      return;
    }
    if (this.#maxBatch !== undefined && Array.isArray(message) && message.length > this.#maxBatch) {
      refuse(
        exchange,
        400,
        INVALID_REQUEST,
        `Invalid request: the batch has ${message.length} messages; the limit is ${this.#maxBatch}.`,
      );
      return;
    }
    if (this.#authorizer !== undefined && exchange.auth !== undefined) {
      const refused = this.#authorizer.permit(message, exchange.auth);
      if (refused !== undefined) {
        refuse(exchange, refused.status, TRANSPORT_ERROR, refused.message, refused.headers);
        return;
      }
    }
    // 2026-07-28: the body picks the era; a modern message never touches sessions.
    const headers: HeaderMap = (name) => exchange.header(name);
    const route = classifyEra(message, { headers });
    if (route.era === 'refused') {
      exchange.reply(httpStatusOf(route.response), JSON_HEADERS, serializeMessage(route.response));
      return;
    }
    if (route.era === 'modern') return this.#postModern(exchange, message, route, headers, accepts.sse);
    // The route goes along, so the dispatcher does not walk the message again.
    if (this.#stateful) await this.#postInSession(exchange, message, route, accepts.sse);
    else await this.#postStateless(exchange, message, route, accepts.sse);
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
        if (this.#cluster !== undefined && !(await this.#share(session, principal, { quiet: true }))) {
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
    const session = this.#cluster === undefined ? this.#localSession(exchange) : await this.#session(exchange);
    if (session === undefined || this.#badVersion(exchange)) return;
    if (this.#cluster !== undefined) this.#forwardAnswers(session, message);
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
    if (this.#cluster !== undefined && session.peer.logLevel !== level)
      void this.#share(session, this.#owners.get(session));
    channel.finish(value);
  }

  async #postStateless(exchange: Exchange, message: unknown, route: EraRoute, canStream: boolean): Promise<void> {
    if (this.#badVersion(exchange)) return;
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
      refuse(exchange, 405, TRANSPORT_ERROR, 'Method not allowed: this server has no GET stream.', [
        'allow',
        this.#allow(),
      ]);
      return;
    }
    if (!acceptable(exchange.header('accept')).sse) {
      refuse(exchange, 406, TRANSPORT_ERROR, 'Not acceptable: a GET stream needs Accept: text/event-stream.');
      return;
    }
    const session = await this.#session(exchange);
    if (session === undefined || this.#badVersion(exchange)) return;
    // Other instances stop writing this session's standalone events: the client listens here now.
    this.#cluster?.publish({ type: 'stream-claimed', session: session.id, from: this.#cluster.instanceId });
    const lastEventId = exchange.header('last-event-id');
    if (lastEventId !== undefined && this.#store !== undefined) {
      try {
        await resumeStream({ exchange, session, lastEventId, store: this.#store, logger: this.#logger });
      } catch (error) {
        if (exchange.responded) throw error;
        // The missed events live in the shared store: say so rather than open a stream without them.
        this.#logger.warn('a stream could not be resumed (the event store is unreachable)', {
          session: session.id,
          error,
        });
        refuse(
          exchange,
          503,
          TRANSPORT_ERROR,
          'Service unavailable: the events of this stream are in the shared store (Redis), which is unreachable, so the stream cannot be resumed now; try again shortly.',
          ['retry-after', '5'],
        );
      }
      return;
    }
    openStandalone(exchange, session);
  }

  async #delete(exchange: Exchange): Promise<void> {
    if (!this.#stateful) {
      refuse(exchange, 405, TRANSPORT_ERROR, 'Method not allowed: this server is stateless and has no sessions.', [
        'allow',
        ALLOW_STATELESS,
      ]);
      return;
    }
    const session = await this.#session(exchange);
    if (session === undefined || this.#badVersion(exchange)) return;
    this.#sessions.delete(session.id, new Error('The client ended the session.'));
    this.#unsaved.delete(session.id);
    const cluster = this.#cluster;
    if (cluster !== undefined) {
      try {
        await cluster.removeSession(session.id);
      } catch (error) {
        // Ended here; elsewhere it ends with the message below, and its record expires with the idle time.
        this.#logger.warn('the shared session record could not be removed (Redis unreachable)', {
          session: session.id,
          error,
        });
      }
      cluster.publish({ type: 'session-ended', session: session.id, from: cluster.instanceId });
    }
    exchange.reply(200, [], undefined);
  }

  #options(exchange: Exchange, origin: string | undefined): void {
    exchange.reply(204, preflightHeaders(this.#allow(), origin), undefined);
  }

  #allow(): string {
    if (!this.#stateful) return ALLOW_STATELESS;
    return this.#getStream ? ALLOW_STATEFUL : ALLOW_WITHOUT_GET;
  }

  /** {@link #session} for one process (no cluster): the session is in memory or unknown. */
  #localSession(exchange: Exchange): Session | undefined {
    const id = exchange.header('mcp-session-id');
    if (id === undefined) {
      refuse(exchange, 400, TRANSPORT_ERROR, MISSING_SESSION);
      return undefined;
    }
    const session = this.#sessions.get(id);
    // Another principal's session answers as an unknown one: nothing about it is revealed.
    if (
      session === undefined ||
      (this.#authorizer !== undefined && this.#owners.get(session) !== principalKey(exchange.auth))
    ) {
      refuse(exchange, 404, SESSION_NOT_FOUND, UNKNOWN_SESSION);
      return undefined;
    }
    session.lastSeen = Date.now();
    return session;
  }

  /** The session named by `Mcp-Session-Id`, or undefined after answering 400 / 404 (503: shared store down). */
  async #session(exchange: Exchange): Promise<Session | undefined> {
    const id = exchange.header('mcp-session-id');
    if (id === undefined) {
      refuse(exchange, 400, TRANSPORT_ERROR, MISSING_SESSION);
      return undefined;
    }
    let session = this.#sessions.get(id);
    if (session === undefined && this.#cluster !== undefined) {
      const restored = await this.#restore(exchange, id);
      if (restored === false) return undefined;
      session = restored;
    }
    // Another principal's session answers as an unknown one: nothing about it is revealed.
    if (
      session === undefined ||
      (this.#authorizer !== undefined && this.#owners.get(session) !== principalKey(exchange.auth))
    ) {
      refuse(exchange, 404, SESSION_NOT_FOUND, UNKNOWN_SESSION);
      return undefined;
    }
    const now = Date.now();
    session.lastSeen = now;
    if (this.#cluster !== undefined && now - session.touchedAt > this.#touchEveryMs) {
      session.touchedAt = now;
      this.#cluster.touchSession(session.id).catch((error: unknown) => {
        this.#logger.warn('the shared session record could not be kept alive (Redis unreachable)', {
          session: session.id,
          error,
        });
      });
    }
    return session;
  }

  /**
   * A session another instance opened: rebuild it here from its shared
   * record. Undefined when there is no such session; false once refused
   * (503, the shared store is unreachable).
   */
  async #restore(exchange: Exchange, id: string): Promise<Session | undefined | false> {
    let record: SessionRecord | undefined;
    try {
      record = await this.#cluster!.loadSession(id);
    } catch (error) {
      this.#logger.warn('a session could not be looked up (Redis unreachable)', { session: id, error });
      refuse(
        exchange,
        503,
        TRANSPORT_ERROR,
        'Service unavailable: the shared session store (Redis) is unreachable, so this session cannot be served here; try again shortly.',
        ['retry-after', '5'],
      );
      return false;
    }
    if (record === undefined || record.id !== id) return undefined;
    // Another request of the same session may have restored it meanwhile.
    const raced = this.#sessions.get(id);
    if (raced !== undefined) return raced;
    if (this.#sessions.full) {
      refuse(exchange, 503, TRANSPORT_ERROR, 'Service unavailable: too many open sessions; try again later.', [
        'retry-after',
        '30',
      ]);
      return false;
    }
    const session = this.#newSession(id);
    const peer = session.peer;
    peer.protocolVersion = isSupportedVersion(record.protocolVersion) ? record.protocolVersion : peer.protocolVersion;
    peer.negotiated = true;
    peer.initialized = true;
    peer.clientInfo = record.clientInfo;
    peer.clientCapabilities = record.clientCapabilities ?? {};
    peer.logLevel = record.logLevel;
    if (record.principal !== undefined) this.#owners.set(session, record.principal);
    this.#sessions.add(session);
    return session;
  }

  /** Write the session's shared record; false when the store is unreachable (then it is written on its return). */
  async #share(
    session: Session,
    principal: string | undefined,
    options: { onlyIfAbsent?: boolean; quiet?: boolean } = {},
  ): Promise<boolean> {
    const peer = session.peer;
    const record: SessionRecord = {
      id: session.id,
      protocolVersion: peer.protocolVersion,
      clientCapabilities: peer.clientCapabilities,
    };
    if (peer.clientInfo !== undefined) record.clientInfo = peer.clientInfo;
    if (peer.logLevel !== undefined) record.logLevel = peer.logLevel;
    if (principal !== undefined) record.principal = principal;
    try {
      await this.#cluster!.saveSession(record, options.onlyIfAbsent ? { onlyIfAbsent: true } : undefined);
      session.touchedAt = Date.now();
      this.#unsaved.delete(session.id);
      return true;
    } catch (error) {
      this.#unsaved.add(session.id);
      if (!options.quiet) {
        this.#logger.warn('the shared session record could not be written (Redis unreachable)', {
          session: session.id,
          error,
        });
      }
      return false;
    }
  }

  /**
   * The store answers again: write the records of sessions opened
   * or changed meanwhile, and put back those of the other live sessions if
   * the store came back without them (a Redis restarted empty), so any
   * instance can serve them again. A record already there is left alone.
   */
  async #writeBack(): Promise<void> {
    const sessions = this.#sessions.list();
    const live = new Set(sessions.map((s) => s.id));
    for (const id of [...this.#unsaved]) if (!live.has(id)) this.#unsaved.delete(id);
    const pending = this.#unsaved.size;
    const results = await Promise.all(
      sessions.map((session) =>
        this.#share(session, this.#owners.get(session), { onlyIfAbsent: !this.#unsaved.has(session.id), quiet: true }),
      ),
    );
    const failed = results.filter((ok) => !ok).length;
    this.#logger.info('session records written back to the shared store', {
      sessions: sessions.length,
      opened: pending,
      ...(failed > 0 ? { failed } : {}),
    });
  }

  /**
   * Answers to server→client requests this process did not make (the call
   * waiting for them runs on another instance): send them there.
   */
  #forwardAnswers(session: Session, message: unknown): void {
    const cluster = this.#cluster!;
    for (const item of Array.isArray(message) ? message : [message]) {
      if (typeof item !== 'object' || item === null || 'method' in item || !('id' in item)) continue;
      const id = (item as { id: unknown }).id;
      if (typeof id === 'string' && session.peer.pending.has(id)) continue;
      cluster.publish({ type: 'response', session: session.id, body: item, from: cluster.instanceId });
    }
  }

  #onClusterMessage(message: ClusterMessage): void {
    const session = this.#sessions.get(message.session);
    if (session === undefined) return;
    switch (message.type) {
      case 'response': {
        const body = message.body as { id?: unknown };
        // Only the instance whose call asked settles it; the others have nothing pending under that id.
        if (typeof body?.id !== 'string' || !session.peer.pending.has(body.id)) return;
        const channel = session.peer.channel ?? CLOSED_CHANNEL;
        void this.#dispatcher.handle(body, { peer: session.peer, channel });
        return;
      }
      case 'session-ended':
        this.#sessions.delete(session.id, new Error('The client ended the session.'));
        return;
      case 'stream-claimed': {
        const fresh = new SseStream(`${session.id}.0`, this.#channels.sessionStreams);
        session.releaseStandalone(fresh, new StreamChannel(fresh));
        return;
      }
    }
  }

  /**
   * `MCP-Protocol-Version` (2025-06-18+): an unsupported value is refused with
   * 400; a missing one means 2025-03-26 and is fine.
   */
  #badVersion(exchange: Exchange): boolean {
    const version = exchange.header('mcp-protocol-version');
    if (version === undefined || isSupportedVersion(version)) return false;
    refuse(
      exchange,
      400,
      TRANSPORT_ERROR,
      `Bad request: unsupported MCP-Protocol-Version ${quoteHeader(version)}; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}.`,
    );
    return true;
  }

  // crypto.randomUUID: cryptographically random and visible ASCII, as the spec asks of session ids.
  #newSession(id: string = crypto.randomUUID()): Session {
    const standalone = new SseStream(`${id}.0`, this.#channels.sessionStreams);
    const peer = this.#dispatcher.createPeer({ sessionId: id, channel: new StreamChannel(standalone) });
    return new Session(id, peer, standalone, this.#cluster === undefined ? '' : `${this.#cluster.instanceId}-`);
  }
}
