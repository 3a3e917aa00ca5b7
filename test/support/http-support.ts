/**
 * Shared pieces of the Streamable HTTP tests: a real server on 127.0.0.1 port
 * 0, raw requests with fetch, and an SSE reader that parses what came over the
 * socket. Everything is closed by `closeAll()` in `afterEach`.
 */

import type { HttpListener, HttpListenOptions } from '../../src/transports/http/listen.js';
import { listenHttp } from '../../src/transports/http/listen.js';
import { silentLogger } from '../../src/util/logger.js';
import { buildTestServer } from './engine-server.js';

type Closable = { close(): Promise<void> | void };
const open: Closable[] = [];

/** Close what the test opened, newest first (clients before servers). */
export async function closeAll(): Promise<void> {
  for (const item of open.splice(0).reverse()) await item.close();
}

/** Register something to close after the test. */
export function track<T extends Closable>(item: T): T {
  open.push(item);
  return item;
}

/** The engine test server (test/support/engine-server.ts) behind a real HTTP listener. */
export async function startHttp(
  options: Partial<Omit<HttpListenOptions, 'dispatcher'>> & {
    serverOptions?: Parameters<typeof buildTestServer>[0];
  } = {},
): Promise<{ url: string; listener: HttpListener } & ReturnType<typeof buildTestServer>> {
  const { serverOptions, ...http } = options;
  const built = buildTestServer({ logger: silentLogger, ...serverOptions });
  const listener = await listenHttp({ dispatcher: built.server.dispatcher, port: 0, env: {}, ...http });
  track({ close: () => built.server.close() });
  track(listener);
  return { url: listener.url, listener, ...built };
}

export const POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/**
 * One 2026-07-28 request (no session): the `_meta` envelope and the `Mcp-Method` /
 * `Mcp-Name` headers it needs; `token` as a bearer token.
 */
export async function modernRequest(
  url: string,
  method: string,
  options: { name?: string; args?: object; token?: string; capabilities?: object } = {},
): Promise<{ result?: Record<string, unknown>; error?: { message: string } }> {
  const params: Record<string, unknown> = {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': options.capabilities ?? {},
    },
  };
  const headers: Record<string, string> = {
    ...POST_HEADERS,
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
  };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.name !== undefined) {
    params.name = options.name;
    params.arguments = options.args ?? {};
    headers['mcp-name'] = options.name;
  }
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: Record<string, unknown>; error?: { message: string } };
}

export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 'init',
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw-fetch', version: '1.0.0' } },
} as const;

/** POST a JSON value (or raw text) with the usual headers, overridable. */
export function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { ...POST_HEADERS, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Initialize a session with raw requests; returns its id. */
export async function openSession(
  url: string,
  init: { protocolVersion?: string; capabilities?: object } = {},
): Promise<string> {
  const response = await post(url, {
    ...INITIALIZE,
    params: { ...INITIALIZE.params, ...init },
  });
  if (response.status !== 200) throw new Error(`initialize failed: ${response.status} ${await response.text()}`);
  await response.text();
  const id = response.headers.get('mcp-session-id');
  if (id === null) throw new Error('no session id');
  const initialized = await post(
    url,
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { 'mcp-session-id': id },
  );
  await initialized.text();
  return id;
}

/** One parsed SSE event. */
export interface SseEvent {
  id?: string;
  retry?: number;
  data: string;
}

/**
 * Read SSE events from a response body until the stream ends or `until`
 * says stop (the body is then cancelled).
 */
export async function readSse(response: Response, until?: (events: SseEvent[]) => boolean): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  if (response.body === null) return events;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event: SseEvent = { data: '' };
      const data: string[] = [];
      let comment = true;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue;
        comment = false;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') event.id = text;
        else if (field === 'retry') event.retry = Number(text);
        else if (field === 'data') data.push(text);
      }
      if (!comment) {
        event.data = data.join('\n');
        events.push(event);
      }
      end = buffer.indexOf('\n\n');
    }
    if (until?.(events)) {
      await reader.cancel();
      break;
    }
  }
  return events;
}

/** The JSON-RPC messages among SSE events (priming events have empty data). */
export function messagesOf(events: readonly SseEvent[]): Array<Record<string, any>> {
  return events.filter((e) => e.data !== '').map((e) => JSON.parse(e.data) as Record<string, any>);
}

/** Wait until a condition holds (polling; no wall-clock assertions). */
export async function waitFor(condition: () => boolean, what = 'condition'): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}
