/**
 * Turning what a handler returned (or threw) into a `tools/call` result, in
 * one place: what the model sees, and what stays in the server log.
 */

import { CandorError, isProtocolError, isToolError } from '../errors.js';
import { formatIssues } from '../tool/schema.js';
import type { CallToolResult, ToolDefinition, ValidationResult } from '../tool/types.js';
import type { ServerLogger } from '../util/logger.js';
import type { CallContext } from './types.js';

/**
 * An `isError` result with one text block: what the model reads to self-correct
 * (SEP-1303: tool failures are results, not protocol errors).
 *
 * @example
 * ```ts
 * return toolErrorResult('The path is outside the workspace; pass a relative path.');
 * ```
 */
export function toolErrorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** Whether a value already is a `CallToolResult` (has a `content` array of typed blocks). */
export function isCallToolResult(value: unknown): value is CallToolResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const content = (value as { content?: unknown }).content;
  if (!Array.isArray(content)) return false;
  for (const block of content) {
    if (typeof block !== 'object' || block === null || typeof (block as { type?: unknown }).type !== 'string') {
      return false;
    }
  }
  return true;
}

/** The handler's output did not match the tool's output schema (a server bug: masked, logged). */
export class OutputSchemaError extends CandorError {
  override readonly name = 'OutputSchemaError';
  constructor(message: string) {
    super(message, { code: 'output_invalid' });
  }
}

/**
 * Normalise a handler's return value:
 * - a string → one text block;
 * - a `CallToolResult` → as is (its `structuredContent` is checked against the output schema);
 * - `undefined` → no content;
 * - any other JSON value → its JSON as text, plus `structuredContent` when the
 *   tool declares an output schema (spec 2025-06-18: return both for older clients).
 *
 * @example
 * ```ts
 * await normaliseResult('done', tool); // { content: [{ type: 'text', text: 'done' }] }
 * ```
 */
export function normaliseResult(value: unknown, tool: ToolDefinition): CallToolResult | Promise<CallToolResult> {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (value === undefined) return { content: [] };
  if (isCallToolResult(value)) {
    if (tool.output === undefined || value.isError === true) return value;
    if (value.structuredContent === undefined) {
      throw new OutputSchemaError(`tool "${tool.name}" declares an output schema but returned no structuredContent`);
    }
    return then(tool.output.validate(value.structuredContent), (checked) => {
      if (!checked.ok) throw outputMismatch(tool, checked.issues);
      return value;
    });
  }
  const text = JSON.stringify(value);
  if (text === undefined)
    throw new TypeError(`tool "${tool.name}" returned a value that is not JSON (${typeof value})`);
  if (tool.output === undefined) return { content: [{ type: 'text', text }] };
  return then(tool.output.validate(value), (checked) => {
    if (!checked.ok) throw outputMismatch(tool, checked.issues);
    return {
      content: [{ type: 'text', text: JSON.stringify(checked.value) }],
      structuredContent: checked.value as { [key: string]: unknown },
    };
  });
}

function outputMismatch(tool: ToolDefinition, issues: Parameters<typeof formatIssues>[0]): OutputSchemaError {
  return new OutputSchemaError(
    `tool "${tool.name}" returned a result that does not match its output schema:\n${formatIssues(issues)}`,
  );
}

function then<T, R>(
  value: ValidationResult<T> | Promise<ValidationResult<T>>,
  fn: (v: ValidationResult<T>) => R,
): R | Promise<Awaited<R>> {
  return value instanceof Promise ? (value.then(fn) as Promise<Awaited<R>>) : fn(value);
}

/**
 * The result for a call whose handler (or middleware) threw: a `ToolError`'s
 * message goes to the model; anything else is masked, and the original is
 * logged with the request id so the operator can find it. `ProtocolError`s are
 * rethrown: they become JSON-RPC errors.
 */
export function failureResult(error: unknown, ctx: CallContext, logger: ServerLogger): CallToolResult {
  if (isProtocolError(error)) throw error;
  if (isToolError(error)) return toolErrorResult(error.message);
  logger.error(`tool "${ctx.tool.name}" failed`, {
    requestId: ctx.requestId,
    ...(ctx.session === undefined ? {} : { session: ctx.session.id }),
    tool: ctx.tool.name,
    error,
  });
  return toolErrorResult(
    `The tool "${ctx.tool.name}" failed with an internal error (request ${String(ctx.requestId)}); details are in the server log.`,
  );
}

/**
 * Run the handler and normalise its result; never rejects except with a
 * `ProtocolError`. A synchronous throw is caught like a rejection.
 */
export async function invokeHandler(ctx: CallContext, logger: ServerLogger): Promise<CallToolResult> {
  return callHandler(ctx, logger);
}

/**
 * {@link invokeHandler} without a promise when the handler answers
 * synchronously (most of a fast call's cost was promise layers). It
 * throws (synchronously) or rejects only with a `ProtocolError`.
 */
export function callHandler(ctx: CallContext, logger: ServerLogger): CallToolResult | Promise<CallToolResult> {
  const fail = (error: unknown) => failureResult(error, ctx, logger);
  try {
    const value: unknown = ctx.tool.handler(ctx.args, ctx);
    if (isThenable(value))
      return Promise.resolve(value)
        .then((v) => normaliseResult(v, ctx.tool))
        .catch(fail);
    const result = normaliseResult(value, ctx.tool);
    return result instanceof Promise ? result.catch(fail) : result;
  } catch (error) {
    return fail(error);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
