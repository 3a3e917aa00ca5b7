/**
 * rate-limiter-flexible, loaded on first use. It is CommonJS, and its index
 * requires every store it ships (Redis, Mongo, Postgres, cluster…): about
 * 11 MiB of RSS a server without rate limits never needs.
 */
import { requireOnNode } from './node-require.js';

type RateLimiterFlexible = typeof import('rate-limiter-flexible');

let loaded: RateLimiterFlexible | undefined;

/**
 * The rate-limiter-flexible module, required the first time a limiter is built.
 *
 * @example
 * ```ts
 * const limiter = new (rateLimiterFlexible().RateLimiterMemory)({ points: 10, duration: 60 });
 * ```
 */
export function rateLimiterFlexible(): RateLimiterFlexible {
  loaded ??= requireOnNode<RateLimiterFlexible>('rate-limiter-flexible', 'A rate limit (rate-limiter-flexible)');
  return loaded;
}
