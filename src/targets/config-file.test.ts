/* biome-ignore-all lint/suspicious/noTemplateCurlyInString: the ${…} in plain strings are client-config variables under test */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

import { entryToTarget, readConfigTargets, stripJsonComments } from './config-file.js';

async function file(name: string, content: string): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'candor-targets-'));
  const full = path.join(root, name);
  await mkdir(path.dirname(full), { recursive: true });
  await writeFile(full, content);
  return full;
}

describe('readConfigTargets', () => {
  it('reads the mcpServers map of Claude Desktop and Cursor, in file order', async () => {
    const f = await file(
      'claude_desktop_config.json',
      JSON.stringify({
        mcpServers: {
          fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { A: '1' } },
          remote: { url: 'http://127.0.0.1:3000/mcp', headers: { Authorization: 'Bearer x' } },
          legacy: { type: 'sse', url: 'http://127.0.0.1:3001/sse' },
        },
      }),
    );
    const targets = await readConfigTargets({ file: f });
    expect(targets).toEqual([
      {
        kind: 'stdio',
        label: 'fs',
        source: { file: f, name: 'fs' },
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'],
        env: { A: '1' },
      },
      {
        kind: 'http',
        label: 'remote',
        source: { file: f, name: 'remote' },
        url: 'http://127.0.0.1:3000/mcp',
        transport: 'streamable-http',
        headers: { Authorization: 'Bearer x' },
      },
      {
        kind: 'http',
        label: 'legacy',
        source: { file: f, name: 'legacy' },
        url: 'http://127.0.0.1:3001/sse',
        transport: 'sse',
      },
    ]);
  });

  it('reads VS Code .vscode/mcp.json (servers, with comments) and expands ${workspaceFolder}', async () => {
    const f = await file(
      'proj/.vscode/mcp.json',
      `{
        // VS Code allows comments and trailing commas
        "servers": {
          "local": { "type": "stdio", "command": "node", "args": ["\${workspaceFolder}/server.js", "\${userHome}"], },
        },
      }`,
    );
    const [t] = await readConfigTargets({ file: f });
    expect(t).toMatchObject({
      kind: 'stdio',
      args: [path.join(path.dirname(path.dirname(f)), 'server.js'), homedir()],
    });
  });

  it('reads VS Code settings.json (mcp.servers)', async () => {
    const f = await file(
      'settings.json',
      JSON.stringify({ 'editor.fontSize': 12, mcp: { servers: { a: { url: 'http://127.0.0.1:9/mcp' } } } }),
    );
    expect((await readConfigTargets({ file: f })).map((t) => t.kind)).toEqual(['http']);
  });

  it('picks one server by name, and names the ones there are when it is missing', async () => {
    const f = await file('mcp.json', JSON.stringify({ mcpServers: { a: { command: 'a' }, b: { command: 'b' } } }));
    expect((await readConfigTargets({ file: f, server: 'b' })).map((t) => t.label)).toEqual(['b']);
    await expect(readConfigTargets({ file: f, server: 'c' })).rejects.toThrow(
      'has no server named "c"; it has "a", "b"',
    );
  });

  it('keeps unusable entries as invalid targets with the reason, never dropping them', async () => {
    const f = await file(
      'mcp.json',
      JSON.stringify({
        mcpServers: {
          empty: {},
          prompt: { command: 'x', env: { TOKEN: '${input:token}' } },
          badUrl: { url: 'ftp://x' },
          badArgs: { command: 'x', args: 'not-an-array' },
        },
      }),
    );
    const targets = await readConfigTargets({ file: f });
    expect(targets.map((t) => t.kind)).toEqual(['invalid', 'invalid', 'invalid', 'invalid']);
    expect(targets.map((t) => (t.kind === 'invalid' ? t.reason : ''))).toEqual([
      'empty: neither "command" (stdio) nor "url" (HTTP) is set.',
      'prompt: ${input:token} is an editor prompt; it cannot be resolved outside the editor.',
      'badUrl: "url" must be http(s)://…; got "ftp://x".',
      'badArgs: "args" must be an array of strings.',
    ]);
  });

  it('fails clearly on a missing file, bad JSON, or a file with no server map', async () => {
    await expect(readConfigTargets({ file: '/nonexistent/mcp.json' })).rejects.toThrow('Config file not found');
    await expect(readConfigTargets({ file: await file('bad.json', '{') })).rejects.toThrow('is not valid JSON');
    await expect(readConfigTargets({ file: await file('none.json', '{"x":1}') })).rejects.toThrow('has no server map');
  });
});

describe('entryToTarget', () => {
  it("expands Claude Code's ${VAR} and ${VAR:-default}", () => {
    process.env.CANDOR_TEST_VAR = 'from-env';
    const t = entryToTarget(
      'x',
      { command: 'run', args: ['${CANDOR_TEST_VAR}', '${CANDOR_UNSET_VAR:-fallback}'] },
      '/tmp/mcp.json',
    );
    expect(t).toMatchObject({ kind: 'stdio', args: ['from-env', 'fallback'] });
    delete process.env.CANDOR_TEST_VAR;
  });

  it('reports an unset ${VAR} without default as invalid', () => {
    const t = entryToTarget('x', { command: 'run', args: ['${CANDOR_SURELY_UNSET}'] }, '/tmp/mcp.json');
    expect(t).toMatchObject({
      kind: 'invalid',
      reason: 'x: ${CANDOR_SURELY_UNSET} needs the environment variable CANDOR_SURELY_UNSET, which is not set.',
    });
  });
});

describe('stripJsonComments', () => {
  it('removes comments and trailing commas but not inside strings', () => {
    const text = '{ "url": "http://a//b", /* c */ "x": "/* keep */", // d\n "y": [1,2,], }';
    expect(JSON.parse(stripJsonComments(text))).toEqual({ url: 'http://a//b', x: '/* keep */', y: [1, 2] });
  });
});
