/**
 * Sorting a failed call: did the server answer (a JSON-RPC error: the call is
 * over), or did the transport fail (the request may or may not have run)?
 * Only the second may be retried, and only for calls that are safe to repeat.
 */
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';

/** What kind of failure an exception from `callTool` is. */
export type FailureKind = 'protocol' | 'transport' | 'timeout' | 'local';

/**
 * Classify an exception thrown by the SDK client's `callTool`.
 *
 * @example
 * ```ts
 * try { await client.callTool(…) } catch (error) { if (classifyFailure(error) === 'transport') retry(); }
 * ```
 */
export function classifyFailure(error: unknown): FailureKind {
  if (error instanceof ProtocolError) return 'protocol';
  if (error instanceof SdkError) {
    switch (error.code) {
      case SdkErrorCode.RequestTimeout:
        return 'timeout';
      case SdkErrorCode.ConnectionClosed:
      case SdkErrorCode.SendFailed:
      case SdkErrorCode.NotConnected:
      case SdkErrorCode.ClientHttpFailedToOpenStream:
        return 'transport';
      case SdkErrorCode.ClientHttpUnexpectedContent:
      case SdkErrorCode.ClientHttpNotImplemented: {
        // A 5xx (or an HTML error page from a proxy) says nothing about whether the call ran.
        return 'transport';
      }
      default: {
        const status = (error as { status?: unknown }).status;
        if (typeof status === 'number' && status >= 500) return 'transport';
        return 'local';
      }
    }
  }
  if ((error as { code?: unknown })?.code === 'not_connected') return 'transport';
  // fetch's TypeError ("fetch failed", "other side closed"), ECONNRESET, EPIPE and friends.
  if (error instanceof TypeError || typeof (error as { code?: unknown })?.code === 'string') return 'transport';
  return 'local';
}

/** Retry settings for transport failures. */
export interface RetryOptions {
  /** Total attempts including the first (default 3). */
  attempts?: number;
  /** First backoff delay (default 100 ms); doubles each time, with jitter. */
  baseDelayMs?: number;
  /** Cap on one delay (default 2 s). */
  maxDelayMs?: number;
}

/**
 * The delay before retry number `retry` (1-based): exponential, capped, with
 * "equal jitter" so that retries from many calls do not line up.
 *
 * @example
 * ```ts
 * backoffDelay(1, { baseDelayMs: 100 }); // between 50 and 100
 * ```
 */
export function backoffDelay(retry: number, options: RetryOptions = {}): number {
  const base = options.baseDelayMs ?? 100;
  const cap = options.maxDelayMs ?? 2_000;
  const ceiling = Math.min(cap, base * 2 ** (retry - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** Wait, unless the signal aborts first (then reject with its reason). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
