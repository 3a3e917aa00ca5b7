/**
 * Resumability for Streamable HTTP (spec 2025-03-26 and later, transports:
 * "Resumability and Redelivery"). Every message the server writes on an SSE
 * stream is stored under an event id; a client that lost the connection sends
 * `GET` with `Last-Event-ID` and gets the events of *that stream* written after
 * the id, then the rest of the stream as it happens.
 *
 * The store is pluggable (Redis, a database, …): it keeps opaque SSE `data`
 * strings, already serialised, so it never parses or re-serialises a message.
 */

/** Receives replayed events, oldest first. */
export type ReplaySink = (eventId: string, data: string) => void | Promise<void>;

/**
 * Where SSE events are kept for replay. Methods may return promises (remote
 * stores); the in-memory default answers synchronously.
 *
 * @example
 * ```ts
 * const store: EventStore = {
 *   async storeEvent(streamId, data) {
 *     const id = `${streamId}:${await redis.incr(`seq:${streamId}`)}`;
 *     await redis.rpush(`events:${streamId}`, JSON.stringify([id, data]));
 *     return id;
 *   },
 *   async replayEventsAfter(lastEventId, send) { … return streamId; },
 * };
 * ```
 */
export interface EventStore {
  /**
   * Keep one event of a stream; returns its event id. The id must be visible
   * ASCII without newlines (it goes on an SSE `id:` line). `data` is the SSE
   * data: a serialised JSON-RPC message, or `''` for a priming event.
   */
  storeEvent(streamId: string, data: string): string | Promise<string>;
  /**
   * Send every event of the stream that `lastEventId` belongs to, written after
   * it, in order; return that stream's id. Return `undefined` when the id is
   * unknown (never issued, or already evicted).
   */
  replayEventsAfter(lastEventId: string, send: ReplaySink): string | undefined | Promise<string | undefined>;
}

/** Options of {@link InMemoryEventStore}. */
export interface InMemoryEventStoreOptions {
  /** Most events kept over all streams; the oldest go first. Default 10 000. */
  maxEvents?: number;
  /** Most bytes of event data kept over all streams (UTF-16 length, an estimate). Default 32 MiB. */
  maxBytes?: number;
}

interface StoredEvent {
  readonly id: string;
  readonly streamId: string;
  readonly seq: number;
  readonly data: string;
}

/**
 * The default event store: bounded, in process. Events are evicted oldest
 * first when `maxEvents` or `maxBytes` is exceeded, so a client that stays
 * away too long cannot resume (it then starts a fresh stream).
 *
 * @example
 * ```ts
 * const handler = createHttpHandler({ dispatcher, eventStore: new InMemoryEventStore({ maxEvents: 1000 }) });
 * ```
 */
export class InMemoryEventStore implements EventStore {
  readonly #maxEvents: number;
  readonly #maxBytes: number;
  /** Every event by id. Map order is insertion order, i.e. oldest first: eviction walks it. */
  readonly #byId = new Map<string, StoredEvent>();
  /** Each stream's events, oldest first. */
  readonly #byStream = new Map<string, StoredEvent[]>();
  #bytes = 0;
  #seq = 0;

  constructor(options: InMemoryEventStoreOptions = {}) {
    const { maxEvents = 10_000, maxBytes = 32 * 1024 * 1024 } = options;
    this.#maxEvents = Math.max(1, maxEvents);
    this.#maxBytes = Math.max(1, maxBytes);
  }

  /** Number of events held now. */
  get size(): number {
    return this.#byId.size;
  }

  storeEvent(streamId: string, data: string): string {
    const seq = ++this.#seq;
    // The global sequence makes ids unique across streams without asking the caller for anything.
    const event: StoredEvent = { id: `${streamId}_${seq}`, streamId, seq, data };
    this.#byId.set(event.id, event);
    let events = this.#byStream.get(streamId);
    if (events === undefined) {
      events = [];
      this.#byStream.set(streamId, events);
    }
    events.push(event);
    this.#bytes += data.length;
    while (this.#byId.size > this.#maxEvents || (this.#bytes > this.#maxBytes && this.#byId.size > 1))
      this.#evictOldest();
    return event.id;
  }

  replayEventsAfter(lastEventId: string, send: ReplaySink): string | undefined | Promise<string | undefined> {
    const last = this.#byId.get(lastEventId);
    if (last === undefined) return undefined;
    const events = this.#byStream.get(last.streamId) ?? [];
    const after = events.filter((event) => event.seq > last.seq && event.data !== '');
    let pending: Promise<void> | undefined;
    for (const event of after) {
      // Keep order even when the sink is asynchronous.
      pending = pending ? pending.then(() => send(event.id, event.data)) : toPromise(send(event.id, event.data));
    }
    return pending ? pending.then(() => last.streamId) : last.streamId;
  }

  #evictOldest(): void {
    const oldest = this.#byId.values().next().value as StoredEvent | undefined;
    if (oldest === undefined) return;
    this.#byId.delete(oldest.id);
    this.#bytes -= oldest.data.length;
    const events = this.#byStream.get(oldest.streamId);
    // The globally oldest event is also the oldest of its stream: it sits at the front.
    events?.shift();
    if (events !== undefined && events.length === 0) this.#byStream.delete(oldest.streamId);
  }
}

function toPromise(value: void | Promise<void>): Promise<void> | undefined {
  return value instanceof Promise ? value : undefined;
}
