/**
 * The ways undo used to lose data, replayed as people run into them, with the real
 * Claude Code making its own changes to ~/.claude.json (its state keys on every run, its
 * servers with `claude mcp add`), and Gemini CLI's own entry keys. After `--undo` every
 * server is back in the client, every key the client wrote is kept, and a server added
 * behind the gateway with `candor gateway add` moves into the client too.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'jsonc-parser';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, REPO, runCli } from '../support/cli-harness.js';
import { available, runClient } from '../support/real-clients.js';

const MEMORY = path.join(REPO, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
const FILESYSTEM = path.join(REPO, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');
let home: string;
const cli = (args: string[]) =>
  runCli(args, { cwd: home, env: { HOME: home, XDG_CONFIG_HOME: '', APPDATA: '' }, timeoutMs: 120_000 });
const claude = (...args: string[]) => runClient('claude', args, home);
const state = () => JSON.parse(readFileSync(path.join(home, '.claude.json'), 'utf8'));
const memory = (file: string) => ({ type: 'stdio', command: 'node', args: [MEMORY], env: { MEMORY_FILE_PATH: file } });

beforeAll(() => ensureBuilt(), 120_000);
beforeEach(() => {
  home = mkdtempSync(path.join(tmpdir(), 'candor-undo-'));
  const file = path.join(home, '.claude.json');
  writeFileSync(
    file,
    `${JSON.stringify({ numStartups: 1, mcpServers: { memory: memory(path.join(home, 'm.jsonl')) } }, null, 2)}\n`,
  );
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const setup = async () => {
  const run = await cli(['setup', 'claude-code', '--scope', 'user', '--yes']);
  expect(run.code, run.stderr).toBe(0);
  return run;
};

describe('undo after Claude Code changed ~/.claude.json', () => {
  it.skipIf(!available('claude'))(
    "setup, Claude Code runs, setup again, undo: Claude Code's own keys are kept and the server is back",
    async () => {
      await setup();
      await claude('mcp', 'list');
      const written = state();
      expect(written.userID).toEqual(expect.any(String));
      expect(written.machineID).toEqual(expect.any(String));
      await setup();
      const undo = await cli(['setup', 'claude-code', '--scope', 'user', '--undo']);
      expect(undo.code, undo.stderr).toBe(0);
      const after = state();
      for (const key of ['userID', 'machineID', 'migrationVersion', 'firstStartTime'])
        expect(after[key]).toEqual(written[key]);
      expect(after.mcpServers).toEqual({ memory: memory(path.join(home, 'm.jsonl')) });
    },
    240_000,
  );

  it.skipIf(!available('claude'))(
    'setup, claude mcp add, setup again, undo: the server added between the runs is back with the first',
    async () => {
      await setup();
      await claude('mcp', 'add', '--scope', 'user', 'everything', '-e', 'TOKEN=tok-1', '--', 'node', MEMORY);
      await setup();
      expect(Object.keys(state().mcpServers)).toEqual(['candor']);
      const undo = await cli(['setup', 'claude-code', '--scope', 'user', '--undo']);
      expect(undo.code, undo.stderr).toBe(0);
      expect(undo.stdout).toContain('Put back: memory, everything.');
      expect(state().mcpServers.everything).toEqual({
        type: 'stdio',
        command: 'node',
        args: [MEMORY],
        env: { TOKEN: 'tok-1' },
      });
      expect(await claude('mcp', 'list')).toMatch(/^everything: .+ - ✔ Connected/m);
    },
    240_000,
  );

  it.skipIf(!available('claude'))(
    'setup, claude mcp add, undo: the server added since setup stays and the moved one comes back',
    async () => {
      await setup();
      await claude('mcp', 'add', '--scope', 'user', 'everything', '--', 'node', MEMORY);
      const undo = await cli(['setup', 'claude-code', '--scope', 'user', '--undo']);
      expect(undo.code, undo.stderr).toBe(0);
      expect(Object.keys(state().mcpServers).sort()).toEqual(['everything', 'memory']);
      expect(state().mcpServers.candor).toBeUndefined();
    },
    240_000,
  );

  it.skipIf(!available('claude'))(
    'a server added behind the gateway with candor gateway add moves into the client on undo, and one taken out with gateway remove stays out',
    async () => {
      await setup();
      const add = await cli([
        'gateway',
        'add',
        'files',
        '--yes',
        '--env',
        'ROOT_NOTE=kept',
        '--',
        'node',
        FILESYSTEM,
        home,
      ]);
      expect(add.code, add.stderr).toBe(0);
      expect(add.stdout).toMatch(/Added files to claude-code \(user\): .+: 14 tools\./);
      expect(add.stdout).toContain('Pinned and trusted: files.');
      // The same tools again under another name: the door keeps it out (its names would shadow memory's).
      const twin = await cli(['gateway', 'add', 'twin', '--yes', '--', 'node', MEMORY]);
      expect(twin.stdout).toMatch(/Quarantined until pinned \(the scan at the door keeps tools of it out\): twin/);
      const status = await cli(['gateway', 'status']);
      expect(status.stdout).toMatch(/^ {2}memory +pinned, trusted/m);
      expect(status.stdout).toMatch(/^ {2}files +pinned, trusted/m);
      expect(status.stdout).toMatch(/^ {2}twin +quarantined/m);
      const remove = await cli(['gateway', 'remove', 'twin']);
      expect(remove.code, remove.stderr).toBe(0);
      const undo = await cli(['setup', 'claude-code', '--scope', 'user', '--undo']);
      expect(undo.code, undo.stderr).toBe(0);
      expect(undo.stdout).toContain('Added behind the gateway since setup, now in the client: files.');
      expect(state().mcpServers).toEqual({
        memory: memory(path.join(home, 'm.jsonl')),
        files: { type: 'stdio', command: 'node', args: [FILESYSTEM, home], env: { ROOT_NOTE: 'kept' } },
      });
      expect(await claude('mcp', 'list')).toMatch(/^files: .+ - ✔ Connected/m);
    },
    240_000,
  );
});

describe('undo never drops a server it cannot place', () => {
  it('writes a server whose name the client now uses for another one to a file, names it, and keeps both', async () => {
    await setup();
    const file = path.join(home, '.claude.json');
    const now = state();
    now.mcpServers.memory = { type: 'stdio', command: 'node', args: ['other.js'] };
    writeFileSync(file, JSON.stringify(now, null, 2));
    const undo = await cli(['setup', 'claude-code', '--scope', 'user', '--undo']);
    expect(undo.code).toBe(1);
    const leftover = /Not put back \(written to (.+)\):/.exec(undo.stdout)?.[1];
    expect(leftover, undo.stdout).toBeDefined();
    expect(undo.stdout).toContain(`memory: ${file} has another server named "memory" now`);
    expect(JSON.parse(readFileSync(leftover!, 'utf8')).servers.memory).toEqual(memory(path.join(home, 'm.jsonl')));
    expect(state().mcpServers).toEqual({ memory: { type: 'stdio', command: 'node', args: ['other.js'] } });
  }, 240_000);
});

describe("Gemini CLI's own entry keys", () => {
  it('keeps excludeTools, includeTools, timeout, trust and cwd through setup (the gateway honours them) and undo', async () => {
    const settings = path.join(home, '.gemini', 'settings.json');
    mkdirSync(path.dirname(settings));
    const entry = {
      command: 'node',
      args: [MEMORY],
      cwd: home,
      timeout: 45000,
      trust: true,
      excludeTools: ['delete_entities'],
      includeTools: ['read_graph', 'search_nodes', 'delete_entities'],
    };
    const text = `{\n  // mine\n  "mcpServers": { "memory": ${JSON.stringify(entry)} },\n  "ui": { "theme": "dark" }\n}\n`;
    writeFileSync(settings, text);
    const run = await cli(['setup', 'gemini', '--scope', 'user', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    const config = JSON.parse(readFileSync(/Gateway config: (.+)/.exec(run.stdout)![1]!, 'utf8'));
    expect(config.servers.memory).toMatchObject({ cwd: home, timeoutMs: 45000, trust: 'trusted' });
    // Through the entry as Gemini CLI would start it: the excluded tool and those not included are not offered.
    const listed = await cli(['inspect', `${settings}#candor`]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('memory__read_graph');
    expect(listed.stdout).toContain('memory__search_nodes');
    expect(listed.stdout).not.toContain('memory__delete_entities');
    expect(listed.stdout).not.toContain('memory__create_entities');
    const undo = await cli(['setup', 'gemini', '--scope', 'user', '--undo']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(readFileSync(settings, 'utf8')).toBe(text);
    expect(parse(readFileSync(settings, 'utf8')).mcpServers.memory).toEqual(entry);
  }, 240_000);
});
