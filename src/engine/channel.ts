/**
 * The contract between the dispatcher and the transports. A transport turns
 * bytes into JSON-RPC messages and hands each one to `Dispatcher.handle` with a
 * `Channel`: where messages the server sends *about that request* go (progress,
 * logs, elicitation/sampling/roots requests). Server→client requests are
 * correlated through the `Peer` (one per stdio connection, one per HTTP
 * session, one per modern request), which owns the pending-request table, so a
 * client's response that arrives on another POST still finds its caller.
 */

import type { ToolSource } from '../pipeline/types.js';
import type { AuthInfo, HttpInfo } from '../tool/types.js';

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: { [key: string]: unknown };
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: { [key: string]: unknown };
}

export interface JsonRpcResult {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: { [key: string]: unknown };
}

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  /**
   * Absent when the request's id could not be read (parse error, invalid
   * request): MCP 2025-11-25 makes `id` optional here and its schemas reject
   * JSON-RPC's `null`. (Typed `| null` too, for errors built elsewhere.)
   */
  id?: JsonRpcId | null;
  error: { code: number; message: string; data?: unknown };
}

export type JsonRpcResponse = JsonRpcResult | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** Where the server writes messages related to one incoming request. */
export interface Channel {
  /**
   * Send a notification or a server→client request. For HTTP this upgrades the
   * POST's response to SSE on first use; for stdio it writes a line.
   */
  send(message: JsonRpcNotification | JsonRpcRequest): void;
  /** Whether `send` can still reach the client (false after a disconnect). */
  readonly open: boolean;
}

/** Per-request facts a transport knows and the pipeline exposes on `ctx`. */
export interface RequestInfo {
  auth?: AuthInfo;
  /**
   * The tools this caller may list and call, when an authorizer narrowed them
   * (src/auth: by the token's scopes). Default: all of the server's tools.
   */
  tools?: ToolSource;
  http?: HttpInfo;
  /** Aborted when the transport knows the client is gone (2026 era: disconnect = cancel). */
  signal?: AbortSignal;
  /**
   * The same event as `signal`, without building an AbortSignal per request
   * (the 2026-07-28 tools/call hot path listens here when a transport offers
   * it): calls `listener` once the client is gone; returns a function that
   * stops listening.
   */
  onGone?(listener: () => void): () => void;
}
