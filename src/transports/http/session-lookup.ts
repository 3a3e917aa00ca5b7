/**
 * Finding the session a request names (`Mcp-Session-Id`): 400 when it names
 * none, 404 when it is unknown or belongs to another principal (nothing about
 * another person's session is revealed), rebuilt from the shared record when
 * another instance opened it. And the `MCP-Protocol-Version` check a session
 * request passes.
 */
import { isSupportedVersion, SUPPORTED_PROTOCOL_VERSIONS } from '../../engine/era.js';
import { type HttpAuthorizer, principalKey } from './authorizer.js';
import type { ClusterSessions } from './cluster-sessions.js';
import type { Exchange } from './exchange.js';
import { quoteHeader, refuse, SESSION_NOT_FOUND, TRANSPORT_ERROR } from './responses.js';
import type { Session, SessionStore } from './sessions.js';

const MISSING_SESSION = 'Bad request: the Mcp-Session-Id header is required (send initialize first to get one).';
const UNKNOWN_SESSION = 'Session not found: it ended or never existed; initialize a new one.';

/** Where sessions are looked up. */
export interface SessionLookupOptions {
  sessions: SessionStore;
  /** Who opened each session (with an authorizer). */
  owners: WeakMap<Session, string>;
  authorizer: HttpAuthorizer | undefined;
  shared: ClusterSessions | undefined;
}

/**
 * The session a request names, in this process (no await on the one-process path)
 * or, with a cluster, restored from its shared record.
 *
 * @example
 * ```ts
 * const lookup = new SessionLookup({ sessions, owners, authorizer: undefined, shared: undefined });
 * const session = lookup.local(exchange);
 * ```
 */
export class SessionLookup {
  readonly #o: SessionLookupOptions;

  constructor(options: SessionLookupOptions) {
    this.#o = options;
  }

  /** The session in this process, or undefined after answering 400 / 404. */
  local(exchange: Exchange): Session | undefined {
    const id = this.#id(exchange);
    if (id === undefined) return undefined;
    const session = this.#owned(exchange, this.#o.sessions.get(id));
    if (session !== undefined) session.lastSeen = Date.now();
    return session;
  }

  /** The session here or on another instance, or undefined after answering 400 / 404 (503: shared store down). */
  async find(exchange: Exchange): Promise<Session | undefined> {
    const id = this.#id(exchange);
    if (id === undefined) return undefined;
    let session = this.#o.sessions.get(id);
    if (session === undefined && this.#o.shared !== undefined) {
      const restored = await this.#o.shared.restore(exchange, id);
      if (restored === false) return undefined;
      session = restored;
    }
    const owned = this.#owned(exchange, session);
    if (owned === undefined) return undefined;
    const now = Date.now();
    owned.lastSeen = now;
    this.#o.shared?.touch(owned, now);
    return owned;
  }

  #id(exchange: Exchange): string | undefined {
    const id = exchange.header('mcp-session-id');
    if (id === undefined) refuse(exchange, 400, TRANSPORT_ERROR, MISSING_SESSION);
    return id;
  }

  #owned(exchange: Exchange, session: Session | undefined): Session | undefined {
    if (
      session === undefined ||
      (this.#o.authorizer !== undefined && this.#o.owners.get(session) !== principalKey(exchange.auth))
    ) {
      refuse(exchange, 404, SESSION_NOT_FOUND, UNKNOWN_SESSION);
      return undefined;
    }
    return session;
  }
}

/**
 * `MCP-Protocol-Version` (2025-06-18+): an unsupported value is refused with
 * 400; a missing one means 2025-03-26 and is fine. True once refused.
 */
export function badProtocolVersion(exchange: Exchange): boolean {
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
