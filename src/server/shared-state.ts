/**
 * `createServer({ redis })` / `REDIS_URL`: the link between a
 * server and its shared state. Redis code (ioredis, ~45 ms to import) is loaded
 * only when Redis is configured, and asynchronously, so a server without it
 * starts exactly as before; until the connection is set up, the pieces handed
 * out here wait for it instead of failing.
 */
import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';
import { DefinitionError } from '../errors.js';
import type { ToolRegistry } from '../registry/registry.js';
import type { RedisCluster } from '../stores/redis-cluster.js';
import type { ClusterLink } from '../transports/http/cluster-link.js';
import type { EventStore } from '../transports/http/event-store.js';
import type { HttpRateLimiterSpec } from '../transports/http/http-rate-limit.js';
import type { ServerLogger } from '../util/logger.js';
import { rateLimiterFlexible } from '../util/rate-limiter-flexible.js';

/** What the `redis` option of `createServer` accepts. */
export type RedisOption = string | { duplicate(): unknown } | RedisCluster | false;

/** A server's shared state, once Redis is configured. */
export interface SharedState {
  /** Resolves when the cluster is set up (connection made, toggles read); rejects on bad configuration. */
  readonly ready: Promise<RedisCluster>;
  /** For the HTTP transport. */
  readonly link: ClusterLink;
  /** The key prefix the instances share (other stores, e.g. tasks, use it too). */
  readonly prefix: string;
  /** Rate-limit counters on Redis (tool limits and the endpoint limit). */
  rateLimitStore(spec: HttpRateLimiterSpec): RateLimiterAbstract;
  /** The `requestState` secret every instance shares (made once, kept in Redis). */
  readonly requestStateSecret: Promise<string>;
  /**
   * Whether Redis answered when last asked (for `/readyz`: when it does not, the
   * instance is degraded, not unready); answers at once and checks again in the background.
   */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The shared state for `option` (or `REDIS_URL` when the option is absent);
 * undefined for a single process with in-memory state.
 */
export function openSharedState(
  option: RedisOption | undefined,
  context: { env: Readonly<Record<string, string | undefined>>; registry: ToolRegistry; logger: ServerLogger },
): SharedState | undefined {
  if (option === false) return undefined;
  const fromEnv = context.env.REDIS_URL?.trim();
  const chosen = option ?? (fromEnv === undefined || fromEnv === '' ? undefined : fromEnv);
  if (chosen === undefined) return undefined;
  if (typeof chosen !== 'string' && (typeof chosen !== 'object' || chosen === null)) {
    throw new DefinitionError(
      'createServer: redis must be a redis:// URL, an ioredis client or a createRedisCluster().',
      {
        fields: ['redis'],
      },
    );
  }
  const { logger, registry } = context;
  const timeoutMs = storeTimeoutOf(context.env);
  const ownCluster = !isCluster(chosen);
  let stopToggles: (() => void) | undefined;
  const instanceId = isCluster(chosen) ? chosen.instanceId : crypto.randomUUID().slice(0, 8);
  const ready = (async () => {
    const [{ createRedisCluster }, { syncToggles }, { assertRedisUrl }] = await Promise.all([
      import('../stores/redis-cluster.js'),
      import('../stores/toggle-sync.js'),
      import('../stores/redis-url.js'),
    ]);
    if (typeof chosen === 'string') assertRedisUrl(chosen);
    const cluster = isCluster(chosen)
      ? chosen
      : createRedisCluster({ redis: chosen as never, logger, instanceId, timeoutMs });
    stopToggles = await syncToggles(cluster, registry, logger);
    return cluster;
  })();
  // Surfaced where it is awaited (listen, the first call); never an unhandled rejection.
  ready.catch(() => {});
  let loaded: RedisCluster | undefined;
  void ready.then((cluster) => {
    loaded = cluster;
  });

  const requestStateSecret = ready.then(async (cluster) => {
    const key = `${cluster.prefix}request-state-secret`;
    const mine = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
    try {
      // The first instance to start sets it; the others read the same one.
      await cluster.redis.command.set(key, mine, 'NX');
      return (await cluster.redis.command.get(key)) ?? mine;
    } catch (error) {
      logger.warn(
        'cannot read the shared requestState secret (Redis unreachable): this instance uses its own, so a 2026-07-28 input_required retry must come back here',
        { error },
      );
      return mine;
    }
  });
  requestStateSecret.catch(() => {});

  const link: ClusterLink = {
    instanceId,
    eventStore: deferredEventStore(ready),
    saveSession: async (record, saveOptions) => (await ready).saveSession(record, saveOptions),
    loadSession: async (id) => (await ready).loadSession(id),
    touchSession: async (id) => (await ready).touchSession(id),
    removeSession: async (id) => (await ready).removeSession(id),
    publish(message) {
      if (loaded !== undefined) loaded.publish(message);
      else
        void ready.then(
          (cluster) => cluster.publish(message),
          () => {},
        );
    },
    onMessage: (listener) => whenReady(ready, (cluster) => cluster.onMessage(listener)),
    onStoreRestored: (listener) => whenReady(ready, (cluster) => cluster.health.onRestored(listener)),
  };

  return {
    ready,
    link,
    prefix: isCluster(chosen) ? chosen.prefix : 'candor:',
    rateLimitStore: (spec) => deferredLimiter(spec, ready),
    requestStateSecret,
    async ping() {
      const cluster = loaded ?? (await ready.catch(() => undefined));
      if (cluster === undefined) return false;
      // Answer at once with what this instance knows, and check in the background: a probe that
      // waited on a paused Redis would outlast the balancer's check timeout and take every
      // instance out at once. An unanswered PING marks Redis down for the next probe.
      void cluster.ping();
      return cluster.health.up;
    },
    async close() {
      const cluster = loaded ?? (await ready.catch(() => undefined));
      stopToggles?.();
      if (ownCluster) await cluster?.close();
    },
  };
}

/** Subscribe once the cluster exists; the returned function also works before that. */
function whenReady(ready: Promise<RedisCluster>, subscribe: (cluster: RedisCluster) => () => void): () => void {
  let stop: (() => void) | undefined;
  let stopped = false;
  void ready.then(
    (cluster) => {
      if (!stopped) stop = subscribe(cluster);
    },
    () => {},
  );
  return () => {
    stopped = true;
    stop?.();
  };
}

/** `CANDOR_STORE_TIMEOUT_MS`: how long a call waits for Redis before degrading. */
function storeTimeoutOf(env: Readonly<Record<string, string | undefined>>): number | undefined {
  const raw = env.CANDOR_STORE_TIMEOUT_MS?.trim();
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new DefinitionError(
      `CANDOR_STORE_TIMEOUT_MS must be a positive whole number of milliseconds, got ${JSON.stringify(raw)}.`,
      { fields: ['redis'] },
    );
  }
  return value;
}

function isCluster(value: unknown): value is RedisCluster {
  return typeof value === 'object' && value !== null && 'rateLimitStore' in value && 'instanceId' in value;
}

function deferredEventStore(ready: Promise<RedisCluster>): EventStore {
  return {
    storeEvent: async (streamId, data) => (await ready).eventStore.storeEvent(streamId, data),
    replayEventsAfter: async (lastEventId, send) => (await ready).eventStore.replayEventsAfter(lastEventId, send),
  };
}

/**
 * A Redis limiter that exists once the cluster does; calls before that wait
 * for it. (It extends the memory limiter only because the abstract class is
 * not exported at run time; every counting method goes to Redis.) The class is
 * made on first use, when rate-limiter-flexible is loaded.
 */
let DeferredLimiter: (new (spec: HttpRateLimiterSpec, ready: Promise<RedisCluster>) => RateLimiterAbstract) | undefined;

function deferredLimiter(spec: HttpRateLimiterSpec, ready: Promise<RedisCluster>): RateLimiterAbstract {
  DeferredLimiter ??= class extends rateLimiterFlexible().RateLimiterMemory {
    readonly #real: Promise<RateLimiterAbstract>;

    constructor(spec: HttpRateLimiterSpec, ready: Promise<RedisCluster>) {
      super(spec);
      this.#real = ready.then((cluster) => cluster.rateLimitStore(spec));
      this.#real.catch(() => {});
    }

    override async consume(key: string | number, points?: number): Promise<RateLimiterRes> {
      return (await this.#real).consume(key, points);
    }

    override async get(key: string | number): Promise<RateLimiterRes | null> {
      return (await this.#real).get(key);
    }

    override async delete(key: string | number): Promise<boolean> {
      return (await this.#real).delete(key);
    }

    override async penalty(key: string | number, points?: number): Promise<RateLimiterRes> {
      return (await this.#real).penalty(key, points);
    }

    override async reward(key: string | number, points?: number): Promise<RateLimiterRes> {
      return (await this.#real).reward(key, points);
    }

    override async block(key: string | number, seconds: number): Promise<RateLimiterRes> {
      return (await this.#real).block(key, seconds);
    }
  };
  return new DeferredLimiter(spec, ready);
}
