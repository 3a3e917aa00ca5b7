/**
 * Input validation with the tool's compiled schema. Invalid arguments are an
 * `isError` result listing each problem with its path (SEP-1303: the model can
 * fix its arguments and retry), not a protocol error.
 */
import { formatIssues } from '../../tool/schema.js';
import type { CallToolResult, ValidationResult } from '../../tool/types.js';
import { toolErrorResult } from '../result.js';
import type { CallContext, Middleware } from '../types.js';

/**
 * Validate `ctx.args` against `ctx.tool.input`; on success `ctx.args` becomes
 * the parsed value (defaults applied, unknown keys handled as the schema says).
 *
 * @example
 * ```ts
 * const mw = validateInput();
 * ```
 */
export function validateInput(): Middleware {
  return async function validateInputMiddleware(ctx, next) {
    let checked = ctx.tool.input.validate(ctx.args);
    if (checked instanceof Promise) checked = await checked;
    return applyValidation(ctx, checked) ?? next();
  };
}

/**
 * Apply a validation outcome to the call: on success `ctx.args` becomes the
 * parsed value and the answer is undefined; otherwise the `isError` result.
 */
export function applyValidation(ctx: CallContext, checked: ValidationResult<unknown>): CallToolResult | undefined {
  if (!checked.ok) {
    return toolErrorResult(`Invalid arguments for tool "${ctx.tool.name}":\n${formatIssues(checked.issues)}`);
  }
  ctx.args = checked.value;
  return undefined;
}
