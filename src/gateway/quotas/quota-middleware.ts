/**
 * Gateway quotas as one tool-call middleware: each quota is a rate-limiter-flexible
 * limiter on the store the caller hands in (with Redis, the batched limiter every
 * instance shares, which counts per process while Redis is away), keyed by the
 * person or shared by everyone. A call counts against every quota that matches
 * it and is refused, with the time to wait, when any of them is used up.
 */
import { createHash } from 'node:crypto';
import picomatch from 'picomatch';
import type { RateLimiterRes } from 'rate-limiter-flexible';
import type { CallContext, Middleware } from '../../pipeline/types.js';
import { principalKey } from '../../transports/http/authorizer.js';
import type { HttpRateLimiterSpec } from '../../transports/http/http-rate-limit.js';
import type { ServerLogger } from '../../util/logger.js';
import type { ConsumingLimiter } from '../../util/window-counter.js';
import { GATEWAY_META_KEY } from '../proxy-tool.js';
import type { Quota } from './types.js';
import { quotaLabel, quotaRefused } from './wait-answer.js';

/** Options of {@link quotaMiddleware}. */
export interface QuotaMiddlewareOptions {
  quotas: readonly Quota[];
  /** Build one quota's limiter (called at its first matching call, when the shared store exists). */
  store: (spec: HttpRateLimiterSpec) => ConsumingLimiter;
  /** Where store failures are reported (the call is then let through). */
  logger?: ServerLogger;
  /** Told of each refused call (the gateway writes its audit record and metrics from it). */
  onRefused?: (ctx: CallContext, quota: string) => void;
}

interface Compiled {
  quota: Quota;
  matches: (ctx: CallContext) => boolean;
  spec: HttpRateLimiterSpec;
  limiter?: ConsumingLimiter;
}

/**
 * The middleware; none when there are no quotas.
 *
 * @example
 * ```ts
 * const middleware = quotaMiddleware({ quotas: [{ effects: ['destructive'], max: 20, windowMs: 3_600_000 }], store });
 * ```
 */
export function quotaMiddleware(options: QuotaMiddlewareOptions): Middleware[] {
  const { quotas, store, logger, onRefused } = options;
  if (quotas.length === 0) return [];
  const compiled = quotas.map(compile);
  return [
    async function quotas(ctx, next) {
      const applying = compiled.filter((c) => c.matches(ctx));
      if (applying.length === 0) return next();
      const person = personOf(ctx);
      const answers = await Promise.allSettled(
        applying.map((c) => {
          c.limiter ??= store(c.spec);
          return c.limiter.consume((c.quota.per ?? 'person') === 'person' ? person : 'all');
        }),
      );
      // Of several used-up quotas, the answer names the one that frees last: waiting for it frees them all.
      let refused: { quota: Quota; wait: number } | undefined;
      answers.forEach((answer, i) => {
        if (answer.status === 'fulfilled') return;
        const quota = applying[i]!.quota;
        if (isRes(answer.reason)) {
          if (refused === undefined || answer.reason.msBeforeNext > refused.wait)
            refused = { quota, wait: answer.reason.msBeforeNext };
        } else {
          logger?.warn(`the quota store failed for ${quotaLabel(quota)}; the call was let through`, {
            error: answer.reason,
          });
        }
      });
      if (refused === undefined) return next();
      onRefused?.(ctx, quotaLabel(refused.quota));
      return quotaRefused(refused.quota, refused.wait);
    },
  ];
}

function compile(quota: Quota): Compiled {
  const tools = quota.tools ? picomatch(quota.tools) : undefined;
  const servers = quota.servers ? new Set(quota.servers) : undefined;
  const effects = quota.effects ? new Set(quota.effects) : undefined;
  // The same quota on every instance shares one count; a changed quota starts a fresh one.
  const id = createHash('sha256').update(JSON.stringify(quota)).digest('hex').slice(0, 16);
  return {
    quota,
    spec: { points: quota.max, duration: quota.windowMs / 1000, keyPrefix: `candor-quota:${id}` },
    matches: (ctx) => {
      // The effect class comes from the tool's hints as the gateway serves them (tightened for untrusted servers).
      const meta = ctx.tool.meta?.[GATEWAY_META_KEY] as { server: string; tool: string } | undefined;
      // Only upstream tools count: the gateway's own (find_tools) reach no server.
      if (meta === undefined) return false;
      if (effects && !effects.has(ctx.tool.effect)) return false;
      if (servers && !servers.has(meta.server)) return false;
      return tools === undefined || tools(ctx.tool.name) || tools(`${meta.server}__${meta.tool}`);
    },
  };
}

/** The person a call is counted for: the token's issuer and subject (hashed: no one's name in Redis keys). */
function personOf(ctx: CallContext): string {
  if (ctx.auth === undefined) return 'local';
  return createHash('sha256').update(principalKey(ctx.auth)).digest('base64url').slice(0, 22);
}

function isRes(error: unknown): error is RateLimiterRes {
  return typeof error === 'object' && error !== null && typeof (error as RateLimiterRes).msBeforeNext === 'number';
}
