/**
 * Per-tool rate limits (`rateLimit: { windowMs, max }` on the tool). Over the
 * limit the call gets an `isError` result that says when to retry, so the model
 * can wait instead of hammering.
 *
 * The store is pluggable: pass `store` to build any rate-limiter-flexible
 * `RateLimiterAbstract` (Redis, Postgres, …) for a tool's limit; the default
 * keeps counts in memory (window-counter.ts), on every runtime.
 */
import type { RateLimit } from '../../tool/types.js';
import type { ServerLogger } from '../../util/logger.js';
import { type ConsumingLimiter, WindowCounter } from '../../util/window-counter.js';
import { toolErrorResult } from '../result.js';
import type { CallContext, Middleware } from '../types.js';

/** What a store factory gets: the limit in rate-limiter-flexible's terms. */
export interface RateLimiterSpec {
  /** The tool whose limit this is. */
  tool: string;
  /** Calls allowed per window (`max`). */
  points: number;
  /** Window length in seconds (`windowMs / 1000`; may be fractional). */
  duration: number;
  /** A prefix that keeps tools apart in a shared store. */
  keyPrefix: string;
}

/** Options of {@link rateLimit}. */
export interface RateLimitOptions {
  /**
   * Build the limiter for one tool's limit: any rate-limiter-flexible `RateLimiterAbstract`.
   * Default: counts in memory, per process (per isolate on a fetch runtime).
   *
   * @example
   * ```ts
   * store: (spec) => new RateLimiterRedis({ storeClient: redis, ...spec })
   * ```
   */
  store?: (spec: RateLimiterSpec) => ConsumingLimiter;
  /** What the limit is counted per. Default: the tool alone (all callers share it). */
  key?: (ctx: CallContext) => string;
  /** Where store failures are reported (the call is then let through). */
  logger?: ServerLogger;
  /**
   * Which limit applies to a call, and the name it is counted and reported under.
   * Default: the tool's own `rateLimit`. A gateway uses this for one limit shared
   * by every tool of an upstream server.
   */
  limitOf?: (ctx: CallContext) => { name: string; limit: RateLimit } | undefined;
}

/**
 * Enforce each tool's `rateLimit`. Tools without one pass straight through.
 * If the store itself fails, the call is allowed and the failure logged (a
 * broken counter should not take every tool down).
 *
 * @example
 * ```ts
 * const mw = rateLimit({ key: (ctx) => ctx.auth?.subject ?? 'anonymous' });
 * ```
 */
export function rateLimit(options: RateLimitOptions = {}): Middleware {
  const { store = (spec) => new WindowCounter(spec), key = (ctx) => ctx.tool.name, logger, limitOf } = options;
  const limiters = new Map<string, { limit: RateLimit; limiter: ConsumingLimiter }>();
  const limiterFor = (name: string, limit: RateLimit) => {
    let entry = limiters.get(name);
    // A tool re-registered with another limit gets a fresh limiter.
    if (entry === undefined || entry.limit !== limit) {
      const spec = { tool: name, points: limit.max, duration: limit.windowMs / 1000, keyPrefix: `candor-tool:${name}` };
      entry = { limit, limiter: store(spec) };
      limiters.set(name, entry);
    }
    return entry.limiter;
  };
  return async function rateLimitMiddleware(ctx, next) {
    // The default (the tool's own limit) allocates nothing per call.
    let name = ctx.tool.name;
    let limit = ctx.tool.rateLimit;
    if (limitOf !== undefined) {
      const applies = limitOf(ctx);
      name = applies?.name ?? name;
      limit = applies?.limit;
    }
    if (limit === undefined) return next();
    try {
      await limiterFor(name, limit).consume(key(ctx));
    } catch (error) {
      if (isRes(error)) {
        const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
        return toolErrorResult(
          `Rate limit reached for ${name === ctx.tool.name ? `tool "${name}"` : name}: at most ${limit.max} call${limit.max === 1 ? '' : 's'} per ${window(limit.windowMs)}. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
        );
      }
      logger?.warn(`rate limit store failed for ${name}; the call was let through`, { error });
    }
    return next();
  };
}

function isRes(error: unknown): error is { msBeforeNext: number } {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { msBeforeNext?: unknown }).msBeforeNext === 'number'
  );
}

function window(ms: number): string {
  if (ms % 3_600_000 === 0) return ms === 3_600_000 ? 'hour' : `${ms / 3_600_000} hours`;
  if (ms % 60_000 === 0) return ms === 60_000 ? 'minute' : `${ms / 60_000} minutes`;
  if (ms % 1000 === 0) return ms === 1000 ? 'second' : `${ms / 1000} seconds`;
  return `${ms} ms`;
}
