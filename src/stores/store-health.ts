/**
 * Whether the shared store (Redis) answers, as one instance sees it.
 * Every store operation on a call's path runs through {@link StoreHealth.run}:
 * it gives up after the store timeout (default 500 ms), and once one operation
 * failed for want of the store, the next ones fail at once with
 * {@link StoreUnavailableError} instead of each waiting out the timeout — a
 * paused Redis (SIGSTOP) holds no call longer than the timeout. A probe (PING)
 * runs meanwhile; when it answers, the store is up again and listeners are told
 * (sessions accepted during the outage are then written to it).
 */

import { CandorError } from '../errors.js';
import type { ServerLogger } from '../util/logger.js';

/** The shared store did not answer in time, or is known to be down. */
export class StoreUnavailableError extends CandorError {
  override readonly name = 'StoreUnavailableError';

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: 'store_unavailable', cause: options.cause });
  }
}

/** True for a {@link StoreUnavailableError}, also across module copies. */
export function isStoreUnavailable(error: unknown): error is StoreUnavailableError {
  return (
    error instanceof StoreUnavailableError ||
    (typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'StoreUnavailableError')
  );
}

/** Options of {@link StoreHealth}. */
export interface StoreHealthOptions {
  /** How long one operation may take before the store counts as down (ms). Default 500. */
  timeoutMs?: number;
  /** Asks the store whether it answers (resolves when it does). */
  probe: () => Promise<unknown>;
  /** How often the probe runs while the store is down (ms). Default 250. */
  probeEveryMs?: number;
  logger?: ServerLogger;
  /** How the store is named in log lines. Default `Redis`. */
  name?: string;
}

/** The default store timeout (ms): a call waits at most this long for the store before degrading. */
export const DEFAULT_STORE_TIMEOUT_MS = 500;

/**
 * @example
 * ```ts
 * const health = new StoreHealth({ probe: () => redis.ping() });
 * const record = await health.run(() => redis.get(key)); // StoreUnavailableError while Redis is away
 * ```
 */
export class StoreHealth {
  readonly timeoutMs: number;
  readonly #probe: () => Promise<unknown>;
  readonly #probeEveryMs: number;
  readonly #logger: ServerLogger | undefined;
  readonly #name: string;
  readonly #restored = new Set<() => void>();
  #up = true;
  #since = 0;
  #probing: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  constructor(options: StoreHealthOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
    if (!Number.isFinite(this.timeoutMs) || this.timeoutMs <= 0) {
      throw new TypeError(`store timeout must be a positive number of ms, got ${String(options.timeoutMs)}`);
    }
    this.#probe = options.probe;
    this.#probeEveryMs = options.probeEveryMs ?? 250;
    this.#logger = options.logger;
    this.#name = options.name ?? 'Redis';
  }

  /** Whether the store answered the last time it was asked. */
  get up(): boolean {
    return this.#up;
  }

  /**
   * Run one store operation: at once {@link StoreUnavailableError} while the
   * store is down, else the operation's result, or that error after the timeout.
   * An error the store answered with (a Redis reply error) passes through and
   * says nothing about its health.
   */
  async run<T>(operation: () => Promise<T>): Promise<T> {
    if (!this.#up) throw this.#unavailable();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await Promise.race([
        operation(),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(
            () => reject(new StoreUnavailableError(`${this.#name} did not answer within ${this.timeoutMs} ms.`)),
            this.timeoutMs,
          );
        }),
      ]);
    } catch (error) {
      if (isReplyError(error)) throw error;
      this.markDown(error);
      throw isStoreUnavailable(error)
        ? error
        : new StoreUnavailableError(`${this.#name} is unreachable: ${(error as Error)?.message ?? String(error)}`, {
            cause: error,
          });
    } finally {
      clearTimeout(timer);
    }
  }

  /** The store failed (a timeout, a closed connection): degrade, and probe until it answers again. */
  markDown(reason?: unknown): void {
    if (this.#closed || !this.#up) return;
    this.#up = false;
    this.#since = Date.now();
    const why = reason === undefined ? '' : `: ${String((reason as Error)?.message ?? reason).replace(/\.$/, '')}`;
    this.#logger?.warn(
      `${this.#name} is unreachable${why}; degraded: known sessions are served from this instance's cache, new sessions are kept here until it returns, rate limits are counted per process`,
    );
    this.#scheduleProbe();
  }

  /** Probe now (e.g. the client reconnected) instead of at the next interval. */
  probeSoon(): void {
    if (this.#up || this.#closed) return;
    clearTimeout(this.#probing);
    this.#probing = undefined;
    void this.#runProbe();
  }

  /** Told each time the store answers again after an outage. Returns a function that stops it. */
  onRestored(listener: () => void): () => void {
    this.#restored.add(listener);
    return () => this.#restored.delete(listener);
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#probing);
    this.#probing = undefined;
  }

  #scheduleProbe(): void {
    if (this.#closed || this.#probing !== undefined) return;
    this.#probing = setTimeout(() => {
      this.#probing = undefined;
      void this.#runProbe();
    }, this.#probeEveryMs);
    this.#probing.unref?.();
  }

  async #runProbe(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        this.#probe(),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error('probe timed out')), this.timeoutMs);
        }),
      ]);
    } catch {
      if (!this.#up) this.#scheduleProbe();
      return;
    } finally {
      clearTimeout(timer);
    }
    if (this.#up || this.#closed) return;
    this.#up = true;
    this.#logger?.info(`${this.#name} answers again after ${Date.now() - this.#since} ms; shared state resumes`);
    for (const listener of [...this.#restored]) {
      try {
        listener();
      } catch (error) {
        this.#logger?.error('a store-restored listener failed', { error });
      }
    }
  }

  #unavailable(): StoreUnavailableError {
    return new StoreUnavailableError(`${this.#name} is unreachable (for ${Date.now() - this.#since} ms).`);
  }
}

/**
 * Redis answered, with an error (wrong type, script error): the store is up.
 * Not so for answers that say it cannot serve now (a Redis Cluster without a
 * master for the slot, a failover under way, a Redis still loading).
 */
function isReplyError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || (error as { name?: unknown }).name !== 'ReplyError') return false;
  return !/^(CLUSTERDOWN|TRYAGAIN|LOADING|MASTERDOWN)\b/.test(String((error as { message?: unknown }).message));
}
