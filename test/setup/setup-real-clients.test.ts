/**
 * The gateway entry `candor setup` leaves, checked by the real clients: Claude Code's
 * and Gemini CLI's own `mcp list` must report it connected, and the servers it took
 * over must answer calls through it. The CLIs are not npm dependencies of candor
 * (they need Node 22): the test runs where they are installed (CANDOR_CLIENTS_DIR and
 * CANDOR_NODE22_BIN, as .ci/run sets them) and is skipped elsewhere.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, REPO, runCli } from '../support/cli-harness.js';
import { available, runClient as client } from '../support/real-clients.js';

const run = promisify(execFile);
const MEMORY = path.join(REPO, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'candor-setup-clients-'));
  if (available('claude') || available('gemini')) ensureBuilt();
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A throwaway HOME holding one client file with the memory server (its env carrying a secret). */
function homeWith(relative: string, extra: Record<string, unknown> = {}): { home: string; file: string } {
  const home = mkdtempSync(path.join(root, 'home-'));
  const file = path.join(home, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  const memory = { command: 'node', args: [MEMORY], env: { MEMORY_FILE_PATH: path.join(home, 'memory.jsonl') } };
  writeFileSync(file, `${JSON.stringify({ ...extra, mcpServers: { memory } }, null, 2)}\n`);
  return { home, file };
}

/**
 * The day after setup, through the gateway entry exactly as the client's file says to start
 * it (command, args, env): a read-only tool of the former server runs without a question
 * (setup --yes pinned and trusted it), a destructive one asks once (an SDK v2 client that
 * answers as a person would), and a client that cannot ask gets a refusal saying what to do.
 */
async function callThrough(file: string, home: string, mapPath: string[]): Promise<string> {
  // The memory server's own file, seeded before: what read_graph answers comes from that server.
  const seeded = { type: 'entity', name: 'seeded-before-setup', entityType: 'test', observations: [] };
  writeFileSync(path.join(home, 'memory.jsonl'), `${JSON.stringify(seeded)}\n`);
  const map = mapPath.reduce((node, key) => node[key], JSON.parse(readFileSync(file, 'utf8')));
  const entry = map.candor;
  const transport = () =>
    new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: { PATH: process.env.PATH ?? '', ...entry.env },
    });
  const mute = new Client({ name: 'no-questions', version: '1.0.0' });
  await mute.connect(transport());
  try {
    const refused = await mute.callTool({
      name: 'memory__delete_entities',
      arguments: { entityNames: ['seeded-before-setup'] },
    });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('cannot show questions');
    expect(JSON.stringify(refused.content)).toContain('"decision\\": \\"allow\\"');
  } finally {
    await mute.close();
  }
  const client = new Client({ name: 'setup-check', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push((request.params as { message: string }).message);
    return { action: 'accept', content: { decision: 'allow-once' } } as never;
  });
  await client.connect(transport());
  try {
    const result = await client.callTool({ name: 'memory__read_graph', arguments: {} });
    expect(asked).toHaveLength(0);
    const deleted = await client.callTool({ name: 'memory__delete_entities', arguments: { entityNames: ['nobody'] } });
    expect(deleted.isError, JSON.stringify(deleted.content)).toBeFalsy();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('memory__delete_entities');
    return JSON.stringify(result.content);
  } finally {
    await client.close();
  }
}

describe('the gateway entry candor setup writes works in the real clients', () => {
  it.skipIf(!available('claude'))(
    'claude mcp list reports the candor entry connected, and the memory server answers through it',
    async () => {
      const { home, file } = homeWith('.claude.json', { numStartups: 1 });
      const setup = await runCli(['setup', 'claude-code', '--scope', 'user', '--yes'], {
        env: { HOME: home, XDG_CONFIG_HOME: '' },
        timeoutMs: 120_000,
      });
      expect(setup.code, setup.stderr).toBe(0);
      const list = await client('claude', ['mcp', 'list'], home);
      expect(list).toMatch(/candor: .+ - ✔ Connected/);
      expect(list).not.toMatch(/^memory:/m);
      expect(await callThrough(file, home, ['mcpServers'])).toContain('seeded-before-setup');
    },
    240_000,
  );

  it.skipIf(!available('claude'))(
    'claude mcp list run in the project reports the candor entry of its local scope connected, and the memory server answers through it',
    async () => {
      const { home, file } = homeWith('.claude.json', { numStartups: 1 });
      // The servers `claude mcp add` keeps for one project: moved from the top level into projects["<folder>"],
      // the folder being the git repository's top; setup runs in one subfolder and Claude Code in another.
      const project = realpathSync(mkdtempSync(path.join(root, 'project-')));
      await run('git', ['init', '-q'], { cwd: project });
      const [src, docs] = [path.join(project, 'src'), path.join(project, 'docs')];
      for (const dir of [src, docs]) mkdirSync(dir);
      const state = JSON.parse(readFileSync(file, 'utf8'));
      state.projects = { [project]: { allowedTools: [], mcpServers: state.mcpServers } };
      state.mcpServers = {};
      writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`);
      const before = await client('claude', ['mcp', 'list'], home, docs);
      expect(before).toMatch(/^memory: .+ - ✔ Connected/m);
      const setup = await runCli(['setup', 'claude-code', '--scope', 'local', '--yes'], {
        env: { HOME: home, XDG_CONFIG_HOME: '' },
        cwd: src,
        timeoutMs: 120_000,
      });
      expect(setup.code, setup.stderr).toBe(0);
      const list = await client('claude', ['mcp', 'list'], home, docs);
      expect(list).toMatch(/candor: .+ - ✔ Connected/);
      expect(list).not.toMatch(/^memory:/m);
      const scope = await client('claude', ['mcp', 'get', 'candor'], home, docs);
      expect(scope).toMatch(/Scope: Local config/);
      // Outside the project its entry is not in effect, as with any local-scope server.
      expect(await client('claude', ['mcp', 'list'], home, home)).not.toMatch(/candor:/);
      expect(await callThrough(file, home, ['projects', project, 'mcpServers'])).toContain('seeded-before-setup');
    },
    240_000,
  );

  it.skipIf(!available('gemini'))(
    'gemini mcp list reports the candor entry connected, and the memory server answers through it',
    async () => {
      const { home, file } = homeWith(path.join('.gemini', 'settings.json'));
      writeFileSync(path.join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [home]: 'TRUST_FOLDER' }));
      const setup = await runCli(['setup', 'gemini', '--scope', 'user', '--yes'], {
        env: { HOME: home, XDG_CONFIG_HOME: '' },
        cwd: home,
        timeoutMs: 120_000,
      });
      expect(setup.code, setup.stderr).toBe(0);
      const list = await client('gemini', ['mcp', 'list'], home);
      expect(list).toMatch(/candor: .+ \(stdio\) - Connected/);
      expect(await callThrough(file, home, ['mcpServers'])).toContain('seeded-before-setup');
    },
    240_000,
  );
});
