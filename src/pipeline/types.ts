/**
 * The tool-call pipeline's types. A middleware is a named async function
 * `(ctx, next) => Promise<CallToolResult>`; `next()` returns the
 * inner result, so post-processing is `const result = await next()`.
 */
import type { CallToolResult, ToolContext, ToolDefinition, WireTool } from '../tool/types.js';

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

/** The parts of a tool registry the engine uses (src/registry's `ToolRegistry` has them all). */
export interface ToolSource {
  get(name: string): ToolDefinition | undefined;
  callable(name: string): ToolDefinition | undefined;
  manifest(options?: { cursor?: string; limit?: number }): { tools: readonly WireTool[]; nextCursor?: string };
  /** The same page as JSON text, when the source caches it (sent without re-serialising). */
  manifestJson?(options?: { cursor?: string; limit?: number }): string;
  /** Subscribe to changes of what is listed or callable; returns a function that unsubscribes. */
  on(event: 'changed', listener: (event: { names: readonly string[] }) => void): () => void;
  /**
   * The message of the -32602 error for a tool this source does not offer, when it
   * can say more than "Unknown tool" ("call find_tools first").
   */
  unknownToolMessage?(name: string): string | undefined;
}

/** Runs one tool call through the pipeline (built by src/pipeline). */
export type ToolRunner = (ctx: CallContext) => Promise<CallToolResult>;
