/**
 * The SSE event store on Redis: any instance can replay a stream
 * that another instance wrote, so a client whose GET or POST stream dropped
 * can resume with `Last-Event-ID` wherever the load balancer sends it — even
 * after the instance that wrote the events is gone.
 *
 * Each stream is one Redis list of `"<seq> <data>"` entries, capped to the
 * newest `maxPerStream` and expiring `ttlMs` after its last event; the
 * sequence comes from an INCR on the stream's own counter, in the same Lua
 * script, so event ids are ordered per stream across instances. An event id
 * is `<streamId>_<seq>`; the stream id is everything before the last `_`.
 *
 * Redis Cluster: a stream's keys carry its session id as a hash tag
 * (`events:{<session>}.<n>`, with the session record at `session:{<session>}`),
 * so the script's two keys, and all of a session's keys, share one slot.
 */

import type { EventStore, ReplaySink } from '../transports/http/event-store.js';
import type { RedisClient } from './redis-connection.js';

/** Options of {@link RedisEventStore}. */
export interface RedisEventStoreOptions {
  /** Key prefix. Default `candor:`. */
  prefix?: string;
  /** Newest events kept per stream. Default 1000. */
  maxPerStream?: number;
  /** A stream's events expire this long after its last event. Default 1 hour. */
  ttlMs?: number;
}

// KEYS[1] = list, KEYS[2] = counter; ARGV = data, max, ttl ms. Returns the sequence number.
const STORE = `
local seq = redis.call('INCR', KEYS[2])
redis.call('RPUSH', KEYS[1], seq .. ' ' .. ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return seq
`;

type WithStore = RedisClient & {
  candorStoreEvent(list: string, counter: string, data: string, max: number, ttl: number): Promise<number>;
};

/**
 * @example
 * ```ts
 * const server = createServer({ name: 'x', version: '1', tools, redis: 'redis://127.0.0.1:6379' });
 * // or by hand:
 * server.nodeHandler({ eventStore: new RedisEventStore(new Redis(url)) });
 * ```
 */
export class RedisEventStore implements EventStore {
  readonly #redis: WithStore;
  readonly #prefix: string;
  readonly #max: number;
  readonly #ttl: number;

  constructor(redis: RedisClient, options: RedisEventStoreOptions = {}) {
    const { prefix = 'candor:', maxPerStream = 1000, ttlMs = 3_600_000 } = options;
    if (typeof (redis as unknown as Partial<WithStore>).candorStoreEvent !== 'function') {
      redis.defineCommand('candorStoreEvent', { numberOfKeys: 2, lua: STORE });
    }
    this.#redis = redis as unknown as WithStore;
    this.#prefix = prefix;
    this.#max = Math.max(1, maxPerStream);
    this.#ttl = Math.max(1000, ttlMs);
  }

  async storeEvent(streamId: string, data: string): Promise<string> {
    const key = this.#key(streamId);
    const seq = await this.#redis.candorStoreEvent(key, `${key}:seq`, data, this.#max, this.#ttl);
    return `${streamId}_${seq}`;
  }

  async replayEventsAfter(lastEventId: string, send: ReplaySink): Promise<string | undefined> {
    const cut = lastEventId.lastIndexOf('_');
    if (cut <= 0) return undefined;
    const streamId = lastEventId.slice(0, cut);
    const last = Number(lastEventId.slice(cut + 1));
    if (!Number.isSafeInteger(last) || last < 1) return undefined;
    const entries = await this.#redis.lrange(this.#key(streamId), 0, -1);
    // Unknown: the stream expired, or the id was evicted (older than what the list keeps).
    const first = entries.length > 0 ? Number(entries[0]!.slice(0, entries[0]!.indexOf(' '))) : undefined;
    if (first === undefined || first > last) return undefined;
    for (const entry of entries) {
      const space = entry.indexOf(' ');
      const seq = Number(entry.slice(0, space));
      const data = entry.slice(space + 1);
      if (seq > last && data !== '') await send(`${streamId}_${seq}`, data);
    }
    return streamId;
  }

  /** `events:{<session>}.<n>`: the part before the first `.` (the session id) is the hash tag. */
  #key(streamId: string): string {
    const dot = streamId.indexOf('.');
    const tag = dot < 0 ? streamId : streamId.slice(0, dot);
    return `${this.#prefix}events:{${tag}}${dot < 0 ? '' : streamId.slice(dot)}`;
  }
}
