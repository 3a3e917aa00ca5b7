/**
 * The HTTP answers the Streamable HTTP core gives, as flat header lists and
 * JSON-RPC error bodies. HTTP-level refusals carry a JSON-RPC error without
 * an id (spec, transports: "The HTTP response body MAY comprise a JSON-RPC
 * error response that has no id"); the codes follow the official SDK so
 * clients see familiar values: -32000 for transport refusals, -32001 for an
 * unknown session, -32700 for unparsable JSON, -32600 for an invalid request.
 */
import { errorResponse, serializeMessage } from '../../engine/jsonrpc.js';
import type { Exchange } from './exchange.js';

/** Transport-level refusal (JSON-RPC reserves -32000…-32099 for implementations). */
export const TRANSPORT_ERROR = -32000;
/** The session named by `Mcp-Session-Id` does not exist (the SDK's code for it). */
export const SESSION_NOT_FOUND = -32001;

export const JSON_HEADERS: readonly string[] = Object.freeze(['content-type', 'application/json']);

/** Headers of an SSE response (no caching, no proxy buffering). */
export function sseHeaders(sessionId: string | undefined): string[] {
  const headers = [
    'content-type',
    'text/event-stream',
    'cache-control',
    'no-cache, no-transform',
    'x-accel-buffering',
    'no',
  ];
  if (sessionId !== undefined) headers.push('mcp-session-id', sessionId);
  return headers;
}

/**
 * A JSON-RPC error body without an id.
 *
 * @example
 * ```ts
 * errorBody(-32001, 'Session not found.'); // '{"jsonrpc":"2.0","error":{"code":-32001,…}}'
 * ```
 */
export function errorBody(code: number, message: string): string {
  return serializeMessage(errorResponse(null, code, message));
}

/**
 * Answer with an HTTP error status and a JSON-RPC error body.
 *
 * @example
 * ```ts
 * refuse(exchange, 405, TRANSPORT_ERROR, 'Method not allowed.', ['allow', 'GET, POST, DELETE']);
 * ```
 */
export function refuse(
  exchange: Exchange,
  status: number,
  code: number,
  message: string,
  headers?: readonly string[],
): void {
  exchange.reply(status, headers === undefined ? JSON_HEADERS : JSON_HEADERS.concat(headers), errorBody(code, message));
}

/** 503 while the handler drains for shutdown; the client should go elsewhere or come back later. */
export function refuseClosing(exchange: Exchange): void {
  refuse(exchange, 503, TRANSPORT_ERROR, 'Service unavailable: the server is shutting down.', [
    'connection',
    'close',
    'retry-after',
    '5',
  ]);
}

/**
 * Quote a header value for an error message: headers are attacker-controlled,
 * so the echo is short and printable.
 */
export function quoteHeader(value: string | undefined): string {
  if (value === undefined) return '(missing)';
  const printable = value.replace(/[^\x20-\x7e]/g, '?');
  return JSON.stringify(printable.length > 100 ? `${printable.slice(0, 100)}…` : printable);
}

/** The `Allow` header of an endpoint: GET only with a standalone stream, DELETE only with sessions. */
export function allowedMethods(endpoint: { stateful: boolean; getStream: boolean }): string {
  if (!endpoint.stateful) return 'POST, OPTIONS';
  return endpoint.getStream ? 'GET, POST, DELETE, OPTIONS' : 'POST, DELETE, OPTIONS';
}

/**
 * Refuse a GET or DELETE the endpoint does not serve (405 with `Allow`): it
 * has no GET stream, or no sessions (stateless, or a server that speaks only
 * 2026-07-28, whose Streamable HTTP has neither).
 *
 * @example
 * ```ts
 * refuseUnserved(exchange, 'GET', { modernOnly: true, allow: 'POST, OPTIONS' });
 * ```
 */
export function refuseUnserved(
  exchange: Exchange,
  method: 'GET' | 'DELETE',
  endpoint: { modernOnly: boolean; allow: string },
): void {
  const why = endpoint.modernOnly
    ? method === 'GET'
      ? 'this server speaks only 2026-07-28, which has no GET stream (change notifications come through subscriptions/listen)'
      : 'this server speaks only 2026-07-28, which has no sessions to end'
    : method === 'GET'
      ? 'this server has no GET stream'
      : 'this server is stateless and has no sessions';
  refuse(exchange, 405, TRANSPORT_ERROR, `Method not allowed: ${why}.`, ['allow', endpoint.allow]);
}
