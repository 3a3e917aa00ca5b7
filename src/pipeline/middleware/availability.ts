/**
 * Availability: a tool that is registered but disabled (by API or by
 * `TOOL_<NAME>_DISABLED=true`) is answered like an unknown tool, with a JSON-RPC
 * -32602 error (SEP-1303: unknown tools are protocol errors), whose message says
 * it is disabled. It is checked on every call because tools can be switched at
 * runtime.
 */
import { ProtocolError } from '../../errors.js';
import type { Middleware } from '../types.js';

/** Options of {@link availability}. */
export interface AvailabilityOptions {
  /** Whether the tool may be called now (the registry's `callable(name) !== undefined`). */
  isCallable(name: string): boolean;
}

/**
 * Refuse calls to disabled tools.
 *
 * @example
 * ```ts
 * const mw = availability({ isCallable: (name) => registry.callable(name) !== undefined });
 * ```
 */
export function availability(options: AvailabilityOptions): Middleware {
  const { isCallable } = options;
  return async function availabilityMiddleware(ctx, next) {
    if (!isCallable(ctx.tool.name)) throw disabledError(ctx.tool.name);
    return next();
  };
}

/** The -32602 error for a call to a disabled tool. */
export function disabledError(name: string): ProtocolError {
  return new ProtocolError(-32602, `Tool "${name}" is disabled on this server; it cannot be called.`);
}
