/**
 * A `Peer` is one client as the protocol sees it: one stdio connection, one
 * Streamable HTTP session, or one stateless HTTP request. It remembers what the
 * handshake negotiated and what the client asked for since (log level,
 * resource subscriptions), and which calls of that client are in flight so
 * `notifications/cancelled` can abort them.
 *
 * Transports get peers from `dispatcher.createPeer()` and close them with
 * `peer.close()`; see src/engine/dispatcher.ts for the whole contract.
 */

import type { LogLevel } from '../tool/types.js';
import type { Channel, JsonRpcId, JsonRpcNotification } from './channel.js';
import { DEFAULT_NEGOTIATED_VERSION, type ProtocolVersion } from './era.js';

/** The client capabilities candor acts on (the rest is kept as sent). */
export interface ClientCapabilities {
  elicitation?: { form?: object; url?: object; [key: string]: unknown };
  sampling?: { [key: string]: unknown };
  roots?: { listChanged?: boolean; [key: string]: unknown };
  [key: string]: unknown;
}

/** `clientInfo` from `initialize`. */
export interface ClientInfo {
  name: string;
  version: string;
  title?: string;
  [key: string]: unknown;
}

/** Options of `dispatcher.createPeer()`. */
export interface PeerOptions {
  /** The `Mcp-Session-Id` of an HTTP session (absent on stdio and stateless HTTP). */
  sessionId?: string;
  /**
   * Where notifications that belong to no request go (list_changed,
   * resources/updated): the stdio writer, or an HTTP session's GET stream.
   * May be attached later with `peer.attach()`.
   */
  channel?: Channel;
  /**
   * Preset protocol version for a peer that will not send `initialize`
   * (stateless HTTP: the `MCP-Protocol-Version` header). Default: 2025-03-26,
   * what the spec says to assume when nothing was negotiated.
   */
  protocolVersion?: ProtocolVersion;
  /**
   * A peer that lives for one HTTP request without a session. A response to a
   * server→client request it made may then arrive on any other stateless peer
   * (there is no session to tie them together).
   */
  stateless?: boolean;
}

/** What the dispatcher tracks about one in-flight call (internal to the engine). */
export interface InFlight {
  abort(reason: unknown): void;
  /** Set when the client cancelled: the request then gets no response (spec, cancellation). */
  cancelled: boolean;
  /** Settles when the call has finished (whatever the outcome). */
  readonly done: Promise<unknown>;
}

/** Hooks the dispatcher gives each peer (internal). */
export interface PeerHooks {
  onClose(peer: Peer, reason: unknown): void;
}

/**
 * One client of the server. Created by `dispatcher.createPeer()`.
 *
 * @example
 * ```ts
 * const peer = dispatcher.createPeer({ channel: { open: true, send: (m) => write(m) } });
 * // … for each incoming message:
 * const answer = await dispatcher.handle(message, { peer, channel: peer.channel! });
 * // … when the connection ends:
 * peer.close();
 * ```
 */
export class Peer {
  readonly sessionId: string | undefined;
  readonly stateless: boolean;
  /** The negotiated (or assumed) protocol version. */
  protocolVersion: ProtocolVersion;
  /** True once `initialize` was answered. */
  negotiated = false;
  /** True once `notifications/initialized` arrived. */
  initialized = false;
  clientInfo: ClientInfo | undefined;
  clientCapabilities: ClientCapabilities = {};
  /** Set by `logging/setLevel`; until then every level is sent. */
  logLevel: LogLevel | undefined;
  /** Resource URIs this client subscribed to. */
  readonly subscriptions = new Set<string>();
  /** Calls of this client still running, by request id (engine-internal). */
  readonly inFlight = new Map<JsonRpcId, InFlight>();
  /** Ids of server→client requests this peer has not answered yet (engine-internal). */
  readonly pending = new Set<string>();
  #channel: Channel | undefined;
  #closed = false;
  readonly #hooks: PeerHooks;

  constructor(options: PeerOptions, hooks: PeerHooks) {
    this.sessionId = options.sessionId;
    this.stateless = options.stateless ?? false;
    this.protocolVersion = options.protocolVersion ?? DEFAULT_NEGOTIATED_VERSION;
    this.#channel = options.channel;
    this.#hooks = hooks;
  }

  /** The channel for notifications that belong to no request, if one is attached and open. */
  get channel(): Channel | undefined {
    return this.#channel?.open ? this.#channel : undefined;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Attach the standalone channel (an HTTP session's GET stream); replaces any previous one. */
  attach(channel: Channel): void {
    this.#channel = channel;
  }

  /** Detach the standalone channel, if it is still this one. */
  detach(channel?: Channel): void {
    if (channel === undefined || this.#channel === channel) this.#channel = undefined;
  }

  /** Send a notification on the standalone channel; false when there is none. */
  notify(notification: JsonRpcNotification): boolean {
    const channel = this.channel;
    if (!channel || this.#closed) return false;
    channel.send(notification);
    return true;
  }

  /**
   * Resolves once every call in flight right now has finished (used to drain
   * before closing, e.g. when stdin ends).
   */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inFlight.values()].map((call) => call.done));
  }

  /**
   * End this peer: in-flight calls are aborted (the client is gone or the
   * session was deleted), pending server→client requests are rejected, and the
   * dispatcher forgets it. Idempotent.
   */
  close(reason: unknown = new Error('The client connection closed.')): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#channel = undefined;
    for (const call of this.inFlight.values()) call.abort(reason);
    this.#hooks.onClose(this, reason);
  }
}
