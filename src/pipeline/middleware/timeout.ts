/**
 * Timeout: after the limit the call's signal is aborted (a timeout
 * cancels, it does not just race) and the client gets an `isError` result
 * naming the limit. Deadlines share one timer per limit (deadlines.ts) and are
 * cleared as soon as the call settles.
 */
import { CandorError } from '../../errors.js';
import type { CallToolResult } from '../../tool/types.js';
import { Deadlines } from '../deadlines.js';
import { toolErrorResult } from '../result.js';
import type { CallContext, Middleware } from '../types.js';

/** The abort reason a timed-out handler sees on `ctx.signal.reason`. */
export class ToolTimeoutError extends CandorError {
  override readonly name = 'ToolTimeoutError';
  readonly timeoutMs: number;

  constructor(tool: string, timeoutMs: number) {
    super(`tool "${tool}" timed out after ${timeoutMs} ms`, { code: 'tool_timeout' });
    this.timeoutMs = timeoutMs;
  }
}

/** Options of {@link timeout}. */
export interface TimeoutOptions {
  /** Limit for tools without their own `timeoutMs`. Default 30 000 ms; 0 or Infinity turns it off. */
  defaultMs?: number;
  /** The shared deadline timers (one pipeline shares one set; see deadlines.ts). */
  deadlines?: Deadlines;
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
  const { defaultMs = 30_000, deadlines = new Deadlines() } = options;
  return function timeoutMiddleware(ctx, next) {
    const ms = limitOf(ctx.tool.timeoutMs, defaultMs);
    if (ms === undefined) return next();
    const startedAt = performance.now();
    let running: Promise<CallToolResult>;
    try {
      running = next();
    } catch (error) {
      return Promise.reject(error);
    }
    return withinDeadline(ctx, ms, running, deadlines, startedAt);
  };
}

/** The time limit that applies to a tool, or undefined when none does. */
export function limitOf(toolMs: number | undefined, defaultMs: number): number | undefined {
  const ms = toolMs ?? defaultMs;
  return ms > 0 && Number.isFinite(ms) ? ms : undefined;
}

/**
 * Settle with `running`, unless `ms` pass first (counted from `startedAt`):
 * then abort the call's signal and settle with a result naming the limit.
 * `running` stays subscribed, so a late rejection is handled, never stray.
 */
export function withinDeadline(
  ctx: CallContext,
  ms: number,
  running: Promise<CallToolResult>,
  deadlines: Deadlines,
  startedAt: number,
): Promise<CallToolResult> {
  return new Promise<CallToolResult>((resolve, reject) => {
    const deadline = deadlines.add(
      ms,
      () => {
        ctx.abort(new ToolTimeoutError(ctx.tool.name, ms));
        resolve(
          toolErrorResult(
            `The tool "${ctx.tool.name}" did not finish within its time limit of ${describe(ms)} and was stopped. Try a smaller request, or retry later.`,
          ),
        );
      },
      startedAt,
    );
    running.then(
      (result) => {
        deadlines.clear(deadline);
        resolve(result);
      },
      (error: unknown) => {
        deadlines.clear(deadline);
        reject(error);
      },
    );
  });
}

function describe(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
