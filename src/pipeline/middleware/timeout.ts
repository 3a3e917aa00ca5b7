/**
 * Timeout: after the limit the call's signal is aborted (STYLE.md 6: a timeout
 * cancels, it does not just race) and the client gets an `isError` result
 * naming the limit. The timer is cleared in `finally`.
 */
import { toolErrorResult } from '../result.js';
import type { Middleware } from '../types.js';

/** The abort reason a timed-out handler sees on `ctx.signal.reason`. */
export class ToolTimeoutError extends Error {
  override readonly name = 'ToolTimeoutError';
  readonly timeoutMs: number;

  constructor(tool: string, timeoutMs: number) {
    super(`tool "${tool}" timed out after ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** Options of {@link timeout}. */
export interface TimeoutOptions {
  /** Limit for tools without their own `timeoutMs`. Default 30 000 ms; 0 or Infinity turns it off. */
  defaultMs?: number;
}

/**
 * Abort calls that run longer than the tool's `timeoutMs` (or the default).
 *
 * @example
 * ```ts
 * const mw = timeout({ defaultMs: 10_000 });
 * ```
 */
export function timeout(options: TimeoutOptions = {}): Middleware {
  const { defaultMs = 30_000 } = options;
  return async function timeoutMiddleware(ctx, next) {
    const ms = ctx.tool.timeoutMs ?? defaultMs;
    if (!(ms > 0 && Number.isFinite(ms))) return next();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<ReturnType<typeof toolErrorResult>>((resolve) => {
      timer = setTimeout(() => {
        ctx.abort(new ToolTimeoutError(ctx.tool.name, ms));
        resolve(
          toolErrorResult(
            `The tool "${ctx.tool.name}" did not finish within its time limit of ${describe(ms)} and was stopped. Try a smaller request, or retry later.`,
          ),
        );
      }, ms);
    });
    try {
      // race() subscribes to next(): a late rejection from the handler is handled, not stray.
      return await Promise.race([next(), expired]);
    } finally {
      clearTimeout(timer);
    }
  };
}

function describe(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
