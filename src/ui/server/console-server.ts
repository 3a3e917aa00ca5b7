/**
 * `startConsole`: the `candor ui` server. Two loopback listeners:
 * the console (page, scripts, JSON API, event stream) and, on another port and
 * so another origin, the sandbox proxy page that Views are rendered inside.
 * The host is created here so that its `onConfirm` is the console's dialog.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHost } from '../../host/host.js';
import type { Host, HostOptions } from '../../host/host-api.js';
import { Policy } from '../../host/policy.js';
import { type ApiDeps, ApiError, getRoutes, postRoutes, readJson } from './api.js';
import { type Asset, assetsDir, loadAssets } from './assets.js';
import { ConfirmBroker } from './confirm-broker.js';
import { EventHub } from './event-stream.js';
import { allowedHosts, COMMON_HEADERS, checkApiRequest, consoleCsp, newToken, sandboxCsp } from './security.js';
import { SessionLog } from './session-log.js';
import { ToolTable } from './tool-rows.js';
import { ViewGate } from './view-gate.js';

/** Everything `startConsole` accepts: the host's options (minus `onConfirm`, which is the console) and where to listen. */
export interface ConsoleOptions {
  host: Omit<HostOptions, 'onConfirm'>;
  /** Console port (default 0: any free port). The sandbox takes another free port. */
  port?: number;
  /** Where the built browser files are (default: this package's `dist/ui`). */
  assets?: string;
}

/** A running console. */
export interface RunningConsole {
  /** The URL to open, token included (in the fragment, so it never reaches a log or a Referer). */
  url: string;
  token: string;
  origin: string;
  sandboxOrigin: string;
  host: Host;
  close(): Promise<void>;
}

const CONSOLE_FILES = ['index.html', 'console.js', 'console.css'] as const;
const SANDBOX_FILES = ['sandbox.html', 'sandbox.js'] as const;

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function send(response: ServerResponse, status: number, body: string | Buffer, headers: Record<string, string>): void {
  response.writeHead(status, { ...COMMON_HEADERS, ...headers });
  response.end(body);
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  send(response, status, JSON.stringify(value), { 'Content-Type': 'application/json; charset=utf-8' });
}

/**
 * Start the console over the given servers.
 *
 * @example
 * ```ts
 * const ui = await startConsole({ host: { servers: { memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } } } });
 * console.log(ui.url); // http://127.0.0.1:PORT/#token=…
 * ```
 */
export async function startConsole(options: ConsoleOptions): Promise<RunningConsole> {
  const dir = options.assets ?? assetsDir();
  const consoleAssets = loadAssets(dir, CONSOLE_FILES);
  const sandboxAssets = loadAssets(dir, SANDBOX_FILES);
  const token = newToken();
  const hub = new EventHub();
  const log = new SessionLog(hub);
  const broker = new ConfirmBroker(hub, log);
  const previousOnClient = options.host.onClient;
  const host = await createHost({
    ...options.host,
    onConfirm: (request) => broker.ask(request),
    onClient: (server, client) => {
      previousOnClient?.(server, client);
      client.setNotificationHandler('notifications/message', (notification) => {
        hub.send({ type: 'log', data: { server, ...(notification.params as Record<string, unknown>) } });
      });
    },
  });

  const consoleHttp = createServer();
  const sandboxHttp = createServer();
  let consolePort: number;
  let sandboxPort: number;
  try {
    consolePort = await listen(consoleHttp, options.port ?? 0);
    sandboxPort = await listen(sandboxHttp, 0);
  } catch (error) {
    consoleHttp.close();
    sandboxHttp.close();
    await host.close();
    throw error;
  }
  const origin = `http://127.0.0.1:${consolePort}`;
  const sandboxOrigin = `http://127.0.0.1:${sandboxPort}`;
  // The proxy relays only to and from the console's origin, which it reads from its own page.
  const sandboxPage = sandboxAssets.get('/sandbox.html')!;
  sandboxPage.body = Buffer.from(sandboxPage.body.toString('utf8').replace('__CONSOLE_ORIGIN__', origin));
  const consoleHosts = allowedHosts(consolePort);
  const sandboxHosts = allowedHosts(sandboxPort);

  const table = new ToolTable(host);
  const policy = new Policy(options.host.policy ?? 'default');
  const views = new ViewGate({ host, policy, broker, log });
  const deps: ApiDeps = { host, table, views, broker, hub, log, policyName: policy.preset, sandboxOrigin };
  if (options.host.pins?.file) deps.lockFile = options.host.pins.file;
  const gets = getRoutes(deps);
  const posts = postRoutes(deps);
  const offChanged = host.on('tools-changed', (change) => {
    table.rebuild();
    hub.send({ type: 'tools-changed', data: { server: change.server } });
  });
  const offWarning = host.on('warning', (warning) => hub.send({ type: 'warning', data: warning }));

  const pageHeaders = (asset: Asset): Record<string, string> => ({
    'Content-Type': asset.type,
    'Content-Security-Policy': consoleCsp(sandboxOrigin),
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
  });

  consoleHttp.on('request', (request: IncomingMessage, response: ServerResponse) => {
    void (async () => {
      const url = new URL(request.url ?? '/', origin);
      if (!url.pathname.startsWith('/api/')) {
        if (!consoleHosts.has(request.headers.host ?? '')) return send(response, 421, 'Wrong Host.', {});
        const asset = consoleAssets.get(url.pathname === '/' ? '/index.html' : url.pathname);
        if (!asset || request.method !== 'GET') return send(response, 404, 'Not found.', {});
        return send(response, 200, asset.body, pageHeaders(asset));
      }
      const refusal = checkApiRequest(request, url, { hosts: consoleHosts, origin, token });
      if (refusal) return sendJson(response, refusal.status, { error: refusal.message });
      try {
        if (request.method === 'GET' && url.pathname === '/api/events') {
          return hub.attach(
            response,
            broker.openQuestions().map((data) => ({ type: 'confirm' as const, data })),
          );
        }
        if (request.method === 'GET' && gets[url.pathname])
          return sendJson(response, 200, await gets[url.pathname]!(url));
        if (request.method === 'POST' && posts[url.pathname]) {
          return sendJson(response, 200, await posts[url.pathname]!(await readJson(request)));
        }
        throw new ApiError(404, `No API route ${request.method} ${url.pathname}.`);
      } catch (error) {
        const status = error instanceof ApiError ? error.status : 500;
        if (!response.headersSent) sendJson(response, status, { error: (error as Error).message });
      }
    })();
  });

  sandboxHttp.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', sandboxOrigin);
    if (!sandboxHosts.has(request.headers.host ?? '')) return send(response, 421, 'Wrong Host.', {});
    const asset = sandboxAssets.get(url.pathname);
    if (!asset || request.method !== 'GET') return send(response, 404, 'Not found.', {});
    // Only the console may frame the proxy (checked by the browser, for every ancestor).
    return send(response, 200, asset.body, {
      'Content-Type': asset.type,
      'Content-Security-Policy': sandboxCsp(origin),
    });
  });

  return {
    url: `${origin}/#token=${token}`,
    token,
    origin,
    sandboxOrigin,
    host,
    close: async () => {
      offChanged();
      offWarning();
      broker.denyAll();
      hub.close();
      consoleHttp.closeAllConnections();
      sandboxHttp.closeAllConnections();
      await Promise.all([
        new Promise((resolve) => consoleHttp.close(resolve)),
        new Promise((resolve) => sandboxHttp.close(resolve)),
      ]);
      await host.close();
    },
  };
}
