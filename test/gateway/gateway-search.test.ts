/**
 * The gateway's search mode with real upstreams: six generated
 * catalog servers on the official SDK v1 (300 tools), server-filesystem,
 * server-memory and server-everything from npm. Real SDK v1 and v2 clients
 * (2025 era) and an SDK v2 client pinned to 2026-07-28: a session starts with
 * find_tools, what it finds joins that session's list (list_changed), with the
 * tool's own hints; other sessions do not see it; unlisted calls are refused
 * with an error that names find_tools. Search quality on 20 written queries is
 * measured and printed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGateway, type Gateway, type GatewayOptions } from '../../src/gateway/index.js';
import { CATALOG_SERVERS, QUERIES } from '../fixtures/gateway/catalog.mjs';
import { waitFor } from '../support/until.js';

const require = createRequire(import.meta.url);
const bin = (pkg: string) => require.resolve(`@modelcontextprotocol/${pkg}/dist/index.js`);
const catalogServer = join(import.meta.dirname, '../fixtures/gateway/catalog-server.mjs');
const dir = mkdtempSync(join(tmpdir(), 'candor-gateway-search-'));
const silent = { error() {}, warn() {}, info() {}, debug() {} };
const open: Array<() => Promise<unknown>> = [];
let gateway: Gateway;
let url: string;

function servers(): GatewayOptions['servers'] {
  const out: GatewayOptions['servers'] = {};
  for (const name of CATALOG_SERVERS) out[name] = { command: process.execPath, args: [catalogServer, name] };
  out.filesystem = { command: process.execPath, args: [bin('server-filesystem'), dir] };
  out.memory = {
    command: process.execPath,
    args: [bin('server-memory')],
    env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') },
  };
  out.everything = { command: process.execPath, args: [bin('server-everything')] };
  return out;
}

beforeAll(async () => {
  writeFileSync(join(dir, 'hello.txt'), 'hello');
  gateway = await createGateway({
    logger: silent,
    servers: servers(),
    toolList: 'search',
    alwaysList: ['memory__read_graph'],
    policy: 'yolo',
  });
  const listener = await gateway.listen({ port: 0, handleSignals: false });
  url = listener.url;
  // Nine upstream processes on a busy machine: wait until every one is up and its tools are served.
  await waitFor(
    () => gateway.status().every((s) => s.state === 'up') && gateway.server.registry.size > 330,
    'every upstream',
    60_000,
  );
  open.push(
    () => gateway.close(),
    () => listener.close(),
  );
}, 90_000);

afterAll(async () => {
  for (const close of open.reverse()) await close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

async function v2(modern = false): Promise<{ client: Client; changes: () => number }> {
  let changes = 0;
  const client = new Client(
    { name: 'search-v2', version: '1.0.0' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    changes++;
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  open.push(() => client.close());
  return { client, changes: () => changes };
}

async function v1(): Promise<{ client: ClientV1; changes: () => number }> {
  let changes = 0;
  const client = new ClientV1({ name: 'search-v1', version: '1.0.0' });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    changes++;
  });
  await client.connect(new HttpTransportV1(new URL(url)));
  open.push(() => client.close());
  return { client, changes: () => changes };
}

type Found = { tools: Array<{ name: string; annotations: Record<string, unknown> }> };
const names = (list: { tools: Array<{ name: string }> }) => list.tools.map((t) => t.name).sort();

describe('search mode', () => {
  test('every upstream is up: 300 catalog tools and the three npm servers', () => {
    const status = gateway.status();
    expect(status.every((s) => s.state === 'up')).toBe(true);
    expect(gateway.server.registry.size).toBeGreaterThan(330);
  });

  test('finds the right tool for 20 written queries (top-1 and top-3 measured)', async () => {
    const { client } = await v2();
    let top1 = 0;
    let top3 = 0;
    const misses: string[] = [];
    for (const { query, expect: wanted } of QUERIES) {
      const result = await client.callTool({ name: 'find_tools', arguments: { query, limit: 3 } });
      const found = (result.structuredContent as Found).tools.map((t) => t.name);
      if (found[0] === wanted) top1++;
      if (found.includes(wanted)) top3++;
      else misses.push(`${query} → ${found.join(', ')} (wanted ${wanted})`);
    }
    console.log(
      `find_tools on ${QUERIES.length} queries: top-1 ${top1 / QUERIES.length}, top-3 ${top3 / QUERIES.length}`,
    );
    if (misses.length > 0) console.log(`misses:\n${misses.join('\n')}`);
    expect(top1 / QUERIES.length).toBeGreaterThanOrEqual(0.8);
    expect(top3 / QUERIES.length).toBeGreaterThanOrEqual(0.95);
  });

  test('an SDK v1 client: starts with find_tools, gets list_changed, sees the found tools with their own hints', async () => {
    const { client, changes } = await v1();
    expect(names(await client.listTools())).toEqual(['find_tools', 'memory__read_graph']);
    const result = await client.callTool({
      name: 'find_tools',
      arguments: { query: 'delete a row in a database table' },
    });
    const found = (result.structuredContent as Found).tools;
    expect(found.map((t) => t.name)).toContain('db__delete_row');
    await waitFor(() => changes() === 1, 'list_changed');
    const listed = (await client.listTools()).tools;
    const row = listed.find((t) => t.name === 'db__delete_row');
    expect(row?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: false });
    const read = listed.find((t) => t.name === 'db__list_rows');
    expect(read?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    // Each listed tool carries the same annotations as in the full gateway's manifest.
    for (const tool of listed) {
      expect(tool.annotations).toEqual(gateway.server.registry.get(tool.name)?.wire.annotations);
    }
    expect(names({ tools: listed })).toEqual(['find_tools', ...found.map((t) => t.name), 'memory__read_graph'].sort());
    // Found tools are callable now.
    const ran = await client.callTool({ name: 'db__delete_row', arguments: { id: '7' } });
    expect(JSON.stringify(ran.content)).toContain('db.delete_row ran with');
    // The same search again adds nothing and sends no second notification.
    await client.callTool({ name: 'find_tools', arguments: { query: 'delete a row in a database table' } });
    // A search that finds new tools sends the next list_changed, in order after any the repeat could have sent.
    const fresh = QUERIES.find((q) => !listed.some((t) => t.name === q.expect))!;
    await client.callTool({ name: 'find_tools', arguments: { query: fresh.query } });
    await waitFor(() => changes() >= 2, 'the next list_changed');
    expect(changes()).toBe(2);
  });

  test('an SDK v2 client: list_changed arrives, and a found tool is not listed in another session', async () => {
    const a = await v2();
    const b = await v2();
    await a.client.callTool({ name: 'find_tools', arguments: { query: 'terminate a virtual machine', limit: 1 } });
    await waitFor(() => a.changes() === 1, 'list_changed in session a');
    expect(names(await a.client.listTools())).toEqual(['cloud__delete_instance', 'find_tools', 'memory__read_graph']);
    expect(names(await b.client.listTools())).toEqual(['find_tools', 'memory__read_graph']);
    expect(b.changes()).toBe(0);
    // Session b guessed the name: refused, and told how to get it.
    const refused = await b.client.callTool({ name: 'cloud__delete_instance', arguments: { id: 'i-1' } }).then(
      () => 'called',
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/not in this session's tool list yet: call find_tools/);
    const unknown = await b.client.callTool({ name: 'no_such_tool', arguments: {} }).then(
      () => 'called',
      (error: Error) => error.message,
    );
    expect(unknown).toMatch(/Unknown tool: no_such_tool.*find_tools/);
  });

  test('filters: readOnly and server', async () => {
    const { client } = await v2();
    const result = await client.callTool({
      name: 'find_tools',
      arguments: { query: 'files in a folder', readOnly: true, server: 'filesystem' },
    });
    const found = (result.structuredContent as Found).tools;
    expect(found.length).toBeGreaterThan(0);
    for (const tool of found) {
      expect(tool.name.startsWith('filesystem__')).toBe(true);
      expect(tool.annotations.readOnlyHint).toBe(true);
    }
    const none = await client.callTool({ name: 'find_tools', arguments: { query: 'zzzz qqqq' } });
    expect((none.structuredContent as Found).tools).toEqual([]);
    expect(JSON.stringify(none.content)).toMatch(/No tool matches/);
  });

  test('the 2026-07-28 era: an SDK v2 client pinned to it gets find_tools, the change on its listen stream, and the found tool', async () => {
    const { client, changes } = await v2(true);
    const subscription = await client.listen({ toolsListChanged: true });
    expect(names(await client.listTools())).toEqual(['find_tools', 'memory__read_graph']);
    await client.callTool({ name: 'find_tools', arguments: { query: 'book a conference room', limit: 1 } });
    await waitFor(() => changes() >= 1, 'list_changed on the listen stream');
    expect(names(await client.listTools())).toContain('calendar__create_room_booking');
    const refused = await client.callTool({ name: 'crm__delete_invoice', arguments: { id: '1' } }).then(
      () => 'called',
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/find_tools/);
    await subscription.close();
  });
});
