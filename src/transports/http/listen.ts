/**
 * `listenHttp`: serve a dispatcher over Streamable HTTP on its own node:http
 * server, bound to 127.0.0.1 by default (spec, transports: local servers
 * SHOULD bind only to localhost), with a graceful `close()` that the server's
 * SIGTERM handling calls.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CandorError } from '../../errors.js';
import { createHttpHandler, type HttpHandler } from './create-http-handler.js';
import type { HttpHandlerOptions } from './handler-options.js';

/** Options of {@link listenHttp}: the handler's, plus where to listen. */
export interface HttpListenOptions extends HttpHandlerOptions {
  /** TCP port; 0 picks a free one. Default 3000. */
  port?: number;
  /** Address to bind. Default `127.0.0.1` (loopback: DNS-rebinding protection on). */
  host?: string;
  /** How long `close()` waits for requests in flight. Default 10 000 ms. */
  shutdownTimeoutMs?: number;
}

/** A running Streamable HTTP server. */
export interface HttpListener {
  /** The endpoint URL, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  readonly port: number;
  readonly host: string;
  /** The node:http server (for tuning timeouts or adding routes). */
  readonly server: Server;
  readonly handler: HttpHandler;
  /**
   * Stop accepting connections, let requests in flight finish (up to
   * `shutdownTimeoutMs`), end SSE streams and sessions, close every socket.
   */
  close(): Promise<void>;
}

/**
 * Listen for Streamable HTTP.
 *
 * @example
 * ```ts
 * const listener = await listenHttp({ dispatcher: server.dispatcher, port: 0 });
 * console.error(`MCP endpoint: ${listener.url}`);
 * process.once('SIGTERM', () => void listener.close());
 * ```
 */
export async function listenHttp(options: HttpListenOptions): Promise<HttpListener> {
  const { port = 3000, host = '127.0.0.1', shutdownTimeoutMs = 10_000, ...handlerOptions } = options;
  const handler = createHttpHandler({ ...handlerOptions, host });
  const server = createServer((req, res) => {
    void handler.nodeHandler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        new CandorError(`Cannot listen on ${host}:${port}: ${error.code ?? error.message}.`, {
          code: 'listen_failed',
          cause: error,
        }),
      );
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const path = options.path === false || options.path === undefined ? '/mcp' : options.path;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost(host)}:${bound}${path}`,
    port: bound,
    host,
    server,
    handler,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        // Idle keep-alive sockets would hold close() open; requests in flight are drained below.
        server.closeIdleConnections();
        await handler.close({ timeoutMs: shutdownTimeoutMs });
        server.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
