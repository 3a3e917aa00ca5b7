/**
 * The quotas' counts without Redis: fixed windows held in memory with no timers, so a
 * window of any length holds (a timer past 2^31-1 ms fires at once, which reset a 30-day
 * count within a millisecond), and, when the config names a file, written there after
 * each counted call and read back at start, so a restart does not hand everyone a fresh
 * quota. A window opens at a key's first call and lasts `duration` seconds; at most
 * `points` calls pass in it; past that `consume` rejects with `{ msBeforeNext }`
 * (rate-limiter-flexible's contract, which the middleware reads).
 *
 * The file holds only hashes (each quota's and each person's) and counts:
 * `{ "quotaCountsVersion": 1, "windows": { "<key>": { "endsAt": <epoch ms>, "count": n } } }`.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { CandorError } from '../../errors.js';
import type { HttpRateLimiterSpec } from '../../transports/http/http-rate-limit.js';
import type { ServerLogger } from '../../util/logger.js';
import type { ConsumingLimiter, WindowResult } from '../../util/window-counter.js';

interface Window {
  endsAt: number;
  count: number;
}

/** Ended windows are dropped once this many keys are held, then at twice the live count. */
const FIRST_SWEEP = 1024;

/**
 * Every quota's counts, in memory and optionally in a file.
 *
 * @example
 * ```ts
 * const counts = QuotaCounts.open({ file: 'quota-counts.json' });
 * await counts.limiter({ points: 2, duration: 30 * 86_400, keyPrefix: 'candor-quota:ab12' }).consume('local');
 * ```
 */
export class QuotaCounts {
  readonly #windows: Map<string, Window>;
  readonly #file: string | undefined;
  readonly #logger: ServerLogger | undefined;
  #sweepAt = FIRST_SWEEP;
  #pending = false;

  private constructor(windows: Map<string, Window>, file: string | undefined, logger: ServerLogger | undefined) {
    this.#windows = windows;
    this.#file = file;
    this.#logger = logger;
  }

  /** Read the file (a missing one is empty); a file that is not a counts file stops the start, naming it. */
  static open(options: { file?: string | undefined; logger?: ServerLogger | undefined } = {}): QuotaCounts {
    const windows = options.file === undefined ? new Map<string, Window>() : readCounts(options.file);
    return new QuotaCounts(windows, options.file, options.logger);
  }

  /** One quota's limiter: its keys live under its own prefix. */
  limiter(spec: HttpRateLimiterSpec): ConsumingLimiter {
    const durationMs = spec.duration * 1000;
    return { consume: (key: string) => this.#consume(`${spec.keyPrefix}:${key}`, spec.points, durationMs) };
  }

  /** Write the file now if a count changed since it was last written. */
  flush(): void {
    if (!this.#pending) return;
    this.#pending = false;
    this.#write();
  }

  #consume(key: string, points: number, durationMs: number): Promise<WindowResult> {
    const now = Date.now();
    let window = this.#windows.get(key);
    const opens = window === undefined || window.endsAt <= now;
    if (opens) {
      if (this.#windows.size >= this.#sweepAt) this.#sweep(now);
      window = { endsAt: now + durationMs, count: 0 };
      this.#windows.set(key, window);
    }
    const held = window as Window;
    held.count += 1;
    this.#changed();
    const result: WindowResult = {
      msBeforeNext: Math.max(0, held.endsAt - now),
      remainingPoints: Math.max(0, points - held.count),
      consumedPoints: held.count,
      isFirstInDuration: opens,
    };
    return held.count > points ? Promise.reject(result) : Promise.resolve(result);
  }

  /** Calls counted in one turn of the event loop are written once, right after it. */
  #changed(): void {
    if (this.#file === undefined || this.#pending) return;
    this.#pending = true;
    setImmediate(() => this.flush());
  }

  #write(): void {
    const file = this.#file!;
    const now = Date.now();
    const windows: Record<string, Window> = {};
    for (const [key, window] of this.#windows) if (window.endsAt > now) windows[key] = window;
    const temporary = `${file}.${process.pid}.tmp`;
    try {
      // Whole or not at all: a crash mid-write leaves the previous file.
      writeFileSync(temporary, `${JSON.stringify({ quotaCountsVersion: 1, windows })}\n`, { mode: 0o600 });
      renameSync(temporary, file);
    } catch (error) {
      this.#logger?.warn(`could not write the quota counts to ${file}; they are kept in memory`, { error });
    }
  }

  #sweep(now: number): void {
    for (const [key, window] of this.#windows) if (window.endsAt <= now) this.#windows.delete(key);
    this.#sweepAt = Math.max(FIRST_SWEEP, this.#windows.size * 2);
  }
}

function readCounts(file: string): Map<string, Window> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw new CandorError(`Cannot read the quota counts file ${file}: ${(error as Error).message}`, {
      code: 'invalid_gateway_config',
    });
  }
  const refuse = (why: string): never => {
    throw new CandorError(
      `The quota counts file ${file} ${why}; it must look like { "quotaCountsVersion": 1, "windows": { "<key>": { "endsAt": 1767225600000, "count": 3 } } }. Fix or delete it (deleting resets every quota).`,
      { code: 'invalid_gateway_config' },
    );
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return refuse(`is not valid JSON (${(error as Error).message})`);
  }
  const root = parsed as { quotaCountsVersion?: unknown; windows?: unknown } | null;
  if (root === null || typeof root !== 'object' || root.quotaCountsVersion !== 1)
    return refuse('is not a version 1 quota counts file');
  if (typeof root.windows !== 'object' || root.windows === null || Array.isArray(root.windows))
    return refuse('has no "windows" object');
  const windows = new Map<string, Window>();
  const now = Date.now();
  for (const [key, value] of Object.entries(root.windows as Record<string, unknown>)) {
    const window = value as Partial<Window> | null;
    if (
      window === null ||
      typeof window !== 'object' ||
      !Number.isSafeInteger(window.endsAt) ||
      !Number.isSafeInteger(window.count) ||
      (window.count as number) < 0
    )
      return refuse(
        `has a window that is not { "endsAt": <epoch ms>, "count": <whole number> } (${JSON.stringify(key)})`,
      );
    if ((window.endsAt as number) > now) windows.set(key, { endsAt: window.endsAt!, count: window.count! });
  }
  return windows;
}
