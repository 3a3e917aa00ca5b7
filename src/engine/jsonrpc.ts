/**
 * JSON-RPC 2.0 plumbing: error codes, response builders and the cheap shape
 * checks the dispatcher runs instead of schema parsing (the hot path must not
 * pay for zod; ARCHITECTURE.md, "The engine").
 */
import type { JsonRpcErrorResponse, JsonRpcId, JsonRpcMessage, JsonRpcResult } from './channel.js';

/** JSON-RPC 2.0 error codes (spec section 5.1). */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** Implementation-defined server error used while the server shuts down (JSON-RPC reserves -32000…-32099). */
export const SERVER_SHUTTING_DOWN = -32000;

/**
 * The error answer to a body that is not JSON. Transports call this when
 * `JSON.parse` fails (it has no id, because none could be read).
 *
 * @example
 * ```ts
 * let message: unknown;
 * try { message = JSON.parse(line); } catch { write(parseError()); return; }
 * ```
 */
export function parseError(detail?: string): JsonRpcErrorResponse {
  return errorResponse(
    null,
    PARSE_ERROR,
    detail ? `Parse error: ${detail}` : 'Parse error: the message is not valid JSON.',
  );
}

/**
 * A JSON-RPC error response.
 *
 * @example
 * ```ts
 * errorResponse(7, METHOD_NOT_FOUND, 'Method not found: tools/frobnicate');
 * ```
 */
export function errorResponse(
  id: JsonRpcId | null,
  code: number,
  message: string,
  data?: unknown,
): JsonRpcErrorResponse {
  const error: JsonRpcErrorResponse['error'] = { code, message };
  if (data !== undefined) error.data = data;
  // Unknown id: omitted, not null (MCP 2025-11-25 schema: `id?: RequestId`; clients' schemas reject null).
  return id === null ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error };
}

/** A JSON-RPC success response. */
export function resultResponse(id: JsonRpcId, result: { [key: string]: unknown }): JsonRpcResult {
  return { jsonrpc: '2.0', id, result };
}

/** What a parsed JSON value is, as far as the dispatcher is concerned. */
export type MessageKind = 'request' | 'notification' | 'response' | 'invalid';

/**
 * Classify one parsed message (not a batch) with cheap property checks. Used by
 * the dispatcher, and by transports that must know whether a POST carries
 * requests (answered with a body) or only notifications/responses (202).
 *
 * @example
 * ```ts
 * classify({ jsonrpc: '2.0', id: 1, method: 'ping' }); // 'request'
 * classify({ jsonrpc: '2.0', method: 'notifications/initialized' }); // 'notification'
 * ```
 */
export function classify(message: unknown): MessageKind {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return 'invalid';
  const m = message as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return 'invalid';
  if (typeof m.method === 'string') {
    if (m.params !== undefined && (typeof m.params !== 'object' || m.params === null || Array.isArray(m.params))) {
      // A request with bad params is still a request: it gets an answer (-32602).
      return 'id' in m && isId(m.id) ? 'request' : 'id' in m ? 'invalid' : 'notification';
    }
    if (!('id' in m)) return 'notification';
    return isId(m.id) ? 'request' : 'invalid';
  }
  if ('method' in m) return 'invalid';
  // An error response may lack an id (or carry null): never answer it, or two peers could ping-pong errors.
  if ('result' in m !== 'error' in m && (isId(m.id) || ('error' in m && (m.id === null || !('id' in m))))) {
    if ('result' in m) return typeof m.result === 'object' && m.result !== null ? 'response' : 'invalid';
    const e = m.error as Record<string, unknown> | null;
    return typeof e === 'object' && e !== null && typeof e.code === 'number' ? 'response' : 'invalid';
  }
  return 'invalid';
}

/** A JSON-RPC id as MCP allows it: a string or an integer (never null; MCP RequestId is string | integer). */
export function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

/** The id of a message that failed validation, when one can be read (else null, per JSON-RPC). */
export function salvageId(message: unknown): JsonRpcId | null {
  if (typeof message === 'object' && message !== null && !Array.isArray(message)) {
    const id = (message as { id?: unknown }).id;
    if (isId(id)) return id;
  }
  return null;
}

/**
 * A result that is already JSON text (the registry's cached `tools/list`
 * page). {@link serializeMessage} splices it in without re-serialising;
 * `JSON.stringify` still works (through `toJSON`), only slower.
 */
export class RawJson {
  readonly json: string;

  constructor(json: string) {
    this.json = json;
  }

  toJSON(): unknown {
    return JSON.parse(this.json);
  }

  /** The JSON as UTF-8, encoded once per distinct text (a cached page is the same string until it changes). */
  get bytes(): Uint8Array {
    return utf8Of(this.json);
  }
}

/**
 * An outgoing message as written: text, or, for a large cached result, the
 * text around the result and the result's cached UTF-8 bytes (written as they
 * are, never copied into one string and encoded again per request).
 */
export type SerializedMessage = string | readonly [prefix: string, result: Uint8Array, suffix: string];

/** Results from this many characters on are written from cached bytes (10,000 tools are 3.6 MB). */
const BYTES_FROM = 64 * 1024;
const utf8Cache = new Map<string, Uint8Array>();
/** TextEncoder rather than Buffer: the engine runs on fetch runtimes too. */
const encoder = new TextEncoder();
const UTF8_CACHE_SIZE = 8;

function utf8Of(json: string): Uint8Array {
  let bytes = utf8Cache.get(json);
  if (bytes === undefined) {
    bytes = encoder.encode(json);
    if (json.length >= BYTES_FROM) {
      // A few live pages (one per list, era and cache-hint variant); the oldest goes first.
      if (utf8Cache.size >= UTF8_CACHE_SIZE) utf8Cache.delete(utf8Cache.keys().next().value!);
      utf8Cache.set(json, bytes);
    }
  }
  return bytes;
}

/**
 * {@link serializeMessage}, but a large cached result comes back as parts
 * around its cached bytes. Transports that can write several chunks use this
 * for answers; `serializeMessage` stays right everywhere else.
 *
 * @example
 * ```ts
 * const parts = serializeMessageParts(answer);
 * if (typeof parts === 'string') socket.end(parts); else for (const p of parts) socket.write(p);
 * ```
 */
export function serializeMessageParts(message: JsonRpcMessage | readonly JsonRpcMessage[]): SerializedMessage {
  if (!Array.isArray(message)) {
    const m = message as JsonRpcMessage;
    const result = 'result' in m ? (m.result as unknown) : undefined;
    if (result instanceof RawJson && result.json.length >= BYTES_FROM) {
      return [`{"jsonrpc":"2.0","id":${JSON.stringify((m as JsonRpcResult).id)},"result":`, result.bytes, '}'];
    }
  }
  return serializeMessage(message);
}

/**
 * Serialise an outgoing message (or batch). Transports should use this rather
 * than `JSON.stringify` so cached results are written as they are.
 *
 * @example
 * ```ts
 * stdout.write(`${serializeMessage(answer)}\n`);
 * ```
 */
export function serializeMessage(message: JsonRpcMessage | readonly JsonRpcMessage[]): string {
  if (Array.isArray(message)) return `[${message.map((m) => serializeMessage(m)).join(',')}]`;
  const m = message as JsonRpcMessage;
  if ('result' in m && (m.result as unknown) instanceof RawJson) {
    return `{"jsonrpc":"2.0","id":${JSON.stringify(m.id)},"result":${(m.result as unknown as RawJson).json}}`;
  }
  return JSON.stringify(m);
}
