/**
 * An in-memory linked pair for tests: the client end has the shape of the MCP
 * SDK's `Transport` (`start`, `send`, `close`, `onmessage`, `onclose`,
 * `onerror`), so the official SDK v2 `Client` connects to a candor server
 * without sockets. Every message crosses as JSON text, as on a real wire.
 */

import type { Channel, JsonRpcMessage, RequestInfo } from '../engine/channel.js';
import type { Dispatcher } from '../engine/dispatcher.js';
import { serializeMessage } from '../engine/jsonrpc.js';
import { CandorError } from '../errors.js';

/** Options of {@link connectMemory}. */
export interface MemoryTransportOptions {
  /** Request facts every message carries (e.g. a fake `auth` in tests). */
  info?: RequestInfo;
  /** Sees every message the server sends, as parsed from the wire (for schema checks in tests). */
  onServerMessage?: (message: unknown) => void;
}

/** The client end of an in-memory pair (structurally an SDK `Transport`). */
export interface MemoryClientTransport {
  start(): Promise<void>;
  send(message: unknown): Promise<void>;
  close(): Promise<void>;
  onmessage?: ((message: any, extra?: unknown) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  sessionId?: string;
}

/**
 * Connect an in-memory client to a dispatcher (one peer, like one stdio connection).
 *
 * @example
 * ```ts
 * const client = new Client({ name: 'test', version: '1.0.0' });
 * await client.connect(connectMemory(server.dispatcher));
 * ```
 */
export function connectMemory(dispatcher: Dispatcher, options: MemoryTransportOptions = {}): MemoryClientTransport {
  let closed = false;
  const deliver = (message: JsonRpcMessage | readonly JsonRpcMessage[]) => {
    if (closed) return;
    const wire = serializeMessage(message);
    // Asynchronous, like any real transport: a handler never runs inside the sender's stack.
    queueMicrotask(() => {
      if (closed) return;
      const parsed = JSON.parse(wire) as unknown;
      options.onServerMessage?.(parsed);
      for (const m of Array.isArray(parsed) ? parsed : [parsed]) transport.onmessage?.(m);
    });
  };
  const channel: Channel = {
    get open() {
      return !closed;
    },
    send: (message) => deliver(message),
  };
  const peer = dispatcher.createPeer({ channel });
  const transport: MemoryClientTransport = {
    async start() {},
    async send(message) {
      if (closed) throw new CandorError('The in-memory transport is closed.', { code: 'not_connected' });
      const parsed = JSON.parse(JSON.stringify(message)) as unknown;
      void dispatcher
        .handle(parsed, { peer, channel, ...(options.info ? { info: options.info } : {}) })
        .then((answer) => {
          if (answer !== undefined) deliver(answer);
        });
    },
    async close() {
      if (closed) return;
      closed = true;
      peer.close();
      transport.onclose?.();
    },
  };
  return transport;
}
