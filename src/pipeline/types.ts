/**
 * The tool-call pipeline's types. A middleware is a named async function
 * `(ctx, next) => Promise<CallToolResult>` (STYLE.md 4); `next()` returns the
 * inner result, so post-processing is `const result = await next()`.
 */
import type { CallToolResult, ToolContext } from '../tool/types.js';

/**
 * What middleware sees: the handler's {@link ToolContext} plus `abort()`, which
 * aborts `ctx.signal` (the timeout middleware uses it; so may yours).
 */
export interface CallContext<Args = unknown> extends ToolContext<Args> {
  /** Abort the call's signal with a reason (the handler sees `ctx.signal.aborted`). */
  abort(reason?: unknown): void;
}

/** Calls the rest of the pipeline. Calling it twice is an error. */
export type Next = () => Promise<CallToolResult>;

/**
 * A tool-call middleware.
 *
 * @example
 * ```ts
 * const timing: Middleware = async function timing(ctx, next) {
 *   const started = performance.now();
 *   const result = await next();
 *   ctx.state.set('ms', performance.now() - started);
 *   return result;
 * };
 * ```
 */
export type Middleware = (ctx: CallContext, next: Next) => Promise<CallToolResult>;
