/**
 * The checks a POST passes before its message is routed (spec 2025-11-25,
 * transports): Accept (406), Content-Type (415), body size (413), JSON (400,
 * -32700), a shutting-down server (503 for requests), batch size (400).
 */
import { INVALID_REQUEST, PARSE_ERROR } from '../../engine/jsonrpc.js';
import { ABORTED, type Exchange, TOO_LARGE } from './exchange.js';
import { type Acceptable, isJsonContentType } from './media-types.js';
import { carriesRequest } from './message-kinds.js';
import { quoteHeader, refuse, refuseClosing, TRANSPORT_ERROR } from './responses.js';

/** What {@link readPostMessage} gives back once it has answered the request with a refusal. */
export const REFUSED: unique symbol = Symbol('refused');

/** Limits a POST body is read under (one object per transport: nothing is allocated per request). */
export interface PostBodyLimits {
  readonly bodyLimit: number;
  readonly maxBatch: number | undefined;
  /** The server is draining: only responses and notifications still pass. */
  readonly closing: boolean;
}

/**
 * The POST's JSON-RPC message, or {@link REFUSED} once the request was refused (the
 * answer is already written). `accepts` is the request's parsed Accept header.
 *
 * @example
 * ```ts
 * const accepts = acceptable(exchange.header('accept'));
 * const message = await readPostMessage(exchange, accepts, limits);
 * if (message === REFUSED) return;
 * ```
 */
export async function readPostMessage(
  exchange: Exchange,
  accepts: Acceptable,
  limits: PostBodyLimits,
): Promise<unknown> {
  if (!accepts.json && !accepts.sse) {
    refuse(
      exchange,
      406,
      TRANSPORT_ERROR,
      'Not acceptable: the Accept header must allow application/json and text/event-stream.',
    );
    return REFUSED;
  }
  if (!isJsonContentType(exchange.header('content-type'))) {
    refuse(
      exchange,
      415,
      TRANSPORT_ERROR,
      `Unsupported media type ${quoteHeader(exchange.header('content-type'))}: send JSON-RPC as application/json.`,
    );
    return REFUSED;
  }
  const body = await exchange.readBody(limits.bodyLimit);
  if (body === ABORTED) return REFUSED;
  if (body === TOO_LARGE) {
    refuse(exchange, 413, TRANSPORT_ERROR, `Payload too large: the limit is ${limits.bodyLimit} bytes.`, [
      'connection',
      'close',
    ]);
    return REFUSED;
  }
  let message: unknown;
  if (typeof body === 'string') {
    try {
      message = JSON.parse(body);
    } catch {
      refuse(exchange, 400, PARSE_ERROR, 'Parse error: the body is not valid JSON.');
      return REFUSED;
    }
  } else {
    message = body.value;
  }
  if (limits.closing && carriesRequest(message)) {
    refuseClosing(exchange);
    return REFUSED;
  }
  if (limits.maxBatch !== undefined && Array.isArray(message) && message.length > limits.maxBatch) {
    refuse(
      exchange,
      400,
      INVALID_REQUEST,
      `Invalid request: the batch has ${message.length} messages; the limit is ${limits.maxBatch}.`,
    );
    return REFUSED;
  }
  return message;
}
