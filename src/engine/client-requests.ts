/**
 * Server→client requests (`elicitation/create`, `sampling/createMessage`,
 * `roots/list`) made while a tool call runs. The request goes out on the call's
 * channel (so Streamable HTTP puts it on that POST's SSE stream, related to the
 * call); the client's answer may come back on any message of the same peer
 * (another HTTP POST), so the table of pending requests is keyed by an id the
 * server chose, unique for the dispatcher's lifetime.
 */
import { ToolError } from '../errors.js';
import type { Channel, JsonRpcResponse } from './channel.js';
import type { Peer } from './peer.js';

interface Pending {
  peer: Peer;
  method: string;
  resolve(result: { [key: string]: unknown }): void;
  reject(error: unknown): void;
}

/** Options of one server→client request. */
export interface ClientRequestOptions {
  /** Aborts the request (the tool call was cancelled or timed out); the client is told with notifications/cancelled. */
  signal?: AbortSignal;
}

/** The error a client answered a server→client request with. */
export class ClientRequestError extends ToolError {
  readonly rpcCode: number;

  constructor(method: string, code: number, message: string) {
    super(`The client refused ${method}: ${message} (JSON-RPC error ${code}).`, { code: 'client_request_failed' });
    this.rpcCode = code;
  }
}

/** The dispatcher-wide table of server→client requests awaiting an answer. */
export class ClientRequests {
  readonly #pending = new Map<string, Pending>();
  // A random prefix keeps ids from colliding with ids a client might echo from elsewhere. Made at the
  // first request, not at construction: workerd allows no random values in a Worker's global scope.
  #prefix: string | undefined;
  #seq = 0;

  /** Send a request to the client through `channel` and wait for its answer. */
  request(
    peer: Peer,
    channel: Channel,
    method: string,
    params: { [key: string]: unknown },
    options: ClientRequestOptions = {},
  ): Promise<{ [key: string]: unknown }> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (!channel.open || peer.closed) {
      return Promise.reject(new ToolError(`Cannot send ${method}: the connection to the client is closed.`));
    }
    this.#prefix ??= `s-${randomTag()}-`;
    const id = this.#prefix + ++this.#seq;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (!this.#forget(id)) return;
        // Tell the client to stop asking the user (spec, cancellation: either side may cancel).
        if (channel.open) {
          channel.send({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: id, reason: 'The tool call ended.' },
          });
        }
        reject(signal!.reason);
      };
      const settle =
        <T>(fn: (value: T) => void) =>
        (value: T) => {
          signal?.removeEventListener('abort', onAbort);
          fn(value);
        };
      this.#pending.set(id, { peer, method, resolve: settle(resolve), reject: settle(reject) });
      peer.pending.add(id);
      signal?.addEventListener('abort', onAbort, { once: true });
      channel.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  /**
   * Route a client's response to the request it answers. Returns false when no
   * pending request matches (the response is then ignored).
   */
  settle(peer: Peer, response: JsonRpcResponse): boolean {
    const id = response.id;
    if (typeof id !== 'string') return false;
    const entry = this.#pending.get(id);
    // Only the peer that was asked may answer; stateless peers have no identity to compare.
    if (!entry || (entry.peer !== peer && !(entry.peer.stateless && peer.stateless))) return false;
    this.#forget(id);
    if ('result' in response) entry.resolve(response.result);
    else entry.reject(new ClientRequestError(entry.method, response.error.code, response.error.message));
    return true;
  }

  /** Reject every request still pending for a peer that went away. */
  dropPeer(peer: Peer, reason: unknown): void {
    for (const id of peer.pending) {
      const entry = this.#pending.get(id);
      this.#forget(id);
      entry?.reject(reason);
    }
  }

  #forget(id: string): boolean {
    const entry = this.#pending.get(id);
    if (!entry) return false;
    this.#pending.delete(id);
    entry.peer.pending.delete(id);
    return true;
  }
}

function randomTag(): string {
  // Web Crypto: available in Node 20+, Deno, Bun, workers (the engine is not Node-only).
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
