/**
 * A tools/list of thousands of tools is written from cached bytes:
 * the page's UTF-8 is encoded once per registry change and sent around the
 * JSON-RPC envelope as it is. Every transport must still deliver exactly the
 * same document: SDK v1 and v2 clients over node:http in both eras, the
 * fetch-style handler, and stdio.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serializeMessage, serializeMessageParts } from '../../src/engine/jsonrpc.js';
import { createServer } from '../../src/server/create-server.js';
import { defineTool } from '../../src/tool/define.js';
import { createHttpHandler, type HttpHandler } from '../../src/transports/http/create-http-handler.js';
import { serveStdio } from '../../src/transports/stdio.js';

const COUNT = 2_000;
// Non-ASCII text: byte and character counts differ, so a wrong Content-Length would show.
const tools = Array.from({ length: COUNT }, (_, i) =>
  defineTool({
    name: `tool_${i}`,
    description: `Werkzeug Nr. ${i} — prüft die Größe.`,
    effect: 'read',
    world: 'closed',
    input: { type: 'object', properties: { path: { type: 'string' } } },
    handler: () => 'ok',
  }),
);
const server = createServer({ name: 'large', version: '1.0.0', tools, lintOnStart: false });
let http: Server;
let handler: HttpHandler;
let url: string;

beforeAll(async () => {
  handler = createHttpHandler({ dispatcher: server.dispatcher });
  http = createHttpServer((req, res) => void handler.nodeHandler(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await handler.close({ timeoutMs: 1000 });
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

const expectAll = (listed: Array<{ name: string; description?: string }>) => {
  expect(listed).toHaveLength(COUNT);
  expect(listed[COUNT - 1]).toMatchObject({ name: 'tool_999', description: 'Werkzeug Nr. 999 — prüft die Größe.' });
};

describe(`tools/list of ${COUNT.toLocaleString('en')} tools from cached bytes`, () => {
  test('the answer is written as parts around the cached bytes, the same text serializeMessage gives', async () => {
    const peer = server.dispatcher.createPeer();
    const answer = await server.dispatcher.handle(
      { jsonrpc: '2.0', id: 7, method: 'tools/list' },
      { peer, channel: { open: false, send() {} } },
    );
    const parts = serializeMessageParts(answer!);
    expect(Array.isArray(parts)).toBe(true);
    const [prefix, bytes, suffix] = parts as readonly [string, Uint8Array, string];
    expect(prefix + Buffer.from(bytes).toString('utf8') + suffix).toBe(serializeMessage(answer!));
    // Encoded once: the next answer carries the very same bytes.
    const again = await server.dispatcher.handle(
      { jsonrpc: '2.0', id: 8, method: 'tools/list' },
      { peer, channel: { open: false, send() {} } },
    );
    expect((serializeMessageParts(again!) as readonly unknown[])[1]).toBe(bytes);
    peer.close();
  });

  test('SDK v1 client (2025 era) over node:http', async () => {
    const client = new ClientV1({ name: 'v1', version: '1.0.0' });
    await client.connect(new HttpTransportV1(new URL(url)));
    expectAll((await client.listTools()).tools);
    await client.close();
  });

  test('SDK v2 client pinned to 2026-07-28 over node:http', async () => {
    const client = new Client(
      { name: 'v2', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expectAll((await client.listTools()).tools);
    await client.close();
  });

  test('the fetch-style handler', async () => {
    const fetchHandler = createHttpHandler({ dispatcher: server.dispatcher, sessions: 'stateless' });
    const response = await fetchHandler.fetchHandler(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
    );
    const body = (await response.json()) as { id: number; result: { tools: Array<{ name: string }> } };
    expect(body.id).toBe(1);
    expectAll(body.result.tools);
    await fetchHandler.close();
  });

  test('stdio: one line, the whole list', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const connection = serveStdio(server.dispatcher, { stdin, stdout });
    let text = '';
    stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' })}\n`);
    await expect.poll(() => text.endsWith('\n'), { timeout: 5000 }).toBe(true);
    const lines = text.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const answer = JSON.parse(lines[0]!) as { id: number; result: { tools: Array<{ name: string }> } };
    expect(answer.id).toBe(3);
    expectAll(answer.result.tools);
    stdin.end();
    await connection.closed;
  });
});
