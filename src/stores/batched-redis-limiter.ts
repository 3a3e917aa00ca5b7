/**
 * A Redis rate limiter that counts concurrent calls for one key in one round
 * trip (group commit). The first call for a key goes to Redis at once; calls
 * for the same key that arrive while it is in flight wait and then go as one
 * `consume(key, n)`. Redis adds `n` atomically, exactly as `n` separate calls
 * would, and each waiting call learns its own place in the count: with `before`
 * points consumed ahead of the batch, the i-th call is allowed when
 * `before + i <= points`. Refused calls count too, as they do one by one in
 * rate-limiter-flexible, so the totals and every allow/refuse decision match
 * calls made one after another in arrival order.
 *
 * Under load this turns one Redis round trip per call into one per batch (see
 * bench/redis.ts, the `limited` case); a lone call waits for nothing.
 * Only plain consumes are batched; a call with options goes on its own.
 *
 * While the store is down consumes go to a per-process `fallback`
 * limiter at once, without waiting for Redis; a consume that fails for want of
 * Redis marks the store down and is counted there too.
 */
import { type RateLimiterAbstract, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';

/** What a limiter does while the shared store is down. */
export interface LimiterFallback {
  /** Counts per process while the store is down. */
  limiter: RateLimiterAbstract;
  /** Whether the store is up (consumes go to Redis). */
  readonly up: () => boolean;
  /** A consume failed for want of the store. */
  markDown(reason: unknown): void;
  /** Told each time a consume is counted by the fallback (log once per outage). */
  onFallback(): void;
}

interface Waiter {
  points: number;
  resolve(res: RateLimiterRes): void;
  reject(reason: unknown): void;
}

export class BatchedRedisLimiter extends RateLimiterRedis {
  /** Keys with a batch in flight, and the calls waiting for the next one. */
  readonly #waiting = new Map<string, Waiter[]>();
  readonly #fallback: LimiterFallback | undefined;

  constructor(options: ConstructorParameters<typeof RateLimiterRedis>[0], fallback?: LimiterFallback) {
    super(options);
    this.#fallback = fallback;
  }

  override consume(key: string | number, points = 1, options?: { [key: string]: unknown }): Promise<RateLimiterRes> {
    if (options !== undefined && Object.keys(options).length > 0) return super.consume(key, points, options);
    const fallback = this.#fallback;
    if (fallback !== undefined && !fallback.up()) {
      fallback.onFallback();
      return fallback.limiter.consume(key, points);
    }
    const id = String(key);
    return new Promise<RateLimiterRes>((resolve, reject) => {
      const waiter = { points, resolve, reject };
      const queue = this.#waiting.get(id);
      if (queue === undefined) {
        this.#waiting.set(id, []);
        this.#send(id, [waiter]);
      } else {
        queue.push(waiter);
      }
    });
  }

  #send(id: string, batch: Waiter[]): void {
    let total = 0;
    for (const waiter of batch) total += waiter.points;
    super.consume(id, total).then(
      (res) => this.#settle(id, batch, total, res),
      (reason: unknown) => {
        if (reason instanceof RateLimiterRes) this.#settle(id, batch, total, reason);
        else if (this.#fallback !== undefined) {
          const fallback = this.#fallback;
          fallback.markDown(reason);
          fallback.onFallback();
          for (const waiter of batch) fallback.limiter.consume(id, waiter.points).then(waiter.resolve, waiter.reject);
          this.#next(id);
        } else {
          for (const waiter of batch) waiter.reject(reason);
          this.#next(id);
        }
      },
    );
  }

  /** Give each call of a batch its own answer, in the order the calls came. */
  #settle(id: string, batch: Waiter[], total: number, res: RateLimiterRes): void {
    let consumed = res.consumedPoints - total;
    for (let i = 0; i < batch.length; i++) {
      const waiter = batch[i]!;
      consumed += waiter.points;
      const own = new RateLimiterRes(
        Math.max(0, this.points - consumed),
        res.msBeforeNext,
        consumed,
        res.isFirstInDuration && i === 0,
      );
      if (consumed > this.points) waiter.reject(own);
      else waiter.resolve(own);
    }
    this.#next(id);
  }

  #next(id: string): void {
    const queue = this.#waiting.get(id);
    if (queue === undefined || queue.length === 0) {
      this.#waiting.delete(id);
      return;
    }
    this.#waiting.set(id, []);
    this.#send(id, queue);
  }
}
