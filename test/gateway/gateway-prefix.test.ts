/**
 * Tool names downstream (`"prefix"`), with real upstreams from npm
 * (two server-memory instances, server-filesystem) and a real SDK v2 client:
 * `never` keeps the upstream names and refuses to start on a clash naming both
 * servers; `on-clash` prefixes only the shared names; policy rules keep using
 * `server__tool` whatever the client sees.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, describe, expect, test } from 'vitest';
import { createGateway, type GatewayOptions } from '../../src/gateway/index.js';

const require = createRequire(import.meta.url);
const bin = (pkg: string) => require.resolve(`@modelcontextprotocol/${pkg}/dist/index.js`);
const dir = mkdtempSync(join(tmpdir(), 'candor-gateway-prefix-'));
const silent = { error() {}, warn() {}, info() {}, debug() {} };
const open: Array<() => Promise<unknown>> = [];

afterAll(async () => {
  for (const close of open.reverse()) await close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

const memory = (file: string) => ({
  command: process.execPath,
  args: [bin('server-memory')],
  env: { MEMORY_FILE_PATH: join(dir, file) },
});
const files = { command: process.execPath, args: [bin('server-filesystem'), dir] };

async function serve(options: Omit<GatewayOptions, 'logger'>): Promise<Client> {
  const gateway = await createGateway({ logger: silent, ...options });
  const listener = await gateway.listen({ port: 0, handleSignals: false });
  open.push(
    () => gateway.close(),
    () => listener.close(),
  );
  const client = new Client({ name: 'prefix', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
  open.push(() => client.close());
  return client;
}

describe('prefix modes', () => {
  test('never: upstream names as they are; rules still name server__tool', async () => {
    const client = await serve({
      servers: { memory: memory('a.jsonl'), files },
      prefix: 'never',
      policy: {
        preset: 'yolo',
        rules: [{ decision: 'deny', tools: 'memory__delete_entities', reason: 'keep the graph' }],
      },
    });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('read_graph');
    expect(names).toContain('list_directory');
    expect(names.some((n) => n.includes('__'))).toBe(false);
    const created = await client.callTool({
      name: 'create_entities',
      arguments: { entities: [{ name: 'ada', entityType: 'person', observations: [] }] },
    });
    expect(created.isError).toBeFalsy();
    // The deny rule names memory__delete_entities: the tool is neither listed nor callable under its plain name.
    expect(names).not.toContain('delete_entities');
    const denied = await client.callTool({ name: 'delete_entities', arguments: { entityNames: ['ada'] } }).then(
      () => 'called',
      (error: Error) => error.message,
    );
    expect(denied).toMatch(/Unknown tool: delete_entities/);
  });

  test('never: refuses to start when two servers offer one name, naming both', async () => {
    const started = createGateway({
      logger: silent,
      servers: { memory: memory('b.jsonl'), notes: memory('c.jsonl') },
      prefix: 'never',
    });
    await expect(started).rejects.toThrow(/"read_graph" is offered by both memory and notes/);
  });

  test('on-clash: only the shared names are prefixed', async () => {
    const client = await serve({
      servers: { memory: memory('d.jsonl'), notes: memory('e.jsonl'), files },
      prefix: 'on-clash',
      policy: 'yolo',
    });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('memory__read_graph');
    expect(names).toContain('notes__read_graph');
    expect(names).not.toContain('read_graph');
    expect(names).toContain('list_directory');
    const listed = await client.callTool({ name: 'list_directory', arguments: { path: dir } });
    expect(listed.isError).toBeFalsy();
  });
});
