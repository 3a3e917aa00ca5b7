/**
 * `--redis URL` of `candor serve` and `candor gateway`: the same as
 * REDIS_URL, which createServer reads, checked here so a typo is a usage
 * error rather than a stack trace.
 */
import { assertRedisUrl, redactRedisUrl } from '../stores/redis-url.js';
import { CliError, EXIT } from './cli-error.js';

/** REDIS_URL as it may be printed (password hidden). */
export function redisWhere(): string {
  return redactRedisUrl(process.env.REDIS_URL ?? '');
}

/**
 * Put `--redis` in REDIS_URL after checking it.
 *
 * @example
 * ```ts
 * applyRedisFlag('redis://127.0.0.1:6379');
 * ```
 */
export function applyRedisFlag(url: string | undefined): void {
  if (url === undefined) return;
  try {
    assertRedisUrl(url);
  } catch (error) {
    throw new CliError(`--redis: ${(error as Error).message.replace(/^redis: /, '')}`, { exitCode: EXIT.usage });
  }
  process.env.REDIS_URL = url;
}
