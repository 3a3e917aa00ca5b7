/**
 * One HTTP request and its response, as the Streamable HTTP core sees it. Two
 * adapters implement it: node:http (`node-exchange.ts`) and the fetch API
 * (`fetch-exchange.ts`), so both handlers share every rule.
 */

import type { SerializedMessage } from '../../engine/jsonrpc.js';
import type { ToolSource } from '../../pipeline/types.js';
import type { AuthInfo, HttpInfo } from '../../tool/types.js';
import type { SseConnection } from './sse-stream.js';

/** The body was longer than the limit (answered 413). */
export const TOO_LARGE: unique symbol = Symbol('too large');
/** The client went away while sending the body (nothing to answer). */
export const ABORTED: unique symbol = Symbol('aborted');

/** A body a framework already parsed (e.g. Express `req.body` after `express.json()`). */
export class ParsedBody {
  readonly value: unknown;

  constructor(value: unknown) {
    this.value = value;
  }
}

/** What reading a body gives: its text, an already parsed value, or why there is none. */
export type Body = string | ParsedBody | typeof TOO_LARGE | typeof ABORTED;

/**
 * `ctx.http` for calls that arrived over Streamable HTTP: the request facts,
 * plus `closeStream()` (SEP-1699).
 *
 * @example
 * ```ts
 * handler: async (args, ctx) => {
 *   // Long job: let the client poll instead of holding the connection open.
 *   (ctx.http as HttpRequestInfo | undefined)?.closeStream();
 *   return await longJob(args);
 * }
 * ```
 */
export interface HttpRequestInfo extends HttpInfo {
  /**
   * End this request's SSE connection now while the call goes on; the client
   * reconnects with `Last-Event-ID` and gets the rest, result included
   * (SEP-1699). Returns false (and keeps the connection) when the client could
   * not resume: no session, no event store, or a client that cannot stream.
   */
  closeStream(): boolean;
}

/** What the core lets `HttpRequestInfo.closeStream` reach (the POST's channel). */
export interface StreamCloser {
  closeStream(): boolean;
}

/** One request/response pair. Header names are lower case. */
export interface Exchange {
  readonly method: string;
  /** A request header (lower-case name); repeated headers joined with ", ". */
  header(name: string): string | undefined;
  /** The local address the connection arrived on, when known (DNS rebinding checks). */
  readonly localAddress: string | undefined;
  /** The facts `ctx.http` shows, built on first use. */
  readonly http: HttpRequestInfo;
  /**
   * Authentication a framework attached (Express `req.auth`, or given to the
   * fetch handler); with an authorizer, the core sets the verified principal.
   */
  auth: AuthInfo | undefined;
  /** The tools the caller may see, set by the core from the authorizer's admission. */
  tools?: ToolSource;
  /** Headers added to every response (CORS), set by the core. */
  extraHeaders: readonly string[] | undefined;
  /** Set by the core to the POST's channel so `closeStream()` reaches it. */
  closer: StreamCloser | undefined;
  /** Whether the client is known to be gone. */
  readonly gone: boolean;
  /**
   * Call `listener` if the client goes away before the response is complete
   * (2026-07-28: closing the stream cancels the request). Returns a function
   * that stops listening.
   */
  onGone(listener: () => void): () => void;
  /** Whether a response was started. */
  readonly responded: boolean;
  /** Read the whole body, up to `limit` bytes. Never rejects. */
  readBody(limit: number): Promise<Body>;
  /** Answer in full. `headers` is a flat list: name, value, name, value… */
  reply(status: number, headers: readonly string[], body: SerializedMessage | undefined): void;
  /** Start a 200 `text/event-stream` response. */
  stream(headers: readonly string[]): SseConnection;
}
