/**
 * Opt-in confirmation of destructive calls: before a tool whose resolved hints
 * say it may destroy (readOnlyHint false, destructiveHint true, which is also
 * the worst-case default of an undeclared tool) runs, the user is asked through
 * `ctx.confirm` (elicitation). A decline is an `isError` result, so the model
 * learns the user said no.
 */

import { isToolError } from '../../errors.js';
import { isMissingCapabilityError } from '../missing-capability.js';
import { toolErrorResult } from '../result.js';
import type { CallContext, Middleware } from '../types.js';

/** Options of {@link confirmDestructive}. */
export interface ConfirmDestructiveOptions {
  /** The question shown to the user. Default names the tool and its arguments' keys. */
  message?: (ctx: CallContext) => string;
  /**
   * When the client cannot elicit: `refuse` (default) answers an `isError`
   * result; `allow` runs the tool unconfirmed.
   */
  whenUnsupported?: 'refuse' | 'allow';
}

/**
 * Ask before destructive tool calls.
 *
 * @example
 * ```ts
 * createServer({ name: 'files', version: '1.0.0', tools, confirmDestructive: true });
 * ```
 */
export function confirmDestructive(options: ConfirmDestructiveOptions = {}): Middleware {
  const { message = defaultMessage, whenUnsupported = 'refuse' } = options;
  return async function confirmDestructiveMiddleware(ctx, next) {
    const { readOnlyHint, destructiveHint } = ctx.tool.hints;
    if (readOnlyHint || !destructiveHint) return next();
    let confirmed: boolean;
    try {
      confirmed = await ctx.confirm(message(ctx));
    } catch (error) {
      // 2026-07-28: the client did not declare elicitation; answered -32021 (unless allowed).
      if (isMissingCapabilityError(error)) {
        if (whenUnsupported === 'allow') return next();
        throw error;
      }
      if (isToolError(error) && error.code === 'elicitation_unsupported') {
        if (whenUnsupported === 'allow') return next();
        return toolErrorResult(
          `The tool "${ctx.tool.name}" may destroy data, so this server asks the user to confirm it first, but the client cannot ask (it did not declare the elicitation capability). The call was not run.`,
        );
      }
      throw error;
    }
    if (!confirmed) {
      return toolErrorResult(`The user declined to run "${ctx.tool.name}"; nothing was changed.`);
    }
    return next();
  };
}

function defaultMessage(ctx: CallContext): string {
  return `Allow "${ctx.tool.title}" to run? It may delete or overwrite data.`;
}
