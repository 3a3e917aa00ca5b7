/**
 * A server that speaks only 2026-07-28 (`createServer({ modern: { only: true } })`), over
 * Streamable HTTP and stdio, with the official clients as peers: the SDK v2 client pinned
 * to 2026-07-28 and in `auto` mode works; the SDK v2 client on 2025-11-25 and the SDK v1
 * client get an error that names the version the server speaks. What the raw wire carries
 * is checked too: -32022 with HTTP 400 for `initialize` and other 2025-era requests, 405 for
 * GET and DELETE, no session minted.
 */
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { HttpListener } from '../../src/transports/http/listen.js';
import { buildModernServer } from '../support/modern-fixture.js';
import { createModernWireCheck } from '../support/modern-wire-check.js';

const V = '2026-07-28';
const SPEAKS_ONLY = 'this server speaks only 2026-07-28';
let listener: HttpListener;
let url: string;

beforeAll(async () => {
  const { server } = buildModernServer({ modernOnly: true });
  listener = await server.listen({ port: 0, handleSignals: false });
  url = listener.url;
});

afterAll(async () => {
  await listener?.close();
});

function v2Client(): Client {
  const client = new Client(
    { name: 'modern-only-peer', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirm: true } }));
  return client;
}

/** The error a client's connect fails with (undefined when it connects), the client closed either way. */
async function failedConnect<T>(
  client: { connect(transport: T): Promise<void>; close(): Promise<void> },
  transport: T,
): Promise<Error | undefined> {
  const failure = await client.connect(transport).then(
    () => undefined,
    (error: unknown) => error as Error,
  );
  await client.close();
  return failure;
}

async function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

/** A raw `server/discover` in the given version, with its headers. */
async function discover(version: string, headers: Record<string, string> = {}): Promise<Response> {
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return post(
    { jsonrpc: '2.0', id: 7, method: 'server/discover', params: { _meta } },
    { 'mcp-protocol-version': version, 'mcp-method': 'server/discover', ...headers },
  );
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe('a 2026-07-28-only server over Streamable HTTP', () => {
  test.each(['pin', 'auto'] as const)(
    'serves the SDK v2 client in %s mode: discover names 2026-07-28 alone, tools list and call, elicitation round trip',
    async (mode) => {
      const client = v2Client();
      client.setVersionNegotiation({ mode: mode === 'pin' ? { pin: V } : 'auto' });
      const wire = createModernWireCheck();
      await client.connect(wire.wrap(new StreamableHTTPClientTransport(new URL(url))));
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(V);
        expect(wire.resultsOf('server/discover')[0].supportedVersions).toEqual([V]);
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toContain('echo');
        const echoed = await client.callTool({ name: 'echo', arguments: { text: `hello ${mode}` } });
        expect(echoed.content).toEqual([{ type: 'text', text: `hello ${mode}` }]);
        const deleted = await client.callTool({ name: 'delete_file', arguments: { path: `${mode}.txt` } });
        expect(deleted.content).toEqual([{ type: 'text', text: `deleted ${mode}.txt` }]);
        wire.assertClean();
      } finally {
        await client.close();
      }
    },
  );

  test('refuses the SDK v2 client on 2025-11-25 with an error naming the version it speaks', async () => {
    const failure = await failedConnect(v2Client(), new StreamableHTTPClientTransport(new URL(url)));
    expect(failure?.message).toContain(SPEAKS_ONLY);
  });

  test('refuses the SDK v1 client with an error naming the version it speaks', async () => {
    const client = new ClientV1({ name: 'v1-peer', version: '1.0.0' });
    const failure = await failedConnect(client, new HttpTransportV1(new URL(url)));
    expect(failure?.message).toContain(SPEAKS_ONLY);
  });

  test('answers initialize with HTTP 400, -32022 and the supported list, and mints no session', async () => {
    const response = await post(INITIALIZE);
    expect(response.status).toBe(400);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const body = (await response.json()) as { id: number; error: { code: number; message: string; data: unknown } };
    expect(body.id).toBe(1);
    expect(body.error.code).toBe(-32022);
    expect(body.error.message).toContain(SPEAKS_ONLY);
    expect(body.error.message).toContain('initialize');
    expect(body.error.data).toEqual({ supported: [V], requested: '2025-11-25' });
  });

  test('answers any other request without the envelope the same way, naming the version its header gives', async () => {
    const response = await post(
      { jsonrpc: '2.0', id: 'x', method: 'tools/list', params: {} },
      { 'mcp-protocol-version': '2025-06-18', 'mcp-session-id': 'made-up' },
    );
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: number; message: string; data: unknown } };
    expect(body.error.code).toBe(-32022);
    expect(body.error.message).toContain('tools/list');
    expect(body.error.data).toEqual({ supported: [V], requested: '2025-06-18' });
  });

  test('refuses a JSON-RPC batch, which the era does not have', async () => {
    const response = await post([INITIALIZE]);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: number; message: string } };
    expect(body.error.code).toBe(-32600);
    expect(body.error.message).toContain('no JSON-RPC batches');
  });

  test('answers GET and DELETE with 405 and Allow: POST, OPTIONS', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(url, { method, headers: { accept: 'text/event-stream', 'mcp-session-id': 'x' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST, OPTIONS');
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message).toContain(SPEAKS_ONLY);
    }
  });

  test('ignores an Mcp-Session-Id header on a modern request and echoes none', async () => {
    const response = await discover(V, { 'mcp-session-id': 'stale-session' });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    const body = (await response.json()) as { result: { supportedVersions: string[] } };
    expect(body.result.supportedVersions).toEqual([V]);
  });

  test('names only 2026-07-28 when a modern request asks for a version it does not serve', async () => {
    const response = await discover('2027-01-01');
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: number; data: unknown } };
    expect(body.error).toMatchObject({ code: -32022, data: { supported: [V], requested: '2027-01-01' } });
  });
});

describe('a 2026-07-28-only server over stdio', () => {
  const script = fileURLToPath(new URL('../support/modern-stdio-server.ts', import.meta.url));
  const spawn = { command: process.execPath, args: ['--import', 'tsx', script, 'only'], stderr: 'pipe' as const };

  test.each(['pin', 'auto'] as const)('serves the SDK v2 client in %s mode', async (mode) => {
    const client = v2Client();
    client.setVersionNegotiation({ mode: mode === 'pin' ? { pin: V } : 'auto' });
    const wire = createModernWireCheck();
    await client.connect(wire.wrap(new StdioClientTransport(spawn)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(V);
      const echoed = await client.callTool({ name: 'echo', arguments: { text: 'over stdio' } });
      expect(echoed.content).toEqual([{ type: 'text', text: 'over stdio' }]);
      wire.assertClean();
    } finally {
      await client.close();
    }
  });

  test('refuses the SDK v2 client on 2025-11-25 with an error naming the version it speaks', async () => {
    const failure = await failedConnect(v2Client(), new StdioClientTransport(spawn));
    expect(failure?.message).toContain(SPEAKS_ONLY);
  });
});
