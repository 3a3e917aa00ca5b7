/**
 * What a parsed POST body holds, as far as the transport must know before
 * dispatching: whether it opens a session (`initialize`) and whether it
 * carries requests (a draining server still takes bodies of only responses
 * and notifications, so running calls can finish).
 */
import { classify } from '../../engine/jsonrpc.js';

/**
 * A single `initialize` request (never one inside a batch: the dispatcher refuses that).
 *
 * @example
 * ```ts
 * isInitialize({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }); // true
 * ```
 */
export function isInitialize(message: unknown): boolean {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { method?: unknown }).method === 'initialize' &&
    'id' in message
  );
}

/**
 * Whether a POST body holds at least one request (as opposed to only responses and notifications).
 *
 * @example
 * ```ts
 * carriesRequest([{ jsonrpc: '2.0', id: 's-1', result: {} }]); // false
 * ```
 */
export function carriesRequest(message: unknown): boolean {
  return Array.isArray(message) ? message.some((m) => classify(m) === 'request') : classify(message) === 'request';
}
