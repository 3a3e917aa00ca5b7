/**
 * One logical SSE stream of Streamable HTTP: the upgraded response of a POST,
 * or a session's standalone GET stream. The stream outlives the HTTP
 * connection that carries it: with an event store, every event is stored
 * under an id, and a client that reconnects with `Last-Event-ID` gets the
 * missed events and then the rest of the stream on its new connection (spec,
 * transports, "Resumability and Redelivery"; SEP-1699 lets the server close
 * the connection on purpose and have the client come back).
 */
import type { ServerLogger } from '../../util/logger.js';
import type { EventStore } from './event-store.js';

/** A live HTTP response carrying SSE (node:http or fetch). */
export interface SseConnection {
  /** Write raw SSE text. Ignored after the connection closed. */
  write(chunk: string): void;
  /** Finish the response. */
  end(): void;
  /** True once the response ended or the client went away. */
  readonly closed: boolean;
  /** Called once when the connection closes, whoever closed it. */
  onClose(listener: () => void): void;
}

/**
 * Format one SSE event. JSON text has no raw line breaks, but cached JSON from
 * elsewhere might: each line then gets its own `data:` field, as SSE requires.
 *
 * @example
 * ```ts
 * sseFrame('s1_4', '{"jsonrpc":"2.0","method":"notifications/progress"}');
 * // 'id: s1_4\ndata: {"jsonrpc":…}\n\n'
 * ```
 */
export function sseFrame(id: string | undefined, data: string, retryMs?: number): string {
  let frame = id === undefined ? '' : `id: ${id}\n`;
  if (retryMs !== undefined) frame += `retry: ${retryMs}\n`;
  if (data.indexOf('\n') >= 0 || data.indexOf('\r') >= 0) {
    for (const line of data.split(/\r\n|\r|\n/)) frame += `data: ${line}\n`;
    return `${frame}\n`;
  }
  return `${frame}data: ${data}\n\n`;
}

/** Options shared by every stream of a handler. */
export interface SseStreamOptions {
  /** Where events are kept for replay; absent = no ids, no resumption. */
  store: EventStore | undefined;
  /** Interval of `: keepalive` comments while connected (0 = none). */
  keepAliveMs: number;
  /** Reconnection delay advised in priming events (SSE `retry:`). */
  retryMs: number | undefined;
  logger: ServerLogger;
}

const KEEP_ALIVE = ': keepalive\n\n';

/**
 * A logical SSE stream. `send` stores (when there is a store) and writes to
 * the connection attached now, if any.
 *
 * @example
 * ```ts
 * const stream = new SseStream('session.1', options);
 * stream.attach(connection);
 * stream.prime();
 * stream.send('{"jsonrpc":"2.0","method":"notifications/progress","params":{…}}');
 * stream.end();
 * ```
 */
export class SseStream {
  readonly id: string;
  readonly #options: SseStreamOptions;
  #connection: SseConnection | undefined;
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  /** Orders writes behind an asynchronous store. */
  #tail: Promise<void> | undefined;
  /** Frames held back while missed events are being replayed on a new connection. */
  #held: Array<[id: string | undefined, frame: string]> | undefined;
  #resumable = false;
  #ended = false;
  /** Called once when the stream ends (after its final event). */
  onEnd: (() => void) | undefined;

  constructor(id: string, options: SseStreamOptions) {
    this.id = id;
    this.#options = options;
  }

  /** A connection is attached and open. */
  get connected(): boolean {
    return this.#connection !== undefined && !this.#connection.closed;
  }

  /** An event id went out, so a client can come back with `Last-Event-ID`. */
  get resumable(): boolean {
    return this.#resumable;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Carry the stream on `connection` from now on (replacing none: callers check `connected`). */
  attach(connection: SseConnection): void {
    this.#stopKeepAlive();
    this.#connection = connection;
    connection.onClose(() => {
      if (this.#connection !== connection) return;
      this.#connection = undefined;
      this.#stopKeepAlive();
    });
    const { keepAliveMs } = this.#options;
    if (keepAliveMs > 0) {
      // Comments keep proxies and idle timers from cutting a quiet stream.
      this.#keepAlive = setInterval(() => this.#connection?.write(KEEP_ALIVE), keepAliveMs);
      this.#keepAlive.unref?.();
    }
  }

  /**
   * Attach a connection that is being replayed to: live events are held
   * until {@link finishReplay}, so they come after the replayed ones.
   */
  attachReplaying(connection: SseConnection): void {
    this.#held = [];
    this.attach(connection);
  }

  /** Release held events, skipping those the replay already delivered. */
  finishReplay(replayed?: ReadonlySet<string>): void {
    const held = this.#held;
    this.#held = undefined;
    if (held === undefined) return;
    for (const [id, frame] of held) if (id === undefined || !replayed?.has(id)) this.#connection?.write(frame);
    if (this.#ended) this.#connection?.end();
  }

  /**
   * Send the priming event (an id with empty data, SEP-1699) so the client can
   * resume even before the first message. Only with a store.
   */
  prime(): void {
    if (this.#options.store === undefined) return;
    this.#store('', this.#options.retryMs);
  }

  /** Send one event (`data` is a serialised JSON-RPC message). */
  send(data: string): void {
    if (this.#ended) return;
    if (this.#options.store === undefined) {
      this.#write(undefined, sseFrame(undefined, data));
      return;
    }
    this.#store(data, undefined);
  }

  /** The stream is complete (its final event was sent): end the connection. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    const finish = () => {
      this.#stopKeepAlive();
      if (this.#held === undefined) this.#connection?.end();
      this.onEnd?.();
    };
    if (this.#tail === undefined) finish();
    else this.#tail = this.#tail.then(finish);
  }

  /**
   * Close the connection but keep the stream (SEP-1699 polling): the client
   * reconnects with `Last-Event-ID`. Refused (false) when the client could
   * not resume, because then the rest of the stream would be lost.
   */
  disconnect(): boolean {
    if (this.#ended || this.#options.store === undefined) return false;
    if (this.#tail !== undefined) {
      // Events are on their way to an asynchronous store: close once they went out with their ids.
      this.#tail = this.#tail.then(() => {
        if (this.#resumable) this.#dropConnection();
      });
      return true;
    }
    if (!this.#resumable) return false;
    this.#dropConnection();
    return true;
  }

  #dropConnection(): void {
    const connection = this.#connection;
    this.#connection = undefined;
    this.#stopKeepAlive();
    connection?.end();
  }

  #store(data: string, retryMs: number | undefined): void {
    const { store, logger } = this.#options;
    let stored: string | Promise<string>;
    try {
      stored = store!.storeEvent(this.id, data);
    } catch (error) {
      logger.warn('the event store failed; the event was sent without an id', { stream: this.id, error });
      if (data !== '') this.#write(undefined, sseFrame(undefined, data));
      return;
    }
    if (typeof stored === 'string' && this.#tail === undefined) {
      this.#emit(stored, data, retryMs);
      return;
    }
    // An asynchronous store: keep the events in the order they were sent.
    this.#tail = (this.#tail ?? Promise.resolve())
      .then(() => stored)
      .then(
        (id) => this.#emit(id, data, retryMs),
        (error: unknown) => {
          logger.warn('the event store failed; the event was sent without an id', { stream: this.id, error });
          if (data !== '') this.#write(undefined, sseFrame(undefined, data));
        },
      );
  }

  #emit(id: string, data: string, retryMs: number | undefined): void {
    this.#resumable = true;
    this.#write(id, sseFrame(id, data, retryMs));
  }

  #write(id: string | undefined, frame: string): void {
    if (this.#held !== undefined) this.#held.push([id, frame]);
    else this.#connection?.write(frame);
  }

  #stopKeepAlive(): void {
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
  }
}
