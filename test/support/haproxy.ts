/**
 * A real load balancer for the multi-instance tests: Debian's
 * `haproxy`, with a configuration written by the test — round robin, no
 * stickiness, health checks on each instance's `/readyz` (as
 * docs/deployment.md tells people to deploy). `.ci/run` installs haproxy.
 *
 * Each answer carries the name of the instance that served it
 * (`x-candor-backend`), and a request can be pinned to one instance with
 * `x-candor-route: <name>` (haproxy `use-server`), so a test can both see and
 * steer where requests go through {@link Balancer.fetch}.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './redis-server.js';

export interface Backend {
  /** The server's name in haproxy (and in `x-candor-backend`). */
  name: string;
  /** `http://127.0.0.1:<port>` */
  origin: string;
}

export interface Routed {
  method: string;
  /** Which backend answered (from `x-candor-backend`), undefined when haproxy answered itself. */
  backend: string | undefined;
  status: number;
  /** The JSON-RPC method of a POST body, or `response` for a client's answer. */
  rpc?: string;
}

export interface Balancer {
  /** The MCP endpoint through haproxy, e.g. `http://127.0.0.1:4000/mcp`. */
  readonly url: string;
  /** Requests made with {@link Balancer.fetch}, in order, with the backend that served each. */
  readonly routed: Routed[];
  /** Pick the backend of a request made with {@link Balancer.fetch} (undefined: round robin). */
  policy: ((request: { method: string; rpc?: string }) => string | undefined) | undefined;
  /** A fetch for clients (`new StreamableHTTPClientTransport(url, { fetch })`) that records and steers. */
  readonly fetch: typeof fetch;
  /** Wait until haproxy's health checks see these backends up (each has served a `/readyz` through it). */
  waitForBackends(names: readonly string[], timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface BalancerOptions {
  /** Health-check interval (haproxy `inter`). Default 200 ms. */
  checkIntervalMs?: number;
  path?: string;
  /** The port to listen on (default a free one), for servers that must know their public URL before it exists. */
  port?: number;
}

/** The configuration written for haproxy (exported for the README and the fault bench). */
export function haproxyConfig(port: number, backends: readonly Backend[], checkIntervalMs = 200): string {
  const servers = backends.map((b) => {
    const { hostname, port: p } = new URL(b.origin);
    return `  server ${b.name} ${hostname}:${p} check`;
  });
  const pins = backends.map((b) => `  use-server ${b.name} if { req.hdr(x-candor-route) -m str ${b.name} }`);
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 60s',
    '  timeout server 60s',
    // A refused connection (instance gone) is retried on another instance; a request that
    // reached an instance is never sent twice (no retry-on beyond connection failures).
    '  retries 2',
    '  option redispatch 1',
    'frontend mcp',
    `  bind 127.0.0.1:${port}`,
    '  default_backend instances',
    'backend instances',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    `  default-server inter ${checkIntervalMs} fastinter ${checkIntervalMs} downinter ${checkIntervalMs} fall 2 rise 1`,
    '  http-response set-header x-candor-backend %s',
    ...pins,
    ...servers,
    '',
  ].join('\n');
}

/**
 * Start haproxy in front of `backends`.
 *
 * @example
 * const lb = await startHaproxy([{ name: 'i0', origin: a.base }, { name: 'i1', origin: b.base }]);
 * const client = new Client(...); await client.connect(new StreamableHTTPClientTransport(new URL(lb.url), { fetch: lb.fetch }));
 */
export async function startHaproxy(backends: readonly Backend[], options: BalancerOptions = {}): Promise<Balancer> {
  const { checkIntervalMs = 200, path = '/mcp' } = options;
  const port = options.port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'candor-haproxy-'));
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig(port, backends, checkIntervalMs));
  const binary = process.env.HAPROXY_BIN ?? 'haproxy';
  const child: ChildProcess = spawn(binary, ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  const failed = new Promise<never>((_resolve, reject) => {
    child.once('error', (error) =>
      reject(new Error(`cannot start ${binary} (install Debian's haproxy): ${error.message}`)),
    );
    child.once('exit', (code) => reject(new Error(`haproxy exited with ${code}:\n${out}`)));
  });
  failed.catch(() => {});
  await Promise.race([portOpen(port, 10_000), failed]);

  const routed: Routed[] = [];
  const balancer: Balancer = {
    url: `http://127.0.0.1:${port}${path}`,
    routed,
    policy: undefined,
    fetch: (async (input: string | URL | Request, init?: RequestInit) => {
      const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
      const rpc = rpcOf(init?.body);
      const headers = new Headers(init?.headers);
      const pinned = balancer.policy?.({ method, ...(rpc === undefined ? {} : { rpc }) });
      if (pinned !== undefined) headers.set('x-candor-route', pinned);
      const response = await fetch(input, { ...init, headers });
      routed.push({
        method,
        backend: response.headers.get('x-candor-backend') ?? undefined,
        status: response.status,
        ...(rpc === undefined ? {} : { rpc }),
      });
      return response;
    }) as typeof fetch,
    async waitForBackends(names, timeoutMs = 10_000) {
      const seen = new Set<string>();
      const deadline = Date.now() + timeoutMs;
      while (!names.every((n) => seen.has(n))) {
        if (Date.now() > deadline)
          throw new Error(`haproxy did not route to ${names.filter((n) => !seen.has(n)).join(', ')} in time`);
        const response = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
        const backend = response?.headers.get('x-candor-backend');
        await response?.text();
        if (response?.status === 200 && backend) seen.add(backend);
        else await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
      }),
  };
  return balancer;
}

function portOpen(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`haproxy did not listen on ${port} in time`));
        else setTimeout(attempt, 25);
      });
    };
    attempt();
  });
}

function rpcOf(body: unknown): string | undefined {
  if (typeof body !== 'string' || body.length === 0) return undefined;
  try {
    const message = JSON.parse(body) as { method?: string };
    return typeof message.method === 'string' ? message.method : 'response';
  } catch {
    return undefined;
  }
}
