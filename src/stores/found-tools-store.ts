/**
 * The tools each session found in the gateway's search mode, kept
 * where every gateway instance reads them: a session's list is state of the
 * session, so with Redis configured a tool found through one instance is
 * listed and callable through any other. Without Redis the gateway keeps the
 * lists in process and never builds one of these.
 *
 * One Redis set per list (`<prefix>found:<key>`), living as long as an idle
 * session (30 minutes, renewed on use), and one channel on which an instance
 * says that a list grew, so the instance holding the client's stream sends
 * the `notifications/tools/list_changed`.
 */
import type { RedisCluster } from './redis-cluster.js';

/** Shared found-tool lists, by list key (a session, or a 2026-07-28 principal). */
export interface FoundToolsStore {
  /** The names in a list (empty when there is none). Rejects when the store is unreachable. */
  load(key: string): Promise<string[]>;
  /** Add names to a list. Rejects when the store is unreachable. */
  add(key: string, names: readonly string[]): Promise<void>;
  /** Tell the other instances that a list grew (never throws). */
  announce(key: string): void;
  /** Hear the other instances' announcements; returns a function that stops listening. */
  listen(listener: (key: string) => void): () => void;
}

const CHANNEL = 'found-tools';

/**
 * Found-tool lists on the cluster's Redis.
 *
 * @example
 * ```ts
 * const store = redisFoundTools(server.shared!.ready);
 * await store.add('main|s:<session id>', ['db__delete_row']);
 * ```
 */
export function redisFoundTools(ready: Promise<RedisCluster>, options: { ttlMs?: number } = {}): FoundToolsStore {
  const ttlMs = options.ttlMs ?? 30 * 60_000;
  // The key in braces is the hash tag: a session's list shares its Redis Cluster slot with the session.
  const keyOf = (cluster: RedisCluster, key: string) => `${cluster.prefix}found:{${key}}`;
  return {
    async load(key) {
      const cluster = await ready;
      const command = cluster.redis.command;
      const names = await cluster.health.run(async () => {
        const [members] = await Promise.all([
          command.smembers(keyOf(cluster, key)),
          command.pexpire(keyOf(cluster, key), ttlMs),
        ]);
        return members;
      });
      return names;
    },
    async add(key, names) {
      if (names.length === 0) return;
      const cluster = await ready;
      const command = cluster.redis.command;
      await cluster.health.run(async () => {
        await command.sadd(keyOf(cluster, key), ...names);
        await command.pexpire(keyOf(cluster, key), ttlMs);
      });
    },
    announce(key) {
      void ready
        .then((cluster) => cluster.publishRaw(CHANNEL, JSON.stringify({ from: cluster.instanceId, key })))
        .catch(() => {});
    },
    listen(listener) {
      let stop: (() => void) | undefined;
      let stopped = false;
      void ready
        .then(async (cluster) => {
          const unsubscribe = await cluster.subscribeRaw(CHANNEL, (payload) => {
            let message: { from?: unknown; key?: unknown };
            try {
              message = JSON.parse(payload) as typeof message;
            } catch {
              return;
            }
            if (message.from !== cluster.instanceId && typeof message.key === 'string') listener(message.key);
          });
          if (stopped) unsubscribe();
          else stop = unsubscribe;
        })
        .catch(() => {});
      return () => {
        stopped = true;
        stop?.();
      };
    },
  };
}
