/**
 * The default store of rate limits: fixed windows counted in memory, in plain
 * JavaScript, so it runs on every runtime (Node.js, workerd, Deno, Bun) without
 * loading rate-limiter-flexible. It keeps that package's contract, which the
 * limits' `store` option accepts for shared stores (Redis, Postgres…): a key's
 * window opens at its first call and lasts `duration` seconds, at most `points`
 * calls pass in it, and `consume` rejects past that with `{ msBeforeNext }`.
 *
 * Counts live in this process, or on a fetch runtime in this isolate: each copy
 * of a server counts for itself.
 */

/** What candor asks of a limiter: rate-limiter-flexible's `consume` (every `RateLimiterAbstract` has it). */
export interface ConsumingLimiter {
  /** Count one call for `key`; rejects with an object carrying `msBeforeNext` when over the limit. */
  consume(key: string): Promise<unknown>;
}

/** A refused or counted call, with rate-limiter-flexible's field names. */
export interface WindowResult {
  /** Milliseconds until the key's window ends. */
  msBeforeNext: number;
  /** Calls left in the window. */
  remainingPoints: number;
  /** Calls counted in the window, this one included. */
  consumedPoints: number;
  /** Whether this call opened the window. */
  isFirstInDuration: boolean;
}

interface Window {
  endsAt: number;
  count: number;
}

/** Expired windows are dropped once this many keys are held, then at twice the live count. */
const FIRST_SWEEP = 1024;

/**
 * Fixed-window counts per key, in memory.
 *
 * @example
 * ```ts
 * const counter = new WindowCounter({ points: 10, duration: 60 });
 * await counter.consume('search'); // resolves 10 times a minute, then rejects with { msBeforeNext }
 * ```
 */
export class WindowCounter implements ConsumingLimiter {
  readonly #points: number;
  readonly #durationMs: number;
  readonly #windows = new Map<string, Window>();
  #sweepAt = FIRST_SWEEP;

  constructor(spec: { points: number; duration: number }) {
    this.#points = spec.points;
    this.#durationMs = spec.duration * 1000;
  }

  /** How many keys are held (ended windows stay until the next sweep). */
  get size(): number {
    return this.#windows.size;
  }

  /** Count one call for `key`; rejects with a {@link WindowResult} when the window's calls are used up. */
  consume(key: string): Promise<WindowResult> {
    const now = Date.now();
    let window = this.#windows.get(key);
    const opens = window === undefined || window.endsAt <= now;
    if (opens) {
      if (this.#windows.size >= this.#sweepAt) this.#sweep(now);
      window = { endsAt: now + this.#durationMs, count: 0 };
      this.#windows.set(key, window);
    }
    const held = window as Window;
    held.count += 1;
    const result: WindowResult = {
      msBeforeNext: Math.max(0, held.endsAt - now),
      remainingPoints: Math.max(0, this.#points - held.count),
      consumedPoints: held.count,
      isFirstInDuration: opens,
    };
    return held.count > this.#points ? Promise.reject(result) : Promise.resolve(result);
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows) if (window.endsAt <= now) this.#windows.delete(key);
    this.#sweepAt = Math.max(FIRST_SWEEP, this.#windows.size * 2);
  }
}
