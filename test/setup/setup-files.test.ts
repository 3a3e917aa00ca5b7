/**
 * `candor setup` over real client config files in a throwaway HOME and project: the
 * CLI as people run it, servers from npm (server-memory) started for real, and the
 * gateway entry it leaves checked by connecting to it (`candor inspect file#candor`).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'jsonc-parser';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, REPO, runCli } from '../support/cli-harness.js';
import { snapshot } from '../support/file-snapshot.js';

const MEMORY = path.join(REPO, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
let root: string;
let home: string;
let project: string;

const setup = (args: string[]) =>
  runCli(['setup', ...args], {
    cwd: project,
    env: { HOME: home, XDG_CONFIG_HOME: '', APPDATA: '' },
    timeoutMs: 120_000,
  });

beforeAll(() => ensureBuilt(), 120_000);
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'candor-setup-'));
  home = path.join(root, 'home');
  project = path.join(root, 'project');
  mkdirSync(home);
  mkdirSync(project);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const VSCODE = `{
  // Servers for this workspace
  "servers": {
    "memory": {
      "type": "stdio",
      "command": "node",
      "args": [${JSON.stringify(MEMORY)}],
      "env": { "MEMORY_API_KEY": "sk-very-secret-1234" } // the key
    }
  },
  /* prompts VS Code asks for */
  "inputs": []
}
`;

function write(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

describe('candor setup with VS Code (JSON with comments)', () => {
  it('prints the diff of each file with --dry-run, hides the secret, and changes nothing', async () => {
    const file = write(path.join(project, '.vscode', 'mcp.json'), VSCODE);
    const before = { home: snapshot(home), project: snapshot(project) };
    const run = await setup(['vscode', '--dry-run']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`--- ${file}`);
    expect(run.stdout).toContain('+    "candor": {');
    expect(run.stdout).toContain(`"MEMORY_API_KEY": "\${MEMORY_API_KEY}"`);
    expect(run.stdout).not.toContain('sk-very-secret-1234');
    expect(run.stdout).toContain('Dry run: nothing was changed.');
    expect({ home: snapshot(home), project: snapshot(project) }).toEqual(before);
  });

  it('replaces the servers with one gateway entry that serves their tools, keeps comments, and writes no secret into the gateway config', async () => {
    const file = write(path.join(project, '.vscode', 'mcp.json'), VSCODE);
    const run = await setup(['vscode', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/memory: 9 tools; lint \d+ error\(s\), \d+ warning\(s\); the scan at the door passes\./);
    expect(run.stdout).toContain('Pinned and trusted: memory.');
    const after = readFileSync(file, 'utf8');
    expect(after).toContain('// Servers for this workspace');
    expect(after).toContain('/* prompts VS Code asks for */');
    expect(after).not.toContain('"memory"');
    const config = /Gateway config: (.+)/.exec(run.stdout)![1]!;
    expect(readFileSync(config, 'utf8')).not.toContain('sk-very-secret-1234');
    expect(statSync(config).mode & 0o077).toBe(0);
    // The entry as VS Code would start it: the gateway, with the memory server's tools behind it.
    const listed = await runCli(['inspect', `${file}#candor`], {
      cwd: project,
      env: { HOME: home },
      timeoutMs: 120_000,
    });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('memory__read_graph');
  }, 240_000);

  it('updates on a second run instead of adding a second entry, and --undo puts back the servers of both runs with their comments', async () => {
    const file = write(path.join(project, '.vscode', 'mcp.json'), VSCODE);
    expect((await setup(['vscode', '--yes'])).code).toBe(0);
    // A server added in VS Code after the first setup.
    const edited = readFileSync(file, 'utf8').replace(
      '"servers": {',
      `"servers": {\n    "notes": { "type": "stdio", "command": "node", "args": [${JSON.stringify(MEMORY)}] },`,
    );
    writeFileSync(file, edited);
    const second = await setup(['vscode', '--yes']);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain('the gateway in front of 2 server(s)');
    const text = readFileSync(file, 'utf8');
    expect(text.match(/"candor"/g)).toHaveLength(1);
    expect(text).not.toContain('"notes"');
    const config = readFileSync(/Gateway config: (.+)/.exec(second.stdout)![1]!, 'utf8');
    expect(Object.keys(JSON.parse(config).servers)).toEqual(['memory', 'notes']);
    const undo = await setup(['vscode', '--undo']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toContain(`Restored servers in ${file}; the rest of the file was kept as it is now.`);
    expect(undo.stdout).toContain('Put back: memory, notes.');
    const back = readFileSync(file, 'utf8');
    expect(back).toContain('// Servers for this workspace');
    expect(back).toContain('/* prompts VS Code asks for */');
    expect(back).not.toContain('"candor"');
    const servers = parse(back).servers;
    expect(servers.memory).toEqual(parse(VSCODE).servers.memory);
    expect(servers.notes).toEqual({ type: 'stdio', command: 'node', args: [MEMORY] });
    expect(snapshot(home)).toEqual({});
  }, 240_000);
});

describe("VS Code's envFile and inputs", () => {
  it('starts the server with the variables of its envFile, keeps inputs, and undo puts the entry back as it was', async () => {
    write(path.join(project, '.env'), 'MEMORY_FILE_PATH=from-env-file.jsonl\n');
    const text = `{\n  "inputs": [{ "id": "key", "type": "promptString" }],\n  "servers": {\n    "memory": { "type": "stdio", "command": "node", "args": [${JSON.stringify(MEMORY)}], "envFile": "\${workspaceFolder}/.env" }\n  }\n}\n`;
    const file = write(path.join(project, '.vscode', 'mcp.json'), text);
    const run = await setup(['code', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    const config = JSON.parse(readFileSync(/Gateway config: (.+)/.exec(run.stdout)![1]!, 'utf8'));
    expect(config.servers.memory.env).toEqual({ MEMORY_FILE_PATH: `\${MEMORY_FILE_PATH}` });
    const after = parse(readFileSync(file, 'utf8'));
    expect(after.inputs).toEqual([{ id: 'key', type: 'promptString' }]);
    expect(after.servers.candor.env).toEqual({ MEMORY_FILE_PATH: 'from-env-file.jsonl' });
    const undo = await setup(['vscode', '--undo']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(text);
  }, 240_000);
});

describe('candor setup with the other clients', () => {
  it("edits only the mcpServers of Claude Code's ~/.claude.json and leaves the rest of it alone", async () => {
    const state = {
      numStartups: 7,
      projects: { '/x': { allowedTools: [] } },
      mcpServers: { memory: { type: 'stdio', command: 'node', args: [MEMORY], env: {} } },
    };
    const file = write(path.join(home, '.claude.json'), `${JSON.stringify(state, null, 2)}\n`);
    const run = await setup(['claude-code', '--scope', 'user', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    const after = JSON.parse(readFileSync(file, 'utf8'));
    expect(after.numStartups).toBe(7);
    expect(after.projects).toEqual(state.projects);
    expect(Object.keys(after.mcpServers)).toEqual(['candor']);
    expect(after.mcpServers.candor.type).toBe('stdio');
  }, 240_000);

  it("reads Gemini CLI's httpUrl as a Streamable HTTP server and keeps a server that cannot start, marked and quarantined", async () => {
    write(
      path.join(project, '.gemini', 'settings.json'),
      JSON.stringify({
        mcpServers: {
          remote: { httpUrl: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer tok-abc' } },
          memory: { command: 'node', args: [MEMORY] },
        },
      }),
    );
    const run = await setup(['gemini', '--yes', '--timeout', '20000']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/remote: did not start \(kept, quarantined\): /);
    expect(run.stdout).toMatch(/Quarantined until pinned \(it did not start\): remote: candor pin --config /);
    expect(run.stdout).toContain('Pinned and trusted: memory.');
    const config = JSON.parse(readFileSync(/Gateway config: (.+)/.exec(run.stdout)![1]!, 'utf8'));
    expect(config.servers.remote).toEqual({
      url: 'http://127.0.0.1:9/mcp',
      headers: { Authorization: `\${REMOTE_AUTHORIZATION}` },
    });
  }, 240_000);

  it('names a malformed client config with its file, JSON path and reason, and leaves it alone', async () => {
    const text = '{\n  "mcpServers": {\n    "memory": { "command": "node", "args": ["a",] ,, }\n  }\n}\n';
    const file = write(path.join(home, '.cursor', 'mcp.json'), text);
    const run = await setup(['cursor', '--scope', 'user', '--yes']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`${file} at mcpServers.memory`);
    expect(run.stderr).toMatch(/line 3, column \d+/);
    expect(run.stderr).toContain('The file was left as it is.');
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('names an entry of the wrong shape with its JSON path and leaves the file alone', async () => {
    const text = JSON.stringify({ mcpServers: { memory: { command: 'node', args: 'not-a-list' } } });
    const file = write(path.join(home, '.cursor', 'mcp.json'), text);
    const run = await setup(['cursor', '--scope', 'user']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`${file} at mcpServers.memory: "args" must be an array of strings.`);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('lists the client configs it finds when no client is named', async () => {
    write(
      path.join(home, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { memory: { command: 'node', args: [MEMORY] } } }),
    );
    write(path.join(project, '.mcp.json'), '{ "mcpServers": {} }');
    write(path.join(home, '.config', 'Claude', 'claude_desktop_config.json'), '{ "mcpServers": ');
    const run = await setup([]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/cursor --scope user\s+.*\.cursor\/mcp\.json {2}\(1 server\(s\): memory\)/);
    expect(run.stdout).toMatch(/claude-code --scope project\s+.*\.mcp\.json {2}\(0 server\(s\): -\)/);
    expect(run.stdout).toMatch(/claude-desktop --scope user\s+.*claude_desktop_config\.json {2}\(cannot be read: /);
  });
});
