/**
 * Redis URLs as candor accepts and prints them (kept apart from the client so
 * the CLI can check `--redis` without loading ioredis).
 */

/**
 * Refuse what is not a redis:// or rediss:// URL, naming what was given (without its password).
 *
 * @example
 * ```ts
 * assertRedisUrl('redis://127.0.0.1:6379'); // fine
 * assertRedisUrl('localhost:6379'); // throws TypeError
 * ```
 */
export function assertRedisUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`redis: ${JSON.stringify(redactRedisUrl(url))} is not a URL; use redis://host:port[/db].`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw new TypeError(
      `redis: ${JSON.stringify(redactRedisUrl(url))} is not a redis:// or rediss:// URL; use redis://host:port[/db].`,
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
