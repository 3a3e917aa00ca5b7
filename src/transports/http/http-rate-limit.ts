/**
 * The global rate limit of the HTTP endpoint (`RATE_LIMIT_MAX` per
 * `RATE_LIMIT_WINDOW_MS`, answered with HTTP 429 and `Retry-After`). Counted in
 * memory by default, on every runtime (window-counter.ts); the store is
 * pluggable (any rate-limiter-flexible limiter: Redis, …) so several instances
 * can share one budget.
 */
import { DefinitionError } from '../../errors.js';
import type { HttpInfo } from '../../tool/types.js';
import type { ServerLogger } from '../../util/logger.js';
import { type ConsumingLimiter, WindowCounter } from '../../util/window-counter.js';

/** What a store factory gets, in rate-limiter-flexible's terms. */
export interface HttpRateLimiterSpec {
  /** Requests allowed per window. */
  points: number;
  /** Window length in seconds (may be fractional). */
  duration: number;
  keyPrefix: string;
}

/** The `rateLimit` option of `createHttpHandler`. */
export interface HttpRateLimitOptions {
  /** Requests allowed per window. */
  max: number;
  /** Window length in milliseconds. Default 60 000. */
  windowMs?: number;
  /** What requests are counted per. Default: one budget for the whole endpoint. */
  key?: (http: HttpInfo) => string;
  /**
   * Build the limiter: any rate-limiter-flexible `RateLimiterAbstract`. Default: in
   * memory, per process (per isolate on a fetch runtime).
   *
   * @example
   * ```ts
   * store: (spec) => new RateLimiterRedis({ storeClient: redis, ...spec })
   * ```
   */
  store?: (spec: HttpRateLimiterSpec) => ConsumingLimiter;
}

/** A configured global limit. */
export interface HttpRateLimiter {
  /** Count one request; resolves to the seconds to wait when it is over the limit, else undefined. */
  consume(http: HttpInfo): Promise<number | undefined>;
}

/**
 * Build the limiter from the option, or from `RATE_LIMIT_MAX` /
 * `RATE_LIMIT_WINDOW_MS` when the option is absent. `false` turns it off even
 * when the variables are set. Invalid values are refused at startup.
 *
 * @example
 * ```ts
 * const limiter = createHttpRateLimiter({ option: { max: 100, windowMs: 60_000 }, env: process.env, logger });
 * const wait = await limiter?.consume(http); // seconds, or undefined when allowed
 * ```
 */
export function createHttpRateLimiter(options: {
  option: HttpRateLimitOptions | false | undefined;
  env: Readonly<Record<string, string | undefined>>;
  logger: ServerLogger;
  /** The store when the option names none. Default: in memory. */
  defaultStore?: HttpRateLimitOptions['store'];
}): HttpRateLimiter | undefined {
  const { option, env, logger, defaultStore = (spec) => new WindowCounter(spec) } = options;
  if (option === false) return undefined;
  const resolved = option ?? fromEnv(env);
  if (resolved === undefined) return undefined;
  const { max, windowMs = 60_000, key, store = defaultStore } = resolved;
  if (!Number.isInteger(max) || max < 1) {
    throw new DefinitionError(`rateLimit.max must be a whole number of requests ≥ 1 (got ${String(max)}).`, {
      fields: ['rateLimit.max'],
    });
  }
  if (!Number.isFinite(windowMs) || windowMs <= 0) {
    throw new DefinitionError(
      `rateLimit.windowMs must be a positive number of milliseconds (got ${String(windowMs)}).`,
      {
        fields: ['rateLimit.windowMs'],
      },
    );
  }
  const limiter = store({ points: max, duration: windowMs / 1000, keyPrefix: 'candor-http' });
  return {
    async consume(http) {
      try {
        await limiter.consume(key === undefined ? 'endpoint' : key(http));
        return undefined;
      } catch (error) {
        if (isRes(error)) return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
        // A broken counter should not take the endpoint down: let the request through, loudly.
        logger.warn('the HTTP rate limit store failed; the request was let through', { error });
        return undefined;
      }
    },
  };
}

function fromEnv(env: Readonly<Record<string, string | undefined>>): HttpRateLimitOptions | undefined {
  const maxText = env.RATE_LIMIT_MAX;
  if (maxText === undefined || maxText.trim() === '') return undefined;
  const max = Number(maxText);
  if (!Number.isInteger(max) || max < 1) {
    throw new DefinitionError(`RATE_LIMIT_MAX must be a whole number ≥ 1 (got ${JSON.stringify(maxText)}).`, {
      fields: ['RATE_LIMIT_MAX'],
    });
  }
  const windowText = env.RATE_LIMIT_WINDOW_MS;
  if (windowText === undefined || windowText.trim() === '') return { max };
  const windowMs = Number(windowText);
  if (!Number.isFinite(windowMs) || windowMs <= 0) {
    throw new DefinitionError(
      `RATE_LIMIT_WINDOW_MS must be a positive number of milliseconds (got ${JSON.stringify(windowText)}).`,
      { fields: ['RATE_LIMIT_WINDOW_MS'] },
    );
  }
  return { max, windowMs };
}

function isRes(error: unknown): error is { msBeforeNext: number } {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { msBeforeNext?: unknown }).msBeforeNext === 'number'
  );
}
