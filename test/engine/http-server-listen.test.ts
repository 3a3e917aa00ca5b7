/**
 * The HTTP transport through the public server API: `server.listen()` and
 * the embedding handler shared by `nodeHandler()` / `fetchHandler()`.
 */
import { createServer as createNodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, expect, test } from 'vitest';
import { silentLogger } from '../../src/util/logger.js';
import { buildTestServer } from '../support/engine-server.js';
import { closeAll, INITIALIZE, post, track } from '../support/http-support.js';

afterEach(closeAll);

test('server.listen() serves /mcp on 127.0.0.1 and server.close() shuts it down', async () => {
  const { server } = buildTestServer({ logger: silentLogger });
  const listener = await server.listen({ port: 0, handleSignals: false, env: {} });
  track({ close: () => server.close() });
  expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const client = new Client({ name: 'listen-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
  expect((await client.callTool({ name: 'echo', arguments: { text: 'through listen' } })).content).toEqual([
    { type: 'text', text: 'through listen' },
  ]);
  await client.close();
  await server.close();
  await expect(fetch(listener.url, { method: 'POST' })).rejects.toThrow();
});

test('nodeHandler() and fetchHandler() share one endpoint, so a session from one works on the other', async () => {
  const { server } = buildTestServer({ logger: silentLogger });
  track({ close: () => server.close() });
  const http = createNodeServer(server.nodeHandler({ env: {} }));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  track({ close: () => new Promise<void>((resolve) => http.close(() => resolve())) });
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  const init = await post(url, INITIALIZE);
  const session = init.headers.get('mcp-session-id')!;
  await init.text();
  const answer = await server.fetchHandler()(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'mcp-session-id': session },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
    }),
  );
  expect(await answer.json()).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
});
