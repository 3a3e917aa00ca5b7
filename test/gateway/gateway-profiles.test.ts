/**
 * Gateway profiles with real upstreams (server-memory,
 * server-filesystem, and the candor fixture whose write_note lies that it is
 * read-only) and real SDK v2 clients: each profile at /mcp/<name> next to the
 * full /mcp; a read-only profile lists only tools whose *tightened* hints say
 * read-only; a tool outside the profile is not callable there; a profile in
 * search mode; `--profile` over stdio and `--print-config --profile` through the
 * built CLI.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';
import { CLI, ensureBuilt, runCli } from '../support/cli-harness.js';

const require = createRequire(import.meta.url);
const bin = (pkg: string) => require.resolve(`@modelcontextprotocol/${pkg}/dist/index.js`);
const fixture = join(import.meta.dirname, '../fixtures/gateway/upstream.mjs');
const dir = mkdtempSync(join(tmpdir(), 'candor-gateway-profiles-'));
const silent = { error() {}, warn() {}, info() {}, debug() {} };
const open: Array<() => Promise<unknown>> = [];
let url: string;

const config = {
  servers: {
    memory: {
      command: process.execPath,
      args: [bin('server-memory')],
      env: { MEMORY_FILE_PATH: join(dir, 'm.jsonl') },
    },
    files: { command: process.execPath, args: [bin('server-filesystem'), dir] },
    notes: { command: process.execPath, args: [fixture] },
  },
  policy: 'yolo',
  profiles: {
    reader: { readOnly: true },
    mem: { servers: ['memory'], toolList: 'search' },
    browse: { tools: ['files__list_*', 'read_text_file'] },
  },
} satisfies Omit<GatewayOptions, 'logger'>;

beforeAll(async () => {
  ensureBuilt();
  writeFileSync(join(dir, 'a.txt'), 'hello');
  writeFileSync(join(dir, 'candor.gateway.json'), JSON.stringify(config));
  const gateway = await createGateway({ logger: silent, ...config });
  const listener = await gateway.listen({ port: 0, handleSignals: false });
  url = listener.url;
  open.push(
    () => gateway.close(),
    () => listener.close(),
  );
}, 60_000);

afterAll(async () => {
  for (const close of open.reverse()) await close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

async function client(path = ''): Promise<Client> {
  const c = new Client({ name: 'profiles', version: '1.0.0' });
  await c.connect(new StreamableHTTPClientTransport(new URL(`${url}${path}`)));
  open.push(() => c.close());
  return c;
}
const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name).sort();
const refusal = (c: Client, name: string, args: Record<string, unknown> = {}) =>
  c.callTool({ name, arguments: args }).then(
    () => 'called',
    (error: Error) => error.message,
  );

describe('profiles over HTTP', () => {
  test('/mcp is the whole gateway, without find_tools', async () => {
    const all = await names(await client());
    expect(all).toContain('memory__create_entities');
    expect(all).toContain('notes__write_note');
    expect(all).not.toContain('find_tools');
  });

  test('/mcp/reader lists only tools whose tightened hints are read-only (not the lying write_note)', async () => {
    const c = await client('/reader');
    const listed = (await c.listTools()).tools;
    expect(listed.length).toBeGreaterThan(5);
    for (const tool of listed) expect(tool.annotations?.readOnlyHint).toBe(true);
    const listedNames = listed.map((t) => t.name);
    expect(listedNames).toContain('memory__read_graph');
    expect(listedNames).toContain('notes__read_notes');
    expect(listedNames).not.toContain('notes__write_note');
    expect(await refusal(c, 'notes__write_note', { text: 'x' })).toMatch(/Unknown tool: notes__write_note/);
    const read = await c.callTool({ name: 'files__read_text_file', arguments: { path: join(dir, 'a.txt') } });
    expect(JSON.stringify(read.content)).toContain('hello');
  });

  test('/mcp/browse: tool globs on server__tool names', async () => {
    expect(await names(await client('/browse'))).toEqual([
      'files__list_allowed_directories',
      'files__list_directory',
      'files__list_directory_with_sizes',
    ]);
  });

  test('/mcp/mem: search mode over one server; find_tools finds only its tools', async () => {
    const c = await client('/mem');
    let changes = 0;
    c.setNotificationHandler('notifications/tools/list_changed', () => {
      changes++;
    });
    expect(await names(c)).toEqual(['find_tools']);
    const found = await c.callTool({ name: 'find_tools', arguments: { query: 'read a file or the graph' } });
    const tools = (found.structuredContent as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(tools).toContain('memory__read_graph');
    expect(tools.every((n) => n.startsWith('memory__'))).toBe(true);
    const end = Date.now() + 5000;
    while (changes === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(changes).toBe(1);
    expect(await names(c)).toContain('memory__read_graph');
    // The full endpoint's sessions are not affected.
    expect(await names(await client())).not.toContain('find_tools');
    expect(await refusal(c, 'files__read_text_file', { path: 'a.txt' })).toMatch(/Unknown tool/);
  });

  test('an unknown profile path is 404', async () => {
    const response = await fetch(`${url}/nope`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(response.status).toBe(404);
  });
});

describe('profiles from the CLI', () => {
  test('--profile over stdio serves that profile to an SDK v2 client', async () => {
    const c = new Client({ name: 'stdio-profile', version: '1.0.0' });
    await c.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'gateway', '--config', join(dir, 'candor.gateway.json'), '--stdio', '--profile', 'browse'],
        stderr: 'ignore',
        cwd: dir,
      }),
    );
    open.push(() => c.close());
    expect(await names(c)).toEqual([
      'files__list_allowed_directories',
      'files__list_directory',
      'files__list_directory_with_sizes',
    ]);
  }, 60_000);

  test('--print-config --profile prints the entry for that profile; an unknown profile is refused', async () => {
    const cfg = join(dir, 'candor.gateway.json');
    const stdio = await runCli(['gateway', '--config', cfg, '--print-config', 'claude', '--profile', 'reader'], {
      cwd: dir,
    });
    expect(stdio.stdout).toMatch(
      /^claude mcp add candor-gateway-reader -- \S+ \S+ gateway --stdio --config \S+ --profile reader\n$/,
    );
    const http = await runCli(
      ['gateway', '--config', cfg, '--print-config', 'gemini', '--profile', 'reader', '--http', '4100'],
      { cwd: dir },
    );
    expect(http.stdout).toBe(
      'gemini mcp add --transport http candor-gateway-reader http://127.0.0.1:4100/mcp/reader\n',
    );
    const bad = await runCli(['gateway', '--config', cfg, '--print-config', 'claude', '--profile', 'nope'], {
      cwd: dir,
    });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--profile nope: no such profile; the config's profiles are reader, mem, browse/);
  });
});
