/**
 * Shared state on Redis for several instances of one server (issue 11):
 * sessions, the SSE event store, messages between instances, rate-limit
 * counters and tool toggles. `createServer({ redis })` (or `REDIS_URL`) builds
 * one and hands each part to the piece that uses it; a single process with no
 * configuration keeps its in-memory defaults.
 *
 * During a Redis outage (see docs/deployment.md): a new session cannot be
 * opened and a session this instance has not seen cannot be served (503 with
 * a clear message); sessions already cached here, stateless and 2026-07-28
 * calls keep working; rate limits fall back to per-process counters; events
 * go out without ids (not resumable) — all logged, nothing crashes, and it all
 * resumes when Redis returns.
 */
import { type RateLimiterAbstract, RateLimiterMemory } from 'rate-limiter-flexible';
import type { ServerLogger } from '../engine/logger.js';
import type { ClusterLink, ClusterMessage, SessionRecord } from '../transports/http/cluster-link.js';
import { BatchedRedisLimiter } from './batched-redis-limiter.js';
import { openRedis, type RedisConnection, type RedisInput } from './redis-connection.js';
import { RedisEventStore, type RedisEventStoreOptions } from './redis-event-store.js';
import { redactRedisUrl } from './redis-url.js';

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
  const { prefix = 'candor:', sessionTtlMs = 30 * 60_000, logger } = options;
  const where = typeof options.redis === 'string' ? redactRedisUrl(options.redis) : 'the given client';
  const redis = openRedis(options.redis, {
    onError: (error) => logger?.warn(`Redis (${where}) is unreachable: ${error.message}`),
  });
  const { command, subscriber } = redis;
  const instanceId = options.instanceId ?? crypto.randomUUID().slice(0, 8);
  const busChannel = `${prefix}bus`;
  const sessionKey = (id: string) => `${prefix}session:${id}`;
  const channelListeners = new Map<string, Set<(payload: string) => void>>();
  const ttl = Math.max(1000, sessionTtlMs);

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
      // ioredis re-subscribes on reconnect by itself.
      await subscriber.subscribe(full);
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
    eventStore: new RedisEventStore(command, { ...options.events, prefix }),
    rateLimitStore: (spec) =>
      // Concurrent calls for one key share a round trip (see batched-redis-limiter.ts).
      new BatchedRedisLimiter({
        storeClient: command,
        ...spec,
        keyPrefix: `${prefix}${spec.keyPrefix}`,
        // While Redis is away each process counts on its own rather than letting everything through.
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(spec),
      }),
    async saveSession(record: SessionRecord) {
      await command.set(sessionKey(record.id), JSON.stringify(record), 'PX', ttl);
    },
    async loadSession(id: string) {
      const text = await command.get(sessionKey(id));
      if (text === null) return undefined;
      try {
        return JSON.parse(text) as SessionRecord;
      } catch {
        return undefined;
      }
    },
    async touchSession(id: string) {
      await command.pexpire(sessionKey(id), ttl);
    },
    async removeSession(id: string) {
      await command.del(sessionKey(id));
    },
    publish(message: ClusterMessage) {
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
    async ping(timeoutMs = 1000) {
      if (!redis.up) return false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        return await Promise.race([
          command.ping().then((answer) => answer === 'PONG'),
          new Promise<boolean>((resolve) => {
            timer = setTimeout(() => resolve(false), timeoutMs);
          }),
        ]);
      } catch {
        return false;
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => redis.close(),
  };
}
