/**
 * Tool enable/disable shared by every instance. A toggle made on
 * one instance (`server.registry.disable(…)`) is written to a Redis hash (so an
 * instance that starts later begins in the same state) and published; every
 * other instance applies it to its own registry, whose change event sends
 * `notifications/tools/list_changed` to the clients connected *there* — 2025
 * sessions' GET streams and 2026-07-28 `subscriptions/listen` streams alike.
 */

import type { ToolRegistry } from '../registry/registry.js';
import type { ServerLogger } from '../util/logger.js';
import type { RedisCluster } from './redis-cluster.js';

interface ToggleMessage {
  from: string;
  enable: boolean;
  names: string[];
}

/**
 * Keep `registry`'s toggles in step with the cluster. Resolves once the
 * instance has the cluster's current state and listens for changes; returns
 * the function that stops it.
 *
 * @example
 * ```ts
 * const stop = await syncToggles(cluster, server.registry, logger);
 * ```
 */
export async function syncToggles(
  cluster: RedisCluster,
  registry: ToolRegistry,
  logger?: ServerLogger,
): Promise<() => void> {
  const key = `${cluster.prefix}toggles`;
  let applying = false;
  const apply = (enable: boolean, names: readonly string[]) => {
    // Tools this instance does not have (another version of the server) are skipped, not an error.
    const known = names.filter((name) => registry.get(name) !== undefined);
    if (known.length === 0) return;
    applying = true;
    try {
      if (enable) registry.enable({ names: known });
      else registry.disable({ names: known });
    } finally {
      applying = false;
    }
  };

  const stopListening = await cluster.subscribeRaw('toggles', (payload) => {
    let message: ToggleMessage;
    try {
      message = JSON.parse(payload) as ToggleMessage;
    } catch {
      return;
    }
    if (message.from === cluster.instanceId || !Array.isArray(message.names)) return;
    apply(message.enable === true, message.names);
  });

  const stopWatching = registry.on('changed', ({ reason, names }) => {
    if (applying || (reason !== 'enabled' && reason !== 'disabled')) return;
    const enable = reason === 'enabled';
    const message: ToggleMessage = { from: cluster.instanceId, enable, names: [...names] };
    const state = Object.fromEntries(names.map((name) => [name, enable ? '1' : '0']));
    cluster.redis.command
      .multi()
      .hset(key, state)
      .publish(`${cluster.prefix}toggles`, JSON.stringify(message))
      .exec()
      .catch((error: unknown) => {
        // The toggle holds here; the other instances miss it until Redis is back and it is made again.
        logger?.warn('a tool toggle could not be shared with the other instances (Redis unreachable)', {
          names,
          error,
        });
      });
  });

  try {
    const state = await cluster.redis.command.hgetall(key);
    const disabled = Object.keys(state).filter((name) => state[name] === '0');
    const enabled = Object.keys(state).filter((name) => state[name] === '1');
    apply(false, disabled);
    apply(true, enabled);
  } catch (error) {
    logger?.warn('cannot read the shared tool toggles; starting with the local ones', { error });
  }

  return () => {
    stopListening();
    stopWatching();
  };
}
