/**
 * createServer's HTTP entry points (listen, nodeHandler, fetchHandler) with
 * the official clients: SDK v2 and v1 over Streamable HTTP, stateful and
 * stateless, progress and elicitation, and close() draining a running call.
 */
import { createServer as createNodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, test } from 'vitest';
import type { CandorServer } from '../../src/server/create-server.js';
import { silentLogger } from '../../src/util/logger.js';
import { buildTestServer } from '../support/engine-server.js';
import { createWireCheck } from '../support/wire-check.js';

const cleanup: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

function makeServer(): CandorServer {
  const { server } = buildTestServer({ logger: silentLogger });
  cleanup.push(() => server.close());
  return server;
}

describe('server.listen()', () => {
  test('serves the SDK v2 client on /mcp of 127.0.0.1 with progress and elicitation', async () => {
    const server = makeServer();
    const listener = await server.listen({ port: 0, handleSignals: false });
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const wire = createWireCheck();
    const client = new Client({ name: 'v2-http', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    await client.connect(wire.wrap(new StreamableHTTPClientTransport(new URL(listener.url))));
    cleanup.push(() => client.close());
    const progress: number[] = [];
    const counted = await client.callTool(
      { name: 'count_up', arguments: { n: 3 } },
      { onprogress: (p) => void progress.push(p.progress) },
    );
    expect(counted.content).toEqual([{ type: 'text', text: 'counted to 3' }]);
    expect(progress).toEqual([1, 2, 3]);
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Lin' } }));
    expect((await client.callTool({ name: 'ask_name', arguments: {} })).content).toEqual([
      { type: 'text', text: 'hello Lin' },
    ]);
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'echo')?.annotations).toEqual({
      title: 'Echo',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    wire.assertClean();
  });

  test('serves the SDK v1 client, stateless, with an elicitation round trip', async () => {
    const server = makeServer();
    const listener = await server.listen({ port: 0, handleSignals: false, sessions: 'stateless' });
    const wire = createWireCheck();
    const client = new ClientV1({ name: 'v1-http', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Kay' } }));
    await client.connect(wire.wrap(new HttpTransportV1(new URL(listener.url))));
    cleanup.push(() => client.close());
    expect(await client.callTool({ name: 'echo', arguments: { text: 'stateless' } })).toEqual({
      content: [{ type: 'text', text: 'stateless' }],
    });
    expect((await client.callTool({ name: 'ask_name', arguments: {} })).content).toEqual([
      { type: 'text', text: 'hello Kay' },
    ]);
    wire.assertClean();
  });

  test('close() lets a running call finish and answer before the server stops', async () => {
    const server = makeServer();
    const listener = await server.listen({ port: 0, handleSignals: false });
    const client = new Client({ name: 'drain', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    const call = client.callTool({ name: 'hang', arguments: { key: 'd' } }); // times out after 50 ms: an isError answer
    while (server.dispatcher.inFlight === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    const closed = server.close();
    const result = await call;
    expect(result.isError).toBe(true);
    await closed;
    await expect(fetch(listener.url, { method: 'POST' })).rejects.toThrow();
  });
});

describe('embedding handlers', () => {
  test('nodeHandler and fetchHandler share one endpoint and its sessions', async () => {
    const server = makeServer();
    const node = createNodeServer(server.nodeHandler());
    await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise((resolve) => node.close(resolve)));
    const url = `http://127.0.0.1:${(node.address() as AddressInfo).port}/mcp`;
    const client = new Client({ name: 'node-handler', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    cleanup.push(() => client.close());
    expect((await client.callTool({ name: 'echo', arguments: { text: 'via node' } })).content).toEqual([
      { type: 'text', text: 'via node' },
    ]);
    // The same session, reached through the fetch handler.
    const response = await server.fetchHandler()(
      new Request(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': transport.sessionId!,
          'mcp-protocol-version': '2025-11-25',
          host: new URL(url).host,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'echo', arguments: { text: 'via fetch' } },
        }),
      }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'via fetch' }] },
    });
    expect(() => server.fetchHandler({ path: '/other' })).toThrow(/already exists/);
  });
});
