/**
 * What a modern method handler knows about the request it answers, and the
 * one way it refuses with an HTTP status other than 200.
 */
import { ProtocolError } from '../../errors.js';
import type { Channel, JsonRpcId, RequestInfo } from '../channel.js';
import type { Engine, Result } from '../engine.js';
import type { Peer } from '../peer.js';
import type { CacheHints } from './cache-hints.js';
import type { Envelope } from './envelope.js';
import type { HeaderMap } from './header-value.js';
import type { RequestStateSealer } from './request-state.js';
import type { SubscriptionHub } from './subscriptions.js';

/** State shared by every modern request of one dispatcher (built once). */
export interface ModernShared {
  readonly sealer: RequestStateSealer;
  readonly cache: CacheHints;
  readonly subscriptions: SubscriptionHub;
  /** The server speaks only 2026-07-28 (`modern: { only: true }`): discover lists no 2025 version. */
  readonly modernOnly: boolean;
}

/** One modern request as a method handler sees it. */
export interface ModernScope {
  readonly id: JsonRpcId;
  readonly method: string;
  readonly envelope: Envelope;
  /** Where notifications about this request go (HTTP: its SSE stream; stdio: stdout). */
  readonly channel: Channel;
  readonly info: RequestInfo | undefined;
  /** The HTTP request headers; undefined on stdio. */
  readonly headers: HeaderMap | undefined;
  /** The stdio connection's peer, so `notifications/cancelled` finds the call; undefined over HTTP. */
  readonly peer: Peer | undefined;
  readonly engine: Engine;
  readonly shared: ModernShared;
}

/** A modern method handler: the result, or undefined when the request gets no response (cancelled). */
export type ModernHandler = (
  params: { [key: string]: unknown },
  scope: ModernScope,
) => Result | undefined | Promise<Result | undefined>;

/**
 * A JSON-RPC error that must travel with a specific HTTP status (e.g. -32020
 * with 400 for an `Mcp-Param-*` mismatch found once the tool is known).
 *
 * @example
 * ```ts
 * throw refuseWith(400, HEADER_MISMATCH, 'Header mismatch: Mcp-Param-Region is missing.');
 * ```
 */
export function refuseWith(status: number, code: number, message: string, data?: unknown): ProtocolError {
  return Object.assign(new ProtocolError(code, message, data), { httpStatus: status });
}

/** The status attached by {@link refuseWith}, if any. */
export function statusOfError(error: unknown): number | undefined {
  const status = (error as { httpStatus?: unknown } | null)?.httpStatus;
  return typeof status === 'number' ? status : undefined;
}
