/**
 * Pub/sub channels that come back after a reconnect without leaving a stray rejection.
 *
 * ioredis re-subscribes a reconnected connection by itself, but nothing observes that
 * command's promise: when the client is closed in that moment (a server shutting down
 * while Redis comes back), the process gets an unhandled "Connection is closed."
 * rejection. A subscriber made with {@link OWN_RESUBSCRIBE} joins its channels again
 * on every `ready` through this joiner instead, and a failure goes to `onError`.
 */
import type { Cluster, Redis, RedisOptions } from 'ioredis';

type RedisClient = Redis | Cluster;

/** Options for a single-node subscriber whose channels a {@link joinChannels} joiner re-joins. */
export const OWN_RESUBSCRIBE = { autoResubscribe: false } as const satisfies RedisOptions;

/**
 * A function that subscribes `subscriber` to a channel and keeps it subscribed across
 * reconnects. A Redis Cluster's own subscriber connection already re-joins with its
 * results observed, so a cluster client is only subscribed.
 *
 * @example
 * ```ts
 * const subscriber = redis.duplicate(OWN_RESUBSCRIBE);
 * const join = joinChannels(subscriber, (error) => logger.warn('pub/sub', { error }));
 * await join('candor:tasks:settled');
 * ```
 */
export function joinChannels(
  subscriber: RedisClient,
  onError: (error: Error) => void,
): (channel: string) => Promise<void> {
  const channels = new Set<string>();
  if (!subscriber.isCluster) {
    subscriber.on('ready', () => {
      // Subscribing twice to a channel (the first ready, before the first join answers) is harmless.
      if (channels.size > 0) subscriber.subscribe(...channels).catch(onError);
    });
  }
  return async (channel) => {
    channels.add(channel);
    await subscriber.subscribe(channel);
  };
}

/** A subscriber connection next to `client`: its channels re-joined by {@link joinChannels}, not by ioredis. */
export function duplicateForJoining(client: RedisClient, overrides: RedisOptions = {}): RedisClient {
  if (client.isCluster) {
    const cluster = client as Cluster;
    return cluster.duplicate(undefined, { redisOptions: { ...cluster.options.redisOptions, ...overrides } });
  }
  return (client as Redis).duplicate({ ...overrides, ...OWN_RESUBSCRIBE });
}
