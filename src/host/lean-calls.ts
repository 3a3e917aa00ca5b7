/**
 * A lean `tools/call` path for an initialised stdio upstream, either era.
 *
 * The SDK client stays the connection's owner (handshake, lists, server→client
 * requests, notifications, close); only `tools/call` skips its request machinery:
 * the request is written with the transport's own `send`, and its response is
 * taken off the transport by id before the SDK sees it. Measured in the gateway,
 * the SDK's per-call work (request bookkeeping, schema codecs, result validation
 * with zod, output-validator lookup) was about a quarter of the gateway's CPU per
 * proxied call.
 *
 * Behaviour matches the SDK's (`Protocol.request`): progress tokens are the
 * request id and progress resets the timeout; an abort or a timeout sends
 * `notifications/cancelled` and rejects (timeouts with `SdkError` RequestTimeout);
 * on 2026-07-28 every request and notification carries the `_meta` envelope, and a
 * result must name its `resultType` (`input_required` goes back to the SDK client,
 * whose auto-fulfilment answers the questions and retries);
 * a JSON-RPC error rejects with `ProtocolError`; a closed transport rejects every
 * call in flight with `SdkError` ConnectionClosed; a malformed result with
 * `SdkError` InvalidResult. So `classifyFailure` sorts them exactly as before.
 */

import {
  type JSONRPCMessage,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type Transport,
} from '@modelcontextprotocol/client';
import type { CallToolResult } from '../tool/types.js';
import { isRecord } from '../util/is-record.js';
import type { AbortHook } from './types.js';

/**
 * The lean path's request ids: far above the SDK client's counter (which starts at
 * 0 on the same connection), so a response is the lean path's by its id alone.
 * Numbers, not strings: every server handles numeric ids.
 */
export const FIRST_ID = 2 ** 40;

/** What one call may be given (as `ServerConnection.callTool`). */
export interface LeanCallOptions {
  signal?: AbortSignal;
  /** Cancellation as a hook, used when `signal` is absent (see `AbortHook`). */
  onAbort?: AbortHook;
  timeoutMs?: number;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  meta?: Record<string, unknown>;
}

/** How the connection was negotiated, for what the wire needs. */
export interface LeanCallsSetup {
  /** 2026-07-28: the `_meta` envelope every request and notification carries (absent on 2025). */
  envelope?: Record<string, unknown>;
  /** Where a call goes whose answer only the SDK client can finish (`input_required`). */
  fallback: (name: string, args: Record<string, unknown>, options: LeanCallOptions) => Promise<CallToolResult>;
}

interface Pending {
  name: string;
  args: Record<string, unknown>;
  options: LeanCallOptions;
  resolve: (result: CallToolResult | Promise<CallToolResult>) => void;
  reject: (error: unknown) => void;
  onProgress: LeanCallOptions['onProgress'];
  timer: ReturnType<typeof setTimeout> | undefined;
  timeoutMs: number | undefined;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  /** Stops the `onAbort` hook's listener. */
  unhook: (() => void) | undefined;
}

/**
 * `tools/call` straight over an SDK client's connected transport.
 *
 * @example
 * ```ts
 * await client.connect(transport);
 * const calls = new LeanToolCalls(transport, { fallback: sdkCall }); // after connect: it wraps the SDK's handlers
 * const result = await calls.call('read_notes', {}, { timeoutMs: 30_000 });
 * ```
 */
export class LeanToolCalls {
  readonly #transport: Transport;
  readonly #envelope: Record<string, unknown> | undefined;
  readonly #fallback: LeanCallsSetup['fallback'];
  readonly #pending = new Map<number, Pending>();
  #nextId = FIRST_ID;
  #closed = false;

  constructor(transport: Transport, setup: LeanCallsSetup) {
    this.#transport = transport;
    this.#envelope = setup.envelope;
    this.#fallback = setup.fallback;
    const sdkMessage = transport.onmessage;
    const sdkClose = transport.onclose;
    transport.onmessage = (message, extra) => {
      if (!this.#take(message)) sdkMessage?.(message, extra);
    };
    transport.onclose = () => {
      this.#closeAll();
      sdkClose?.();
    };
  }

  /** Call a tool; settles like `Client.callTool` (see the file comment). */
  call(name: string, args: Record<string, unknown>, options: LeanCallOptions): Promise<CallToolResult> {
    if (this.#closed) return Promise.reject(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(asSdkError(signal.reason));
    const id = this.#nextId++;
    const params: Record<string, unknown> = { name, arguments: args };
    if (this.#envelope || options.meta || options.onProgress) {
      // As the SDK: the envelope first, the caller's keys over it, the progress token last.
      params._meta = {
        ...this.#envelope,
        ...options.meta,
        ...(options.onProgress ? { progressToken: id } : {}),
      };
    }
    return new Promise<CallToolResult>((resolve, reject) => {
      const pending: Pending = {
        name,
        args,
        options,
        resolve,
        reject,
        onProgress: options.onProgress,
        timer: undefined,
        timeoutMs: options.timeoutMs,
        signal,
        onAbort: undefined,
        unhook: undefined,
      };
      this.#pending.set(id, pending);
      if (signal) {
        pending.onAbort = () => this.#cancel(id, signal.reason);
        signal.addEventListener('abort', pending.onAbort, { once: true });
      }
      this.#arm(id, pending);
      this.#transport.send({ jsonrpc: '2.0', id, method: 'tools/call', params } as JSONRPCMessage).catch((error) => {
        if (this.#settle(id)) reject(error);
      });
      // After the request went out: a hook of a call already cancelled runs at once, and the
      // server must see the request before its notifications/cancelled.
      if (!signal && options.onAbort && this.#pending.has(id)) {
        pending.unhook = options.onAbort((reason) => this.#cancel(id, reason));
      }
    });
  }

  /** A message for a call of this path: handled here (true), or the SDK's (false). */
  #take(message: JSONRPCMessage): boolean {
    const m = message as {
      id?: unknown;
      method?: unknown;
      result?: unknown;
      error?: { code: number; message: string; data?: unknown };
      params?: { progressToken?: unknown; progress?: number; total?: number; message?: string };
    };
    if (m.method === undefined) {
      if (typeof m.id !== 'number' || m.id < FIRST_ID) return false;
      const pending = this.#settle(m.id);
      // Late answers (after a timeout or a cancel) are this path's too: the SDK does not know the id.
      if (!pending) return true;
      if (m.error !== undefined) {
        pending.reject(ProtocolError.fromError(m.error.code, m.error.message, m.error.data));
        return true;
      }
      this.#complete(pending, m.result);
      return true;
    }
    if (m.method === 'notifications/progress' && m.id === undefined) {
      const token = m.params?.progressToken;
      if (typeof token !== 'number' || token < FIRST_ID) return false;
      const pending = this.#pending.get(token);
      if (pending?.onProgress && typeof m.params?.progress === 'number') {
        this.#arm(token, pending); // as the SDK's resetTimeoutOnProgress
        const { progress, total, message } = m.params;
        pending.onProgress({
          progress,
          ...(total !== undefined ? { total } : {}),
          ...(message !== undefined ? { message } : {}),
        });
      }
      return true;
    }
    return false;
  }

  #complete(pending: Pending, raw: unknown): void {
    let result = raw;
    if (this.#envelope) {
      // 2026-07-28: resultType is required; only `complete` is a result (as the SDK's codec).
      const type = isRecord(raw) ? raw.resultType : undefined;
      if (type === 'input_required') {
        pending.resolve(this.#fallback(pending.name, pending.args, pending.options));
        return;
      }
      if (type !== 'complete') {
        const why =
          type === undefined ? 'missing required resultType' : `unsupported resultType ${JSON.stringify(type)}`;
        pending.reject(new SdkError(SdkErrorCode.InvalidResult, `Invalid result for tools/call: ${why}`));
        return;
      }
      const { resultType: _type, ...rest } = raw as Record<string, unknown>;
      result = rest;
    }
    const invalid = invalidResult(result);
    if (invalid) pending.reject(new SdkError(SdkErrorCode.InvalidResult, `Invalid result for tools/call: ${invalid}`));
    else pending.resolve(withContent(result as CallToolResult));
  }

  /** (Re)start a call's timer. */
  #arm(id: number, pending: Pending): void {
    if (pending.timeoutMs === undefined) return;
    clearTimeout(pending.timer);
    const timeout = pending.timeoutMs;
    pending.timer = setTimeout(
      () => this.#cancel(id, new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout })),
      timeout,
    );
  }

  /** Give up on a call: tell the server (as the SDK does) and reject. */
  #cancel(id: number, reason: unknown): void {
    const pending = this.#settle(id);
    if (!pending) return;
    this.#transport
      .send({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: {
          requestId: id,
          reason: String(reason),
          ...(this.#envelope ? { _meta: this.#envelope } : {}),
        },
      } as JSONRPCMessage)
      .catch(() => {});
    pending.reject(asSdkError(reason));
  }

  /** Forget a call (timer, abort listener); the entry if it was still open. */
  #settle(id: number): Pending | undefined {
    const pending = this.#pending.get(id);
    if (!pending) return undefined;
    this.#pending.delete(id);
    clearTimeout(pending.timer);
    if (pending.onAbort) pending.signal?.removeEventListener('abort', pending.onAbort);
    pending.unhook?.();
    return pending;
  }

  #closeAll(): void {
    this.#closed = true;
    const error = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    for (const id of [...this.#pending.keys()]) this.#settle(id)?.reject(error);
  }
}

/** As the SDK: a reason that is not an SdkError becomes one (RequestTimeout, its text). */
function asSdkError(reason: unknown): SdkError {
  return reason instanceof SdkError ? reason : new SdkError(SdkErrorCode.RequestTimeout, String(reason));
}

/**
 * The shape checks a gateway needs before it passes a result on: an object whose
 * `content` (when present) is a list of typed blocks and whose `isError` is a boolean.
 * The downstream client validates the blocks themselves against its own schema.
 */
function invalidResult(result: unknown): string | undefined {
  if (!isRecord(result)) return 'not an object';
  const { content, isError } = result as { content?: unknown; isError?: unknown };
  if (content !== undefined) {
    if (!Array.isArray(content)) return 'content is not an array';
    for (const block of content) {
      if (typeof block !== 'object' || block === null || typeof (block as { type?: unknown }).type !== 'string') {
        return 'a content block has no type';
      }
    }
  }
  if (isError !== undefined && typeof isError !== 'boolean') return 'isError is not a boolean';
  return undefined;
}

/** `content` defaults to `[]`, as the SDK's result schema has it. */
function withContent(result: CallToolResult): CallToolResult {
  return result.content === undefined ? { ...result, content: [] } : result;
}
