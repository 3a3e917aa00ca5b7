/**
 * Two gateways sharing one real Redis: a per-server rate limit is
 * one budget across both, and a session opened through one gateway is served
 * by the other.
 */
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createGateway } from '../../src/gateway/index.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';

const fixture = join(import.meta.dirname, '../fixtures/gateway/upstream.mjs');
const silent = { error() {}, warn() {}, info() {}, debug() {} };
let redis: RedisServer;
const open: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const close of open.reverse()) await close().catch(() => {});
  await redis?.stop();
});

async function startGateway(): Promise<string> {
  const gateway = await createGateway({
    servers: { notes: { command: process.execPath, args: [fixture], stderr: 'ignore' } },
    policy: 'yolo',
    logger: silent,
    redis: redis.url,
    rateLimits: { servers: { notes: { windowMs: 60_000, max: 3 } } },
  });
  const listener = await gateway.listen({ port: 0, handleSignals: false });
  open.push(
    () => gateway.close(),
    () => listener.close(),
  );
  return listener.url;
}

test('a per-server limit of 3 is one budget for two gateways; a session moves between them', async () => {
  const [first, second] = await Promise.all([startGateway(), startGateway()]);
  const client = new Client({ name: 'gw-redis', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(first));
  await client.connect(transport);
  open.push(() => client.close());
  const results = [];
  results.push(await client.callTool({ name: 'notes__read_notes', arguments: {} }));
  results.push(await client.callTool({ name: 'notes__read_notes', arguments: {} }));
  // The same session, through the other gateway.
  const other = new Client({ name: 'gw-redis-2', version: '1.0.0' });
  await other.connect(new StreamableHTTPClientTransport(new URL(second)));
  open.push(() => other.close());
  results.push(await other.callTool({ name: 'notes__read_notes', arguments: {} }));
  results.push(await other.callTool({ name: 'notes__read_notes', arguments: {} }));
  expect(results.map((r) => r.isError === true)).toEqual([false, false, false, true]);
  expect(JSON.stringify(results[3]!.content)).toContain('server \\"notes\\"');
  const moved = await fetch(second, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': transport.sessionId!,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
  });
  expect(moved.status).toBe(200);
  const listed = (await moved.json()) as { result: { tools: Array<{ name: string }> } };
  expect(listed.result.tools.map((t) => t.name)).toContain('notes__read_notes');
});
