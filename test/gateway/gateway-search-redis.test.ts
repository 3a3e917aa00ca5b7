/**
 * Search mode on several gateway instances (DESIGN "Scale past one
 * machine"): two gateways in `--tools search` share one real redis-server. A
 * session opened through instance A finds a tool through instance B: A's
 * client hears list_changed on the stream it holds on A, lists the tool
 * through A and calls it through B; another session sees none of it. A
 * 2026-07-28 client (no session) finds through one and lists through the other.
 */
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createGateway } from '../../src/gateway/index.js';
import { modernRequest, POST_HEADERS, waitFor } from '../support/http-support.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';

const fixture = join(import.meta.dirname, '../fixtures/gateway/upstream.mjs');
const silent = { error() {}, warn() {}, info() {}, debug() {} };
let redis: RedisServer;
let a: string;
let b: string;
const open: Array<() => Promise<unknown>> = [];

async function startGateway(): Promise<string> {
  const gateway = await createGateway({
    servers: { notes: { command: process.execPath, args: [fixture], stderr: 'ignore' } },
    toolList: 'search',
    policy: 'yolo',
    logger: silent,
    redis: redis.url,
  });
  const listener = await gateway.listen({ port: 0, handleSignals: false });
  open.push(
    () => gateway.close(),
    () => listener.close(),
  );
  return listener.url;
}

beforeAll(async () => {
  redis = await startRedis();
  [a, b] = await Promise.all([startGateway(), startGateway()]);
}, 60_000);

afterAll(async () => {
  for (const close of open.reverse()) await close().catch(() => {});
  await redis?.stop();
});

/** One request of an existing 2025 session, sent to any instance. */
async function inSession(url: string, session: string, method: string, params: object = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...POST_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  expect(response.status).toBe(200);
  const text = await response.text();
  // A JSON body, or one SSE event carrying it.
  const json = text.startsWith('{') ? text : text.slice(text.indexOf('data: ') + 6).split('\n')[0]!;
  return JSON.parse(json) as { result?: Record<string, unknown>; error?: { message: string } };
}

/** A 2026-07-28 request (no session, no auth). */
const modern = (url: string, method: 'tools/list' | 'tools/call', name?: string, args: object = {}) =>
  modernRequest(url, method, name === undefined ? {} : { name, args });

const names = (tools: unknown) => (tools as Array<{ name: string }>).map((t) => t.name).sort();

test('a tool found through instance B is listed and callable through A and B for the same session', async () => {
  let changes = 0;
  const client = new Client({ name: 'search-redis', version: '1.0.0' });
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    changes++;
  });
  const transport = new StreamableHTTPClientTransport(new URL(a));
  await client.connect(transport);
  open.push(() => client.close());
  const session = transport.sessionId!;
  expect(names((await client.listTools()).tools)).toEqual(['find_tools']);

  // find_tools through B, in the session opened on A.
  const found = await inSession(b, session, 'tools/call', {
    name: 'find_tools',
    arguments: { query: 'delete every note', limit: 1 },
  });
  expect(names((found.result!.structuredContent as { tools: unknown }).tools)).toEqual(['notes__delete_notes']);
  // The client's stream is on A: A sends the list_changed B's find caused.
  await waitFor(() => changes === 1, 'list_changed through instance A');
  expect(names((await client.listTools()).tools)).toEqual(['find_tools', 'notes__delete_notes']);
  const listedOnB = await inSession(b, session, 'tools/list');
  expect(names(listedOnB.result!.tools)).toEqual(['find_tools', 'notes__delete_notes']);
  // Callable through both instances.
  const onA = await client.callTool({ name: 'notes__delete_notes', arguments: {} });
  expect(JSON.stringify(onA.content)).toContain('deleted');
  const onB = await inSession(b, session, 'tools/call', { name: 'notes__delete_notes', arguments: {} });
  expect(onB.result?.isError).toBeFalsy();
  expect(JSON.stringify(onB.result?.content)).toContain('deleted');

  // Another session, through either instance, lists none of it and is refused the call.
  const other = new Client({ name: 'search-redis-2', version: '1.0.0' });
  const otherTransport = new StreamableHTTPClientTransport(new URL(b));
  await other.connect(otherTransport);
  open.push(() => other.close());
  expect(names((await other.listTools()).tools)).toEqual(['find_tools']);
  const refused = await inSession(a, otherTransport.sessionId!, 'tools/call', {
    name: 'notes__delete_notes',
    arguments: {},
  });
  expect(refused.error?.message).toMatch(/not in this session's tool list yet: call find_tools/);
});

test('a 2026-07-28 client finds through one instance and lists through the other', async () => {
  const before = await modern(b, 'tools/list');
  expect(names(before.result!.tools)).not.toContain('notes__read_notes');
  const found = await modern(a, 'tools/call', 'find_tools', { query: 'list the notes', limit: 1 });
  expect(names((found.result!.structuredContent as { tools: unknown }).tools)).toEqual(['notes__read_notes']);
  expect(names((await modern(b, 'tools/list')).result!.tools)).toContain('notes__read_notes');
  const ran = await modern(b, 'tools/call', 'notes__read_notes');
  expect(ran.result?.isError).toBeFalsy();
});
