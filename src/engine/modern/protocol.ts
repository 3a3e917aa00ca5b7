/**
 * The 2026-07-28 protocol era in constants: the reserved `_meta` keys, the
 * versions, the error codes the spec reserves (-32020…-32099), and the HTTP
 * status a modern refusal travels with. Everything version-dependent in
 * src/engine/modern/ reads from here.
 */
import type { JsonRpcErrorResponse, JsonRpcResponse } from '../channel.js';

/** The modern (per-request `_meta`) revisions candor serves, newest first. */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;

export type ModernProtocolVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number];

/** Reserved `_meta` keys (basic/index, "_meta"). */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** Error codes the 2026-07-28 spec defines (basic/index, "Error Codes"). */
export const HEADER_MISMATCH = -32020;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/**
 * Whether a version string names the modern era. Revisions are ISO dates, so
 * anything from 2026-07-28 on is modern (also ones this server does not
 * support yet: those get -32022, not legacy handling).
 *
 * @example
 * ```ts
 * isModernVersion('2026-07-28'); // true
 * isModernVersion('2025-11-25'); // false
 * ```
 */
export function isModernVersion(version: string): boolean {
  return version >= MODERN_PROTOCOL_VERSIONS[MODERN_PROTOCOL_VERSIONS.length - 1]!;
}

/** Whether candor serves this modern version. */
export function isSupportedModernVersion(version: unknown): version is ModernProtocolVersion {
  return (MODERN_PROTOCOL_VERSIONS as readonly unknown[]).includes(version);
}

const STATUS = Symbol.for('candor.httpStatus');

/**
 * Attach the HTTP status a response must travel with (a symbol property:
 * invisible to JSON). Streamable HTTP (2026-07-28) answers envelope, header and
 * version refusals with 400 and an unknown method with 404, while other errors
 * (unknown tool, bad arguments) stay in-band on 200, so the status depends on
 * where the error came from, not on its code alone.
 *
 * @example
 * ```ts
 * const refused = withHttpStatus(errorResponse(1, HEADER_MISMATCH, 'Header mismatch: …'), 400);
 * httpStatusOf(refused); // 400
 * ```
 */
export function withHttpStatus<T extends JsonRpcResponse>(response: T, status: number): T {
  Object.defineProperty(response, STATUS, { value: status, enumerable: false });
  return response;
}

/**
 * The HTTP status for an answer of the dispatcher: the one attached with
 * {@link withHttpStatus}, else 200.
 *
 * @example
 * ```ts
 * res.writeHead(httpStatusOf(answer), { 'content-type': 'application/json' });
 * ```
 */
export function httpStatusOf(response: JsonRpcResponse | readonly JsonRpcResponse[] | undefined): number {
  if (response === undefined || Array.isArray(response)) return 200;
  const status = (response as unknown as Record<symbol, unknown>)[STATUS];
  return typeof status === 'number' ? status : 200;
}

/** A JSON-RPC error with the status it must travel with over HTTP. */
export function refusal(
  id: string | number | null,
  status: number,
  code: number,
  message: string,
  data?: unknown,
): JsonRpcErrorResponse {
  const error: JsonRpcErrorResponse['error'] = { code, message };
  if (data !== undefined) error.data = data;
  // No readable id: leave it out (2026-07-28 JSONRPCErrorResponse has an optional id, never null).
  const response: JsonRpcErrorResponse = id === null ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error };
  return withHttpStatus(response, status);
}
