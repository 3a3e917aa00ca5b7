/** The options of `createHttpHandler` (one object; every option is a key). */
import type { Dispatcher } from '../../engine/dispatcher.js';
import type { ClientCapabilities } from '../../engine/peer.js';
import type { ServerLogger } from '../../util/logger.js';
import type { HttpAuthorizer } from './authorizer.js';
import type { ClusterLink } from './cluster-link.js';
import type { EventStore } from './event-store.js';
import type { HttpRateLimitOptions } from './http-rate-limit.js';

/** Options of `createHttpHandler`. */
export interface HttpHandlerOptions {
  /** The dispatcher that answers messages (`server.dispatcher`). */
  dispatcher: Dispatcher;
  /**
   * The endpoint path. Requests to other paths get 404 (or go to `next` in
   * Express-style use). `false` accepts every path (a router already chose).
   * Default `/mcp`.
   */
  path?: string | false;
  /**
   * `stateful` (default): sessions with `Mcp-Session-Id`, a GET stream, DELETE.
   * `stateless`: no sessions; every POST is its own client; GET and DELETE get 405.
   */
  sessions?: 'stateful' | 'stateless';
  /**
   * Stateful mode: serve the GET stream (server-initiated notifications such
   * as list_changed, and `Last-Event-ID` resumption). `false` answers GET with
   * 405, which the spec allows; clients then poll. Default true.
   */
  getStream?: boolean;
  /**
   * The address the server is bound to (`listen()` passes it). Loopback
   * addresses turn on DNS-rebinding protection (Host and Origin must name
   * localhost). Undefined: decided per request from the local address the
   * connection arrived on (node:http), or loopback rules (fetch).
   */
  host?: string;
  /** Origins allowed to call (`'*'` = any). Default: localhost origins on loopback, the same origin elsewhere. */
  allowedOrigins?: readonly string[];
  /** Host header values allowed (a bare name matches any port). Default: localhost names on loopback, any elsewhere. */
  allowedHosts?: readonly string[];
  /** Largest request body in bytes (413 beyond). Default 4 MiB. */
  bodyLimit?: number;
  /**
   * Most messages in one JSON-RPC batch (400 beyond, before dispatch). The
   * dispatcher has its own limit (`maxBatchSize`, default 32) and allows batches
   * only on 2025-03-26.
   */
  maxBatch?: number;
  /**
   * Where SSE events are kept for `Last-Event-ID` replay. Default: a bounded
   * `InMemoryEventStore`. `false`: no event ids, no resumption.
   */
  eventStore?: EventStore | false;
  /**
   * Shared state for several instances of this server behind a load balancer
   * (sessions, resumable events, server→client answers). Built by
   * `createServer({ redis })`; see `createRedisCluster`. Default: none (one process).
   */
  cluster?: ClusterLink;
  /**
   * Global limit for the endpoint (429 with `Retry-After`). Default: from
   * `RATE_LIMIT_MAX` / `RATE_LIMIT_WINDOW_MS` when set, else none. `false`: none.
   */
  rateLimit?: HttpRateLimitOptions | false;
  /**
   * The counter store of the global limit when `rateLimit` names none
   * (`createServer({ redis })` sets Redis, so instances share one budget).
   * Default: in memory.
   */
  rateLimitStore?: HttpRateLimitOptions['store'];
  /** Where `RATE_LIMIT_*` are read. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The transport's own log. Default: the dispatcher's logger. */
  logger?: ServerLogger;
  /** Interval of SSE keep-alive comments in ms (0 = none). Default 15 000. */
  keepAliveMs?: number;
  /** Reconnection delay advised to clients in priming events (SSE `retry:`), in ms. Default 1000. */
  retryMs?: number;
  /** Most sessions at once (503 for `initialize` beyond). Default 10 000. */
  maxSessions?: number;
  /** End sessions idle this long, in ms (0 = never). Default 30 minutes. */
  sessionIdleMs?: number;
  /**
   * Stateless mode: what each request's client is assumed to support. Without
   * a session the server cannot know what the client declared at
   * `initialize`, so by default it assumes elicitation (form), sampling and
   * roots, and lets the client refuse if it cannot. Pass `{}` to assume nothing.
   */
  statelessClientCapabilities?: ClientCapabilities;
  /**
   * Authorization (src/auth, `createServer({ auth })` sets it): every request
   * but OPTIONS must carry a token it accepts (401 / 403 otherwise), and it
   * serves its well-known documents (RFC 9728 metadata). Default: none.
   */
  authorizer?: HttpAuthorizer;
}

/** Options of `handler.close()`. */
export interface HttpCloseOptions {
  /** How long to wait for requests in flight before ending everything. Default 10 000 ms. */
  timeoutMs?: number;
}
