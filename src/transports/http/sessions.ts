/**
 * Streamable HTTP sessions (spec 2025-03-26+, transports, "Session
 * Management"): a session is minted when `initialize` succeeds and named by
 * `Mcp-Session-Id` afterwards. Each session is one dispatcher `Peer` plus its
 * SSE streams: the standalone GET stream (notifications that belong to no
 * request) and the POST streams still in progress (so a reconnecting client
 * can pick one up with `Last-Event-ID`). Sessions are never authentication.
 */
import type { Channel, JsonRpcNotification, JsonRpcRequest } from '../../engine/channel.js';
import { serializeMessage } from '../../engine/jsonrpc.js';
import type { Peer } from '../../engine/peer.js';
import type { SseStream } from './sse-stream.js';

/**
 * A `Channel` over a logical SSE stream: open while a connection carries it,
 * or while the client could come back for what it missed.
 *
 * @example
 * ```ts
 * const peer = dispatcher.createPeer({ sessionId, channel: new StreamChannel(standaloneStream) });
 * ```
 */
export class StreamChannel implements Channel {
  readonly stream: SseStream;

  constructor(stream: SseStream) {
    this.stream = stream;
  }

  get open(): boolean {
    const stream = this.stream;
    return !stream.ended && (stream.connected || stream.resumable);
  }

  send(message: JsonRpcNotification | JsonRpcRequest): void {
    if (this.open) this.stream.send(serializeMessage(message));
  }
}

/** One session: its peer and its streams. */
export class Session {
  /** The `Mcp-Session-Id`: a random UUID (cryptographically random, visible ASCII). */
  readonly id: string;
  readonly peer: Peer;
  /** The standalone stream, carried by GET connections (replaced when another instance takes it up). */
  standalone: SseStream;
  /** POST streams not finished yet, by stream id. */
  readonly streams = new Map<string, SseStream>();
  /** When the client last did anything (ms since epoch), for idle expiry. */
  lastSeen = Date.now();
  /** When the shared session record was last kept alive (ms since epoch; clustered servers only). */
  touchedAt = Date.now();
  #seq = 0;
  readonly #tag: string;

  /**
   * @param tag Prefix of this process's stream numbers. Clustered servers give
   * each instance its own, so two instances serving one session never mint the
   * same stream id (their events share one store).
   */
  constructor(id: string, peer: Peer, standalone: SseStream, tag = '') {
    this.id = id;
    this.peer = peer;
    this.standalone = standalone;
    this.#tag = tag;
  }

  /** Id of the next stream of this session (the prefix lets a replay be checked for ownership). */
  nextStreamId(): string {
    return `${this.id}.${this.#tag}${++this.#seq}`;
  }

  /**
   * Another instance took up this session's GET stream: end ours and keep a
   * fresh, unconnected one, so standalone events are written only where the
   * client now listens (no duplicates in a resumed stream).
   */
  releaseStandalone(fresh: SseStream, channel: StreamChannel): void {
    const old = this.standalone;
    this.standalone = fresh;
    this.peer.attach(channel);
    old.end();
  }

  /** Whether a stream id (from an event store) belongs to this session. */
  owns(streamId: string): boolean {
    return streamId.length > this.id.length && streamId.startsWith(this.id) && streamId[this.id.length] === '.';
  }

  /** Whether anything is going on: a connected GET stream, a running call, an open POST stream. */
  get busy(): boolean {
    return this.standalone.connected || this.streams.size > 0 || this.peer.inFlight.size > 0;
  }

  /**
   * End the session: abort its calls (via the peer) and end the GET stream.
   * POST streams still open then carry their calls' (aborted) answers and end.
   */
  close(reason: unknown): void {
    this.peer.close(reason);
    this.standalone.end();
  }
}

/** Options of {@link SessionStore}. */
export interface SessionStoreOptions {
  /** Most sessions at once; `initialize` beyond it is refused with 503. */
  maxSessions: number;
  /** Sessions with no activity for this long are ended (0 = never). */
  idleMs: number;
  /** Told about each session that expired. */
  onExpire?: (session: Session) => void;
}

/**
 * The sessions of one handler, in process. A session holds a live peer, so
 * this is a cache: with a cluster link (`createServer({ redis })`)
 * another instance rebuilds a session it has not seen from its shared record,
 * and any instance can serve any session behind a plain load balancer.
 *
 * @example
 * ```ts
 * const sessions = new SessionStore({ maxSessions: 10_000, idleMs: 30 * 60_000 });
 * sessions.add(session);
 * sessions.get(request.headers['mcp-session-id']);
 * ```
 */
export class SessionStore {
  readonly #sessions = new Map<string, Session>();
  readonly #options: SessionStoreOptions;
  #sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(options: SessionStoreOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#sessions.size;
  }

  get full(): boolean {
    return this.#sessions.size >= this.#options.maxSessions;
  }

  get(id: string): Session | undefined {
    return this.#sessions.get(id);
  }

  /** The live sessions (a snapshot). */
  list(): Session[] {
    return [...this.#sessions.values()];
  }

  add(session: Session): void {
    this.#sessions.set(session.id, session);
    const { idleMs } = this.#options;
    if (this.#sweeper === undefined && idleMs > 0) {
      this.#sweeper = setInterval(() => this.sweep(Date.now()), Math.min(idleMs, 60_000));
      this.#sweeper.unref?.();
    }
  }

  /** Remove and close a session. Returns false when there was none. */
  delete(id: string, reason: unknown): boolean {
    const session = this.#sessions.get(id);
    if (session === undefined) return false;
    this.#sessions.delete(id);
    session.close(reason);
    return true;
  }

  /** End sessions idle for longer than `idleMs` (run by a timer; exposed for tests). */
  sweep(now: number): void {
    const { idleMs, onExpire } = this.#options;
    if (idleMs <= 0) return;
    for (const session of [...this.#sessions.values()]) {
      if (now - session.lastSeen > idleMs && !session.busy) {
        this.delete(session.id, new Error('The session expired.'));
        onExpire?.(session);
      }
    }
  }

  /** Close every session and stop the timer. */
  closeAll(reason: unknown): void {
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
    for (const id of [...this.#sessions.keys()]) this.delete(id, reason);
  }
}
