/**
 * A small round-robin HTTP load balancer for the multi-instance tests
 * (issue 11): each request goes to the next backend in turn, streamed both
 * ways (SSE included), with no stickiness of any kind. A backend that refuses
 * the connection is skipped, as a balancer with health checks would. Every
 * request is recorded with the backend that served it.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Routed {
  method: string;
  backend: number;
  /** The JSON-RPC method of a POST body, or `response` for a client's answer. */
  rpc?: string;
}

export interface RoundRobinProxy {
  readonly url: string;
  readonly routed: Routed[];
  /** Send the next request to this backend (then carry on in turn). */
  next(backend: number): void;
  /** Pick the backend of a request yourself (undefined: the next in turn). */
  policy: ((request: { method: string; rpc?: string }) => number | undefined) | undefined;
  close(): Promise<void>;
}

/** Start a proxy in front of `backends` (base URLs like `http://127.0.0.1:1234`). */
export async function startRoundRobinProxy(backends: readonly string[], path = '/mcp'): Promise<RoundRobinProxy> {
  let turn = 0;
  const routed: Routed[] = [];
  const proxy = {} as RoundRobinProxy;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const rpc = rpcOf(body);
      const chosen = proxy.policy?.({ method: req.method ?? '', ...(rpc === undefined ? {} : { rpc }) });
      const attempt = (tries: number) => {
        const backend = tries === 0 && chosen !== undefined ? chosen : turn++ % backends.length;
        const target = new URL(path, backends[backend]);
        const upstream = request(
          target,
          { method: req.method, headers: { ...req.headers, host: target.host } },
          (answer) => {
            routed.push({ method: req.method ?? '', backend, ...(rpc === undefined ? {} : { rpc }) });
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            res.on('close', () => answer.destroy());
          },
        );
        upstream.on('error', () => {
          if (res.headersSent) return void res.destroy();
          if (tries + 1 < backends.length) attempt(tries + 1);
          else {
            res.writeHead(502, { 'content-type': 'text/plain' });
            res.end('no backend answered');
          }
        });
        res.on('close', () => upstream.destroy());
        upstream.end(body);
      };
      attempt(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${port}${path}`,
    routed,
    policy: undefined,
    next(backend: number) {
      turn = backend;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

function rpcOf(body: Buffer): string | undefined {
  if (body.length === 0) return undefined;
  try {
    const message = JSON.parse(body.toString('utf8')) as { method?: string; id?: unknown };
    return typeof message.method === 'string' ? message.method : 'response';
  } catch {
    return undefined;
  }
}
