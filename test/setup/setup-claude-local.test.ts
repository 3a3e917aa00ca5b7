/**
 * `candor setup claude-code --scope local`: the servers `claude mcp add` keeps for one
 * project inside ~/.claude.json (`projects["<folder>"].mcpServers`), through the CLI as
 * people run it, in a throwaway HOME, with server-memory from npm started for real. The
 * file is written the way Claude Code writes it (JSON.stringify, two spaces), and other
 * projects, the user scope and Claude Code's own state share it.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, REPO, runCli } from '../support/cli-harness.js';
import { snapshot } from '../support/file-snapshot.js';

const MEMORY = path.join(REPO, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
let root: string;
let home: string;
let project: string;
let other: string;
let file: string;

const setup = (args: string[], cwd = project) =>
  runCli(['setup', ...args], {
    cwd,
    env: { HOME: home, XDG_CONFIG_HOME: '', APPDATA: '' },
    timeoutMs: 120_000,
  });

const stdio = (extra: Record<string, unknown> = {}) => ({ type: 'stdio', command: 'node', args: [MEMORY], env: extra });

interface ClaudeState {
  numStartups: number;
  mcpServers: Record<string, unknown>;
  projects: Record<string, Record<string, unknown> & { mcpServers: unknown }>;
}

/** ~/.claude.json as Claude Code leaves it after `claude mcp add` in two projects and one `--scope user`. */
function claudeState(): ClaudeState {
  return {
    numStartups: 4,
    mcpServers: { everywhere: stdio() },
    projects: {
      [project]: {
        allowedTools: [],
        mcpServers: { memory: stdio({ MEMORY_FILE_PATH: path.join(root, 'memory.jsonl'), API_KEY: 'sk-local-5678' }) },
        hasTrustDialogAccepted: false,
      },
      [other]: { allowedTools: ['Bash'], mcpServers: { notes: stdio() } },
    },
  };
}

const writeState = (state: unknown) => writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`);
const readState = () => JSON.parse(readFileSync(file, 'utf8'));

beforeAll(() => ensureBuilt(), 120_000);
beforeEach(() => {
  // Claude Code keys projects by the real path of the folder it runs in.
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'candor-setup-local-')));
  home = path.join(root, 'home');
  project = path.join(root, 'project');
  other = path.join(root, 'other');
  for (const dir of [home, project, other]) mkdirSync(dir);
  file = path.join(home, '.claude.json');
  writeState(claudeState());
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('candor setup with Claude Code local scope', () => {
  it("lists each project's local servers in ~/.claude.json beside the user scope", async () => {
    const run = await setup([]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/claude-code --scope user\s+\S+\.claude\.json {2}\(1 server\(s\): everywhere\)/);
    expect(run.stdout).toContain(`claude-code --scope local      ${file}, project ${project}  (1 server(s): memory)`);
    expect(run.stdout).toContain(`claude-code --scope local      ${file}, project ${other}  (1 server(s): notes)`);
    expect(run.stdout).toContain('run setup --scope local from that folder');
  });

  it('picks the local scope on its own, prints the diff with the secret hidden on --dry-run, and changes nothing', async () => {
    const before = snapshot(root);
    const run = await setup(['claude-code', '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`--- ${file}`);
    expect(run.stdout).toContain('-        "memory": {');
    expect(run.stdout).toContain('+        "candor": {');
    expect(run.stdout).toContain('claude-code-local-');
    expect(run.stdout).not.toContain('sk-local-5678');
    expect(run.stdout).toContain('Dry run: nothing was changed.');
    expect(snapshot(root)).toEqual(before);
  });

  it("replaces only this project's servers with one gateway entry and leaves the user scope, other projects and Claude Code's state alone", async () => {
    const run = await setup(['claude-code', '--scope', 'local', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      `Claude Code (local): ${file} at projects[${JSON.stringify(project)}].mcpServers now has one entry, "candor"`,
    );
    expect(run.stdout).toContain('Pinned and trusted: memory.');
    const after = readState();
    const before = claudeState();
    expect(after.numStartups).toBe(4);
    expect(after.mcpServers).toEqual(before.mcpServers);
    expect(after.projects[other]).toEqual(before.projects[other]);
    const mine = after.projects[project];
    expect(mine.allowedTools).toEqual([]);
    expect(mine.hasTrustDialogAccepted).toBe(false);
    expect(Object.keys(mine.mcpServers)).toEqual(['candor']);
    // The secret stays in Claude Code's file, in the env of the one entry; the gateway config references it.
    expect(mine.mcpServers.candor.env.API_KEY).toBe('sk-local-5678');
    const config = /Gateway config: (.+)/.exec(run.stdout)![1]!;
    expect(JSON.parse(readFileSync(config, 'utf8')).servers.memory.env).toEqual({
      MEMORY_FILE_PATH: `\${MEMORY_FILE_PATH}`,
      API_KEY: `\${API_KEY}`,
    });
    expect(mine.mcpServers.candor.args).toEqual(expect.arrayContaining(['gateway', '--config', config, '--stdio']));
  }, 240_000);

  it('updates on a second run instead of adding a second entry, and --undo puts back the servers of both runs', async () => {
    expect((await setup(['claude-code', '--scope', 'local', '--yes'])).code).toBe(0);
    // `claude mcp add` in this project after the first setup: Claude Code rewrites the whole file.
    const state = readState();
    state.projects[project].mcpServers.later = stdio();
    writeState(state);
    const second = await setup(['claude-code', '--scope', 'local', '--yes']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('the gateway in front of 2 server(s)');
    expect(Object.keys(readState().projects[project].mcpServers)).toEqual(['candor']);
    const config = JSON.parse(readFileSync(/Gateway config: (.+)/.exec(second.stdout)![1]!, 'utf8'));
    expect(Object.keys(config.servers)).toEqual(['memory', 'later']);
    const undo = await setup(['claude-code', '--scope', 'local', '--undo']);
    expect(undo.code, undo.stderr).toBe(0);
    // The server added between the two runs comes back too, beside the first one; Claude Code's rewrite stays.
    expect(undo.stdout).toContain(
      `Restored projects[${JSON.stringify(project)}].mcpServers in ${file}; the rest of the file was kept as it is now.`,
    );
    expect(undo.stdout).toContain('Put back: memory, later.');
    expect(readState().projects[project].mcpServers).toEqual({
      ...(claudeState().projects[project]!.mcpServers as object),
      later: stdio(),
    });
    expect(readdirSync(path.join(home, '.config', 'candor', 'setup'))).toEqual([]);
  }, 240_000);

  it("undoes one project while another project and the user scope stay set up, keeping Claude Code's own later changes", async () => {
    const original = readFileSync(file);
    expect((await setup(['claude-code', '--scope', 'local', '--yes'])).code).toBe(0);
    expect((await setup(['claude-code', '--scope', 'local', '--yes'], other)).code).toBe(0);
    expect((await setup(['claude-code', '--scope', 'user', '--yes'])).code).toBe(0);
    // Claude Code keeps writing its own state into the same file.
    const state = readState();
    state.numStartups = 5;
    writeState(state);

    const undo = await setup(['claude-code', '--scope', 'local', '--undo']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toContain(
      `Restored projects[${JSON.stringify(project)}].mcpServers in ${file}; the rest of the file was kept as it is now.`,
    );
    const after = readState();
    expect(after.numStartups).toBe(5);
    expect(after.projects[project].mcpServers).toEqual(claudeState().projects[project]!.mcpServers);
    expect(Object.keys(after.projects[other].mcpServers)).toEqual(['candor']);
    expect(Object.keys(after.mcpServers)).toEqual(['candor']);

    expect((await setup(['claude-code', '--scope', 'local', '--undo'], other)).code).toBe(0);
    expect((await setup(['claude-code', '--scope', 'user', '--undo'])).code).toBe(0);
    // Everything setup did is gone; only Claude Code's own change remains.
    expect(readFileSync(file, 'utf8')).toBe(original.toString('utf8').replace('"numStartups": 4', '"numStartups": 5'));
  }, 360_000);

  it("files the servers under the git repository's top folder when run in a subfolder, as Claude Code does", async () => {
    mkdirSync(path.join(project, '.git'));
    const sub = path.join(project, 'src', 'deep');
    mkdirSync(sub, { recursive: true });
    const run = await setup(['claude-code', '--scope', 'local', '--yes'], sub);
    expect(run.code, run.stderr).toBe(0);
    expect(Object.keys(readState().projects[project].mcpServers)).toEqual(['candor']);
    expect(readState().projects[sub]).toBeUndefined();
    const undo = await setup(['claude-code', '--undo'], project);
    expect(undo.stdout).toBe(`Restored ${file} as it was before setup.\n  Put back: memory.\n`);
  }, 240_000);

  it('names a local server map of the wrong shape with its JSON path and leaves the file alone', async () => {
    const state = claudeState();
    state.projects[project]!.mcpServers = ['memory'];
    writeState(state);
    const text = readFileSync(file, 'utf8');
    const run = await setup(['claude-code', '--scope', 'local']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      `${file} at projects[${JSON.stringify(project)}].mcpServers: expected an object of servers by name.`,
    );
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});
