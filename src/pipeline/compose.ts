/**
 * `compose()`: middleware into one onion, Hono-style, with a
 * guard against calling `next()` twice and a fast path when there is nothing
 * to compose.
 */
import type { CallToolResult } from '../tool/types.js';
import type { CallContext, Middleware, Next } from './types.js';

const twice = () => Promise.reject(new Error('next() called multiple times in one middleware.'));

/**
 * Compose middleware into one middleware: the first in the list is the
 * outermost layer; the `next` given to the result runs after the last one.
 * A middleware that throws synchronously behaves like one that rejects.
 *
 * @example
 * ```ts
 * const run = compose([logTiming, requireScope('write')]);
 * const result = await run(ctx, () => callHandler(ctx));
 * ```
 */
export function compose(middleware: readonly Middleware[]): Middleware {
  for (const fn of middleware) {
    if (typeof fn !== 'function') {
      throw new TypeError('compose: every middleware must be a function (ctx, next) => Promise<result>.');
    }
  }
  // Fast path: nothing to wrap, no dispatch state per call.
  if (middleware.length === 0) return (_ctx, next) => next();
  const layers = [...middleware];
  return function composed(ctx: CallContext, last: Next): Promise<CallToolResult> {
    let index = -1;
    const dispatch = (i: number): Promise<CallToolResult> => {
      if (i <= index) return twice();
      index = i;
      try {
        if (i === layers.length) return Promise.resolve(last());
        return Promise.resolve(layers[i]!(ctx, () => dispatch(i + 1)));
      } catch (error) {
        return Promise.reject(error);
      }
    };
    return dispatch(0);
  };
}
