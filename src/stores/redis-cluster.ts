/**
 * Shared state on Redis for several instances of one server:
 * sessions, the SSE event store, messages between instances, rate-limit
 * counters and tool toggles. `createServer({ redis })` (or `REDIS_URL`) builds
 * one and hands each part to the piece that uses it; a single process with no
 * configuration keeps its in-memory defaults.
 *
 * During a Redis outage (see docs/deployment.md) the instance
 * degrades instead of stopping: every store operation gives up after the store
 * timeout (default 500 ms) and, once Redis is known to be down, fails at once
 * (store-health.ts); sessions cached here keep working, new sessions are kept
 * here and written to Redis when it returns, rate limits are counted per
 * process (logged), events go out without ids (not resumable); a session this
 * instance has not seen cannot be served (503 with a clear message). Nothing
 * crashes, and shared state resumes when Redis answers again.
 */

import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { CandorError } from '../errors.js';
import type { ClusterLink, ClusterMessage, SessionRecord } from '../transports/http/cluster-link.js';
import type { ServerLogger } from '../util/logger.js';
import { BatchedRedisLimiter } from './batched-redis-limiter.js';
import { joinChannels } from './channel-joiner.js';
import { openRedis, type RedisConnection, type RedisInput } from './redis-connection.js';
import { RedisEventStore, type RedisEventStoreOptions } from './redis-event-store.js';
import { redactRedisUrl } from './redis-url.js';
import { DEFAULT_STORE_TIMEOUT_MS, StoreHealth } from './store-health.js';

/** Options of {@link createRedisCluster}. */
export interface RedisClusterOptions {
  /** `redis://…` URL or an ioredis client. */
  redis: RedisInput;
  /** Key and channel prefix; instances of one server share it. Default `candor:`. */
  prefix?: string;
  /** A session's record expires after this much inactivity. Default 30 minutes (the HTTP idle time). */
  sessionTtlMs?: number;
  events?: Omit<RedisEventStoreOptions, 'prefix'>;
  logger?: ServerLogger;
  /** This instance's id in messages and stream ids. Default: random. */
  instanceId?: string;
  /**
   * How long a call waits for Redis before this instance degrades (ms).
   * Default 500 (`CANDOR_STORE_TIMEOUT_MS` for `createServer`).
   */
  timeoutMs?: number;
}

/** A rate-limit store factory in rate-limiter-flexible's terms. */
export type RateLimitStoreFactory = (spec: {
  points: number;
  duration: number;
  keyPrefix: string;
}) => RateLimiterAbstract;

/** The Redis-backed cluster: the transport's {@link ClusterLink} plus the other shared stores. */
export interface RedisCluster extends ClusterLink {
  readonly redis: RedisConnection;
  readonly prefix: string;
  /** Rate limiters on Redis, with a per-process fallback while Redis is away. */
  readonly rateLimitStore: RateLimitStoreFactory;
  /** Publish on a channel of this cluster (raw string payloads). */
  publishRaw(channel: string, payload: string): Promise<void>;
  /** Subscribe to a channel of this cluster. */
  subscribeRaw(channel: string, listener: (payload: string) => void): Promise<() => void>;
  /** Whether Redis answers a PING (readiness). */
  ping(timeoutMs?: number): Promise<boolean>;
  /** Whether Redis is up as this instance sees it, and who to tell when it returns. */
  readonly health: StoreHealth;
  close(): Promise<void>;
}

/**
 * @example
 * ```ts
 * const cluster = createRedisCluster({ redis: process.env.REDIS_URL! });
 * const server = createServer({ name: 'x', version: '1', tools, redis: cluster });
 * ```
 */
export function createRedisCluster(options: RedisClusterOptions): RedisCluster {
  const { prefix = 'candor:', sessionTtlMs = 30 * 60_000, logger, timeoutMs = DEFAULT_STORE_TIMEOUT_MS } = options;
  const where = typeof options.redis === 'string' ? redactRedisUrl(options.redis) : 'the given client';
  const redis = openRedis(options.redis, {
    onError: (error) => logger?.warn(`Redis (${where}) is unreachable: ${error.message}`),
    timeoutMs,
  });
  const { command, subscriber } = redis;
  // A rate limiter defines its Lua script on the connection when it is made (ioredis `defineCommand`),
  // and ioredis copies the connection's scripts into an auto-pipeline when that pipeline opens. A limiter
  // made while one was open (a gateway quota's, made at its first call, beside a session being saved)
  // queued a command the pipeline did not have: ioredis then answered the pipeline's callbacks out of
  // step and threw outside any promise, which ended the process. Defined here, before any command is
  // sent, the script is in every pipeline; later limiters define the same script again.
  new RateLimiterRedis({ storeClient: command, points: 1, duration: 1 });
  const health = new StoreHealth({
    timeoutMs,
    probe: async () => {
      if (!redis.up) throw new CandorError('not connected', { code: 'store_unavailable' });
      await command.ping();
    },
    ...(logger === undefined ? {} : { logger }),
    name: `Redis (${where})`,
  });
  // A dropped connection is an outage at once; a reconnect is checked at once.
  command.on('close', () => health.markDown(new Error('the connection closed')));
  command.on('ready', () => health.probeSoon());
  let countingLocally = false;
  health.onRestored(() => {
    if (countingLocally) logger?.info('rate limits are shared again (Redis answers)');
    countingLocally = false;
  });
  const limiterFallback = (spec: { points: number; duration: number; keyPrefix: string }) => ({
    limiter: new RateLimiterMemory(spec),
    up: () => health.up,
    markDown: (reason: unknown) => health.markDown(reason),
    onFallback() {
      if (countingLocally) return;
      countingLocally = true;
      logger?.warn(
        'rate limits are counted per process while Redis is unreachable: each instance allows up to the whole budget until it returns',
      );
    },
  });
  const storeEvents = new RedisEventStore(command, { ...options.events, prefix });
  const instanceId = options.instanceId ?? crypto.randomUUID().slice(0, 8);
  const busChannel = `${prefix}bus`;
  // The session id is the hash tag: the record and the session's event streams share a Redis Cluster slot.
  const sessionKey = (id: string) => `${prefix}session:{${id}}`;
  const channelListeners = new Map<string, Set<(payload: string) => void>>();
  const ttl = Math.max(1000, sessionTtlMs);

  // Joined again after every reconnect.
  const join = joinChannels(subscriber, (error) =>
    logger?.warn('cannot re-subscribe to the cluster channels', { error }),
  );
  subscriber.on('message', (channel: string, payload: string) => {
    for (const listener of channelListeners.get(channel) ?? []) {
      try {
        listener(payload);
      } catch (error) {
        logger?.error('a cluster message listener failed', { channel, error });
      }
    }
  });

  const subscribeRaw = async (channel: string, listener: (payload: string) => void) => {
    const full = prefix + channel;
    let listeners = channelListeners.get(full);
    if (listeners === undefined) {
      listeners = new Set();
      channelListeners.set(full, listeners);
      await join(full);
    }
    listeners.add(listener);
    return () => {
      listeners!.delete(listener);
    };
  };

  const publishRaw = async (channel: string, payload: string) => {
    await command.publish(prefix + channel, payload);
  };

  const messageListeners = new Set<(message: ClusterMessage) => void>();
  let busReady: Promise<unknown> | undefined;
  const ensureBus = () => {
    busReady ??= subscribeRaw('bus', (payload) => {
      let message: ClusterMessage;
      try {
        message = JSON.parse(payload) as ClusterMessage;
      } catch {
        logger?.warn('a malformed cluster message was ignored', { channel: busChannel });
        return;
      }
      if (message.from === instanceId) return;
      for (const listener of messageListeners) listener(message);
    }).catch((error: unknown) => {
      busReady = undefined;
      logger?.warn('cannot subscribe to the cluster channel', { error });
    });
    return busReady;
  };

  return {
    instanceId,
    redis,
    prefix,
    health,
    eventStore: {
      storeEvent: (streamId, data) => health.run(() => storeEvents.storeEvent(streamId, data)),
      replayEventsAfter: (lastEventId, send) => health.run(() => storeEvents.replayEventsAfter(lastEventId, send)),
    },
    rateLimitStore: (spec) =>
      // Concurrent calls for one key share a round trip (see batched-redis-limiter.ts).
      new BatchedRedisLimiter(
        {
          storeClient: command,
          ...spec,
          keyPrefix: `${prefix}${spec.keyPrefix}`,
          rejectIfRedisNotReady: true,
        },
        // While Redis is away each process counts on its own rather than letting everything through.
        limiterFallback(spec),
      ),
    async saveSession(record: SessionRecord, saveOptions = {}) {
      const text = JSON.stringify(record);
      await health.run(() =>
        saveOptions.onlyIfAbsent
          ? command.set(sessionKey(record.id), text, 'PX', ttl, 'NX')
          : command.set(sessionKey(record.id), text, 'PX', ttl),
      );
    },
    async loadSession(id: string) {
      const text = await health.run(() => command.get(sessionKey(id)));
      if (text === null) return undefined;
      try {
        return JSON.parse(text) as SessionRecord;
      } catch {
        return undefined;
      }
    },
    async touchSession(id: string) {
      await health.run(() => command.pexpire(sessionKey(id), ttl));
    },
    async removeSession(id: string) {
      await health.run(() => command.del(sessionKey(id)));
    },
    onStoreRestored: (listener) => health.onRestored(listener),
    publish(message: ClusterMessage) {
      if (!health.up) {
        logger?.debug(`a cluster message (${message.type}) was not sent (Redis unreachable)`, {
          session: message.session,
        });
        return;
      }
      command.publish(busChannel, JSON.stringify(message)).catch((error: unknown) => {
        logger?.warn(`a cluster message (${message.type}) could not be sent`, { session: message.session, error });
      });
    },
    onMessage(listener) {
      messageListeners.add(listener);
      void ensureBus();
      return () => messageListeners.delete(listener);
    },
    publishRaw,
    subscribeRaw,
    async ping(pingTimeoutMs = timeoutMs) {
      if (!redis.up || !health.up) return false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      let answered = false;
      try {
        answered = await Promise.race([
          command.ping().then((answer) => answer === 'PONG'),
          new Promise<boolean>((resolve) => {
            timer = setTimeout(() => resolve(false), pingTimeoutMs);
          }),
        ]);
      } catch {
        answered = false;
      } finally {
        clearTimeout(timer);
      }
      if (!answered) health.markDown(new Error(`PING unanswered within ${pingTimeoutMs} ms`));
      return answered;
    },
    close: () => {
      health.close();
      return redis.close();
    },
  };
}
