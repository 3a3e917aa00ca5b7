/**
 * A server that imports candor and serves one tool loads only what it uses:
 * the modules it has loaded once its first tools/call is answered, over stdio,
 * by a real process (test/fixtures/one-tool-server.mjs on plain node, dist/).
 * A list of modules, not a measure of memory: bench/rss.ts measures that.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, REPO } from '../support/cli-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'candor-modules-'));

/** Every module (ES and CommonJS) the one-tool server loaded up to its first answered call and exit. */
async function modulesOf(schema: 'zod' | 'json'): Promise<string[]> {
  const log = join(dir, `${schema}.log`);
  const child = spawn(
    process.execPath,
    [
      '--import',
      join(REPO, 'test', 'fixtures', 'module-log', 'register.mjs'),
      join(REPO, 'test', 'fixtures', 'one-tool-server.mjs'),
      schema,
    ],
    { env: { ...process.env, MODULE_LOG: log }, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
  let out = '';
  const answered = new Promise<void>((resolve) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('"id":2,')) resolve();
    });
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' } } });
  await answered;
  expect(out).toContain('"text":"hello"');
  child.stdin.end(); // the stdio server exits when its input ends; the log's exit hook writes the CommonJS list
  await exited;
  return readFileSync(log, 'utf8').trim().split('\n');
}

/** The npm packages among the modules (`@scope/name` or `name`). */
function packagesOf(modules: string[]): Set<string> {
  const names = new Set<string>();
  for (const m of modules) {
    const at = m.lastIndexOf('node_modules/');
    if (at < 0) continue;
    const [first, second] = m.slice(at + 'node_modules/'.length).split('/');
    names.add(first!.startsWith('@') ? `${first}/${second}` : first!);
  }
  return names;
}

/** candor's own folders among the modules (dist/src/<folder>/…). */
function foldersOf(modules: string[]): Set<string> {
  const folders = new Set<string>();
  for (const m of modules) {
    const match = /\/dist\/src\/([^/]+)\//.exec(m);
    if (match) folders.add(match[1]!);
  }
  return folders;
}

/** Packages only some servers need: OAuth (jose), rules (cedar), clients, Redis, limits, globs, the console. */
const NOT_FOR_ONE_TOOL = [
  'jose',
  '@cedar-policy/cedar-wasm',
  '@modelcontextprotocol/client',
  '@modelcontextprotocol/sdk',
  '@modelcontextprotocol/server',
  'ioredis',
  'rate-limiter-flexible',
  'picomatch',
  'playwright-core',
  'tree-sitter',
  'tree-sitter-bash',
  '@opentelemetry/api',
];
/** candor's faces that a server never needs: the host, the gateway, the console, the CLI, observe, scan. */
const NOT_FOR_A_SERVER = ['host', 'gateway', 'ui', 'cli', 'observe', 'scan', 'setup', 'targets', 'sandbox', 'adapters'];

describe('a server that imports candor and serves one tool', () => {
  let zod: string[];
  let json: string[];
  beforeAll(async () => {
    ensureBuilt();
    [zod, json] = await Promise.all([modulesOf('zod'), modulesOf('json')]);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads the engine, its transports and zod, and no package it does not use', () => {
    const packages = packagesOf(zod);
    expect(packages.has('zod')).toBe(true);
    expect(foldersOf(zod)).toContain('engine');
    for (const name of NOT_FOR_ONE_TOOL) expect(packages, name).not.toContain(name);
    // A zod schema validates with zod: Ajv is for plain JSON Schemas only.
    expect(packages).not.toContain('ajv');
  });

  it('with a plain JSON Schema, loads Ajv to validate it and still nothing it does not use', () => {
    const packages = packagesOf(json);
    expect(packages).toContain('ajv');
    for (const name of NOT_FOR_ONE_TOOL) expect(packages, name).not.toContain(name);
  });

  it("loads none of candor's client-side faces", () => {
    const folders = foldersOf(zod);
    for (const folder of NOT_FOR_A_SERVER) expect(folders, folder).not.toContain(folder);
  });
});
