/**
 * Interop: the official MCP Inspector CLI (`@modelcontextprotocol/inspector-cli`,
 * an SDK v1 client nobody here wrote) lists and calls the workspace tools served
 * by the built `candor` binary, over stdio and over Streamable HTTP.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, type ServeProcess, startServe } from '../support/cli-harness.js';
import { inspector } from '../support/inspector-cli.js';

let root: string;
let served: ServeProcess;

beforeAll(async () => {
  ensureBuilt();
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'candor-inspector-')));
  writeFileSync(path.join(root, 'hello.txt'), 'hello from the workspace\n');
  served = await startServe(['--example', 'workspace', '--root', root]);
});

afterAll(async () => {
  await served?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe.each([
  ['stdio', () => [process.execPath, CLI, 'serve', '--example', 'workspace', '--root', root, '--stdio']],
  ['Streamable HTTP', () => [served.url, '--transport', 'http']],
])('the MCP Inspector CLI over %s', (_name, target) => {
  it('lists the workspace tools with their hints', async () => {
    const { code, stdout, stderr } = await inspector([...target(), '--method', 'tools/list']);
    expect(code, stderr).toBe(0);
    const { tools } = JSON.parse(stdout);
    expect(tools).toHaveLength(14);
    const byName = Object.fromEntries(tools.map((t: { name: string }) => [t.name, t]));
    expect(byName.read_file.annotations).toEqual({
      title: 'Read File',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(byName.delete_path.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it('calls read_file', async () => {
    const { code, stdout, stderr } = await inspector([
      ...target(),
      '--method',
      'tools/call',
      '--tool-name',
      'read_file',
      '--tool-arg',
      'path=hello.txt',
    ]);
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ content: [{ type: 'text', text: 'hello from the workspace\n' }] });
  });

  it('gets a refusal back as a tool error', async () => {
    const { code, stdout } = await inspector([
      ...target(),
      '--method',
      'tools/call',
      '--tool-name',
      'read_file',
      '--tool-arg',
      'path=../../etc/passwd',
    ]);
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/outside the workspace root/);
  });
});
