/**
 * The checks a POST passes before its message is routed (spec 2025-11-25,
 * transports): Accept (406), Content-Type (415), body size (413), JSON (400,
 * -32700), a shutting-down server (503 for requests), batch size (400).
 */
import { INVALID_REQUEST, PARSE_ERROR } from '../../engine/jsonrpc.js';
import { ABORTED, type Exchange, TOO_LARGE } from './exchange.js';
import { acceptable, isJsonContentType } from './media-types.js';
import { carriesRequest } from './message-kinds.js';
import { quoteHeader, refuse, refuseClosing, TRANSPORT_ERROR } from './responses.js';

/** Limits a POST body is read under. */
export interface PostBodyLimits {
  bodyLimit: number;
  maxBatch: number | undefined;
  /** The server is draining: only responses and notifications still pass. */
  closing: boolean;
}

/**
 * The POST's JSON-RPC message and whether the client takes an SSE answer, or
 * undefined once the request was refused (the answer is already written).
 *
 * @example
 * ```ts
 * const read = await readPostMessage(exchange, { bodyLimit: 4 * 1024 * 1024, maxBatch: undefined, closing: false });
 * if (read === undefined) return;
 * ```
 */
export async function readPostMessage(
  exchange: Exchange,
  limits: PostBodyLimits,
): Promise<{ message: unknown; canStream: boolean } | undefined> {
  const accepts = acceptable(exchange.header('accept'));
  if (!accepts.json && !accepts.sse) {
    refuse(
      exchange,
      406,
      TRANSPORT_ERROR,
      'Not acceptable: the Accept header must allow application/json and text/event-stream.',
    );
    return undefined;
  }
  if (!isJsonContentType(exchange.header('content-type'))) {
    refuse(
      exchange,
      415,
      TRANSPORT_ERROR,
      `Unsupported media type ${quoteHeader(exchange.header('content-type'))}: send JSON-RPC as application/json.`,
    );
    return undefined;
  }
  const body = await exchange.readBody(limits.bodyLimit);
  if (body === ABORTED) return undefined;
  if (body === TOO_LARGE) {
    refuse(exchange, 413, TRANSPORT_ERROR, `Payload too large: the limit is ${limits.bodyLimit} bytes.`, [
      'connection',
      'close',
    ]);
    return undefined;
  }
  let message: unknown;
  if (typeof body === 'string') {
    try {
      message = JSON.parse(body);
    } catch {
      refuse(exchange, 400, PARSE_ERROR, 'Parse error: the body is not valid JSON.');
      return undefined;
    }
  } else {
    message = body.value;
  }
  if (limits.closing && carriesRequest(message)) {
    refuseClosing(exchange);
    return undefined;
  }
  if (limits.maxBatch !== undefined && Array.isArray(message) && message.length > limits.maxBatch) {
    refuse(
      exchange,
      400,
      INVALID_REQUEST,
      `Invalid request: the batch has ${message.length} messages; the limit is ${limits.maxBatch}.`,
    );
    return undefined;
  }
  return { message, canStream: accepts.sse };
}
