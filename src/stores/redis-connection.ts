/**
 * One place that opens Redis for candor's shared state. The client
 * is ioredis: it reconnects on its own with backoff, pipelines automatically,
 * runs Lua scripts as named commands (`defineCommand`) and gives pub/sub its
 * own connection (`duplicate()`), which is exactly what the stores need; it is
 * also what rate-limiter-flexible's Redis store is documented and tested with.
 *
 * Commands fail fast while Redis is away (one retry per request, no endless
 * offline queue, and every command gives up after the store timeout, default
 * 500 ms —), so a call that needs shared state gets a clear error
 * instead of hanging, and everything recovers when Redis returns.
 */
import type { Cluster, Redis, RedisOptions } from 'ioredis';

/**
 * ioredis, loaded when the first connection opens: importing it costs a process about
 * 13 MiB of RSS, and most servers never use Redis. It is CommonJS, so a
 * plain require is synchronous and gives the same classes an ESM import does.
 */
let ioredis: typeof import('ioredis') | undefined;
function loadIoredis(): typeof import('ioredis') {
  ioredis ??= requireOnNode<typeof import('ioredis')>('ioredis', 'Shared state on Redis (ioredis)');
  return ioredis;
}

import { requireOnNode } from '../util/node-require.js';
import { duplicateForJoining } from './channel-joiner.js';
import { assertRedisUrl, isClusterUrl, parseClusterUrl } from './redis-url.js';

/** A client of one Redis, or of a Redis Cluster. */
export type RedisClient = Redis | Cluster;

/** What the `redis` option accepts: a URL (`redis://`, `rediss://`, `redis+cluster://`), or a client you configured. */
export type RedisInput = string | RedisClient;

/** A command connection and a subscriber connection to one Redis (or one Redis Cluster). */
export interface RedisConnection {
  readonly command: RedisClient;
  readonly subscriber: RedisClient;
  /** Whether the command connection is up right now. */
  readonly up: boolean;
  /** Close the connections candor opened (a client you passed in is left open). */
  close(): Promise<void>;
}

const clientOptions = (timeoutMs: number): RedisOptions => ({
  // A request waits at most one reconnect attempt while Redis is away, then fails.
  maxRetriesPerRequest: 1,
  // Back off 50 ms, 100 ms, … up to 1 s between reconnect attempts, forever: a Redis that
  // comes back is in use again within about a second.
  retryStrategy: (times) => Math.min(times * 50, 1000),
  connectTimeout: 5000,
  // A Redis that hangs (paused, overloaded) fails a command after the store timeout instead of holding the call.
  commandTimeout: timeoutMs,
  enableReadyCheck: true,
  // Commands issued in the same tick go out in one write (rate-limit counters and events under load).
  enableAutoPipelining: true,
});

/**
 * A Redis Cluster from a `redis+cluster://host:port,…` URL: slots learned from
 * the seed nodes, reads and writes on masters, and after a failover (a replica
 * promoted) the slot map refreshed on the first MOVED or CLUSTERDOWN answer.
 */
export function openCluster(url: string, defaults: RedisOptions): Cluster {
  const { nodes, username, password, tls } = parseClusterUrl(url);
  const { retryStrategy, enableAutoPipelining, ...nodeOptions } = defaults;
  return new (loadIoredis().Cluster)(nodes, {
    clusterRetryStrategy: (times) => retryStrategy?.(times) ?? 1000,
    enableAutoPipelining,
    scaleReads: 'master',
    retryDelayOnClusterDown: 100,
    retryDelayOnFailover: 100,
    slotsRefreshTimeout: 1000,
    redisOptions: {
      ...nodeOptions,
      ...(username === undefined ? {} : { username }),
      ...(password === undefined ? {} : { password }),
      ...(tls ? { tls: {} } : {}),
    },
  });
}

/**
 * Open the command and subscriber connections.
 *
 * @example
 * ```ts
 * const redis = openRedis(process.env.REDIS_URL!);
 * await redis.command.ping();
 * await redis.close();
 * ```
 */
export function openRedis(
  input: RedisInput,
  options: { onError?: (error: Error) => void; timeoutMs?: number } = {},
): RedisConnection {
  const owned = typeof input === 'string';
  if (owned) assertRedisUrl(input);
  const defaults = clientOptions(options.timeoutMs ?? 500);
  const { Redis: SingleClient } = loadIoredis();
  const command = owned
    ? isClusterUrl(input)
      ? openCluster(input, defaults)
      : new SingleClient(input, defaults)
    : input;
  // The subscriber waits for messages, not answers: no command timeout, no retry limit.
  const listening = { ...defaults, commandTimeout: undefined, maxRetriesPerRequest: null };
  const subscriber = duplicateForJoining(command, listening);
  // ioredis emits 'error' on every failed reconnect; without a listener Node would crash the process.
  let last = '';
  const report = (error: Error) => {
    // One line per distinct failure, not one per reconnect attempt.
    if (error.message === last) return;
    last = error.message;
    options.onError?.(error);
  };
  command.on('error', report);
  subscriber.on('error', report);
  command.on('ready', () => {
    last = '';
  });
  return {
    command,
    subscriber,
    get up() {
      return command.status === 'ready';
    },
    async close() {
      subscriber.disconnect();
      if (owned) command.disconnect();
    },
  };
}
