/** Cheap parameter checks for method handlers (no schema parsing on the hot path). */
import { ProtocolError } from '../../errors.js';
import { INVALID_PARAMS } from '../jsonrpc.js';

/** A -32602 error whose message says which parameter is wrong and how. */
export function invalidParams(message: string): ProtocolError {
  return new ProtocolError(INVALID_PARAMS, `Invalid params: ${message}`);
}

/** A required string parameter. */
export function requireString(params: { [key: string]: unknown }, key: string): string {
  const value = params[key];
  if (typeof value !== 'string') throw invalidParams(`"${key}" must be a string.`);
  return value;
}

/** An optional pagination cursor. */
export function optionalCursor(params: { [key: string]: unknown }): string | undefined {
  const cursor = params.cursor;
  if (cursor === undefined || cursor === null) return undefined;
  if (typeof cursor !== 'string') throw invalidParams('"cursor" must be a string.');
  return cursor;
}

/** An optional object parameter. */
export function optionalObject(
  params: { [key: string]: unknown },
  key: string,
): { [key: string]: unknown } | undefined {
  const value = params[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidParams(`"${key}" must be an object.`);
  return value as { [key: string]: unknown };
}
