/**
 * Redis URLs as candor accepts and prints them (kept apart from the client so
 * the CLI can check `--redis` without loading ioredis).
 */

/**
 * Refuse what is not a redis://, rediss:// or redis+cluster:// URL, naming what was given (without its password).
 *
 * @example
 * ```ts
 * assertRedisUrl('redis://127.0.0.1:6379'); // fine
 * assertRedisUrl('localhost:6379'); // throws TypeError
 * ```
 */
export function assertRedisUrl(url: string): void {
  if (isClusterUrl(url)) {
    parseClusterUrl(url);
    return;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`redis: ${JSON.stringify(redactRedisUrl(url))} is not a URL; use redis://host:port[/db].`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new TypeError(
      `redis: ${JSON.stringify(redactRedisUrl(url))} is not a redis://, rediss:// or redis+cluster:// URL; use redis://host:port[/db], or redis+cluster://host:port,host:port for Redis Cluster.`,
    );
  }
}

/**
 * A Redis URL fit for logs: the password, if any, replaced by `***`.
 *
 * @example
 * ```ts
 * redactRedisUrl('redis://:hunter2@db:6379'); // 'redis://:***@db:6379'
 * ```
 */
export function redactRedisUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^@/]*)@/i, (_m, scheme: string, auth: string) => {
    const colon = auth.indexOf(':');
    return `${scheme}${colon >= 0 ? `${auth.slice(0, colon)}:***` : '***'}@`;
  });
}

/** Where a Redis Cluster is reached: its seed nodes and credentials. */
export interface ClusterUrl {
  nodes: Array<{ host: string; port: number }>;
  username?: string;
  password?: string;
  tls: boolean;
}

/** Whether a URL names a Redis Cluster (`redis+cluster://` or `rediss+cluster://`). */
export function isClusterUrl(url: string): boolean {
  return /^rediss?\+cluster:\/\//i.test(url);
}

/**
 * `redis+cluster://[user:password@]host:port[,host:port…]` (`rediss+cluster://` for TLS):
 * a few nodes of the cluster to start from; the client learns the rest from them.
 *
 * @example
 * ```ts
 * parseClusterUrl('redis+cluster://10.0.0.5:7000,10.0.0.6:7000');
 * // { nodes: [{ host: '10.0.0.5', port: 7000 }, { host: '10.0.0.6', port: 7000 }], tls: false }
 * ```
 */
export function parseClusterUrl(url: string): ClusterUrl {
  const shown = JSON.stringify(redactRedisUrl(url));
  const match = /^(rediss?)\+cluster:\/\/(?:([^@/]*)@)?([^/?#]+)\/?$/i.exec(url);
  if (match === null) {
    throw new TypeError(`redis: ${shown} is not a cluster URL; use redis+cluster://host:port[,host:port…].`);
  }
  const [, scheme, auth, hosts] = match as unknown as [string, string, string | undefined, string];
  const nodes = hosts.split(',').map((node) => {
    const hostPort = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(node.trim());
    const port = Number(hostPort?.[2]);
    if (hostPort === null || port < 1 || port > 65535) {
      throw new TypeError(`redis: ${shown} names a node ${JSON.stringify(node)} that is not host:port.`);
    }
    return { host: hostPort[1]!.replace(/^\[|\]$/g, ''), port };
  });
  const parsed: ClusterUrl = { nodes, tls: scheme.toLowerCase() === 'rediss' };
  if (auth !== undefined && auth !== '') {
    const colon = auth.indexOf(':');
    const user = decodeURIComponent(colon < 0 ? auth : auth.slice(0, colon));
    if (colon >= 0) parsed.password = decodeURIComponent(auth.slice(colon + 1));
    if (user !== '') parsed.username = user;
  }
  return parsed;
}
