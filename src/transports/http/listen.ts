/**
 * `listenHttp`: serve a dispatcher over Streamable HTTP on its own node:http
 * server, bound to 127.0.0.1 by default (spec, transports: local servers
 * SHOULD bind only to localhost), with a graceful `close()` that the server's
 * SIGTERM handling calls.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
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
  /**
   * What `/readyz` checks besides draining, e.g. that Redis answers.
   * Each entry is a dependency's name and whether it is up: `true`, `false`
   * (the instance cannot serve: 503), or `'degraded'` (it is down but the
   * instance serves without it: 200 with `"status":"degraded"`).
   * Default: none.
   */
  readiness?: () => Promise<Record<string, boolean | 'degraded'>>;
  /**
   * More MCP endpoints on the same port, by exact path (e.g. the gateway's
   * profiles at `/mcp/<name>`). Each handler is closed with the listener.
   */
  mounts?: Readonly<Record<string, HttpHandler>>;
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
  const { port = 3000, host = '127.0.0.1', shutdownTimeoutMs = 10_000, readiness, mounts, ...handlerOptions } = options;
  const handler = createHttpHandler({ ...handlerOptions, host });
  const mounted = new Map(Object.entries(mounts ?? {}));
  let draining = false;
  const server = createServer((req, res) => {
    // Probes of a load balancer or orchestrator; they reveal nothing but up / ready.
    if (req.method === 'GET' && (req.url === '/healthz' || req.url === '/readyz')) {
      void answerProbe(req.url, res, draining, readiness);
      return;
    }
    if (mounted.size > 0) {
      const url = req.url ?? '/';
      const query = url.indexOf('?');
      const other = mounted.get(query < 0 ? url : url.slice(0, query));
      if (other !== undefined) {
        void other.nodeHandler(req, res);
        return;
      }
    }
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
        draining = true;
        // The port stays open while calls in flight finish: new requests get 503 and /readyz says
        // "draining", so a balancer moves traffic away instead of seeing connections refused.
        server.closeIdleConnections();
        await Promise.all([handler, ...mounted.values()].map((h) => h.close({ timeoutMs: shutdownTimeoutMs })));
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}

/**
 * `/healthz`: the process serves (200). `/readyz`: it should get traffic —
 * 503 while draining or when a dependency it cannot serve without is down, so
 * a balancer moves traffic elsewhere; 200 `"degraded"` when a dependency is
 * down but the instance still serves (Redis,  taking every instance
 * out of the balancer at once would turn a store blink into a full outage).
 */
async function answerProbe(
  path: string,
  res: ServerResponse,
  draining: boolean,
  readiness: HttpListenOptions['readiness'],
): Promise<void> {
  let body: Record<string, unknown> = { status: draining ? 'draining' : 'ok' };
  let ok = true;
  if (path === '/readyz') {
    let checks: Record<string, boolean | 'degraded'> = {};
    try {
      checks = (await readiness?.()) ?? {};
    } catch {
      checks = { dependencies: false };
    }
    const states = Object.values(checks);
    ok = !draining && !states.includes(false);
    const degraded = states.includes('degraded');
    body = {
      status: draining ? 'draining' : !ok ? 'unready' : degraded ? 'degraded' : 'ready',
      ...Object.fromEntries(Object.entries(checks).map(([name, up]) => [name, up === true ? 'up' : 'down'])),
    };
  }
  const text = JSON.stringify(body);
  res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(text);
}

function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}
