/**
 * One JSON-RPC request over a connected SDK client's transport, answered with the
 * raw result. For what the SDK client does not decode: its 2026-07-28 codec refuses
 * a `tools/call` that answers `resultType: "task"` (the tasks extension), so those
 * calls and their `tasks/get` polls go around it. The transport still adds the
 * era's headers (`Mcp-Method`, `Mcp-Name`, the protocol version) from the body.
 *
 * The transport's `onmessage` is wrapped once: answers to these ids are taken out,
 * everything else goes to the SDK as before.
 */
import { type Client, ProtocolError, type Transport } from '@modelcontextprotocol/client';
import { CandorError } from '../errors.js';

type Loose = Record<string, unknown>;
interface Pending {
  resolve: (result: Loose) => void;
  reject: (error: unknown) => void;
}

const pendingBy = new WeakMap<Transport, Map<string, Pending>>();
let nextId = 0;

function pendingOf(transport: Transport): Map<string, Pending> {
  let pending = pendingBy.get(transport);
  if (pending) return pending;
  const own = new Map<string, Pending>();
  const forward = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const m = message as {
      id?: unknown;
      method?: unknown;
      result?: Loose;
      error?: { code: number; message: string; data?: unknown };
    };
    const waiting = typeof m.id === 'string' && m.method === undefined ? own.get(m.id) : undefined;
    if (!waiting) return forward?.(message, extra as never);
    own.delete(m.id as string);
    if (m.error) waiting.reject(new ProtocolError(m.error.code, m.error.message, m.error.data));
    else waiting.resolve(m.result ?? {});
  };
  const closed = transport.onclose;
  transport.onclose = () => {
    for (const waiting of own.values()) {
      waiting.reject(new CandorError('The connection closed before the server answered.', { code: 'not_connected' }));
    }
    own.clear();
    closed?.();
  };
  pendingBy.set(transport, own);
  pending = own;
  return pending;
}

/**
 * Send `method` with `params` and wait for the result (a JSON-RPC error rejects
 * with the SDK's `ProtocolError`).
 *
 * @example
 * ```ts
 * const task = await rawRequest(client, 'tasks/get', { taskId, _meta: envelope }, { signal });
 * ```
 */
export function rawRequest(
  client: Client,
  method: string,
  params: Loose,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<Loose> {
  const transport = client.transport;
  if (!transport) return Promise.reject(new CandorError('The client is not connected.', { code: 'not_connected' }));
  const pending = pendingOf(transport);
  const id = `candor-${++nextId}`;
  return new Promise<Loose>((resolve, reject) => {
    const done = () => {
      pending.delete(id);
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', abort);
    };
    const abort = () => {
      done();
      reject(options.signal?.reason ?? new CandorError(`${method} was cancelled.`, { code: 'cancelled' }));
    };
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            done();
            reject(
              new CandorError(`${method} got no answer within ${options.timeoutMs} ms.`, { code: 'tool_timeout' }),
            );
          }, options.timeoutMs);
    if (options.signal?.aborted) return abort();
    options.signal?.addEventListener('abort', abort, { once: true });
    pending.set(id, {
      resolve: (result) => {
        done();
        resolve(result);
      },
      reject: (error) => {
        done();
        reject(error);
      },
    });
    transport.send({ jsonrpc: '2.0', id, method, params } as never).catch((error: unknown) => {
      done();
      reject(error);
    });
  });
}
