import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTargets } from './parse.js';

describe('parseTargets', () => {
  it('reads a URL as Streamable HTTP', async () => {
    expect(await parseTargets({ targets: ['http://127.0.0.1:3000/mcp'] })).toEqual([
      { kind: 'http', url: 'http://127.0.0.1:3000/mcp', transport: 'streamable-http', label: '127.0.0.1:3000/mcp' },
    ]);
  });

  it("reads the words after -- as a stdio command, which gets the caller's environment (ownEnv: what a sandbox gets)", async () => {
    expect(await parseTargets({ command: ['npx', '-y', 'server', '/tmp'] })).toEqual([
      {
        kind: 'stdio',
        command: 'npx',
        args: ['-y', 'server', '/tmp'],
        env: { ...process.env },
        ownEnv: {},
        label: 'npx -y server /tmp',
      },
    ]);
  });

  it('reads module files, config files, file.json#name and --config with --server', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'candor-parse-'));
    await writeFile(path.join(root, 'tools.ts'), 'export default [];');
    await writeFile(
      path.join(root, 'mcp.json'),
      JSON.stringify({ mcpServers: { a: { command: 'a' }, b: { url: 'http://127.0.0.1:1/mcp' } } }),
    );
    expect(await parseTargets({ targets: ['tools.ts'], cwd: root })).toEqual([
      { kind: 'module', path: path.join(root, 'tools.ts'), label: 'tools.ts' },
    ]);
    expect((await parseTargets({ targets: ['mcp.json'], cwd: root })).map((t) => t.label)).toEqual(['a', 'b']);
    expect((await parseTargets({ targets: ['mcp.json#b'], cwd: root })).map((t) => t.kind)).toEqual(['http']);
    expect((await parseTargets({ config: 'mcp.json', server: 'a', cwd: root })).map((t) => t.label)).toEqual(['a']);
  });

  it.each([
    [{}, 'No target given'],
    [{ targets: ['whatever'] }, 'Cannot tell what "whatever" is'],
    [{ targets: ['missing.ts'] }, 'Module not found'],
    [{ server: 'a' }, '--server needs --config'],
  ])('refuses %j with a message that says what is accepted', async (input, message) => {
    await expect(parseTargets(input)).rejects.toThrow(message);
  });
});
