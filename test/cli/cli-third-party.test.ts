/**
 * `candor inspect` and `candor call` against a third-party server from npm
 * (@modelcontextprotocol/server-filesystem over stdio), through the built
 * binary: hints the server leaves out are shown as spec defaults, and tools
 * whose destructiveHint is absent count as destructive.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt, runCli } from '../support/cli-harness.js';

let root: string;
const server = () => ['--', BIN('mcp-server-filesystem'), root];

beforeAll(() => {
  ensureBuilt();
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'candor-fs-server-')));
  writeFileSync(path.join(root, 'hello.txt'), 'hello from server-filesystem\n');
});

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('candor against @modelcontextprotocol/server-filesystem', () => {
  it('inspects it and marks the hints it leaves out as spec defaults', async () => {
    const { code, stdout, stderr } = await runCli(['inspect', ...server()]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^secure-filesystem-server \S+ · \d+ tools · protocol 2025-11-25 · mcp-server-filesystem /);
    expect(stdout).toMatch(/\nread_text_file\s+Read Text File\s+yes\s+yes \(default\)\s+no \(default\)\s+no\s+—\s+—\n/);
    expect(stdout).toMatch(/\(default\): the server did not send this hint, so the spec's worst-case default applies/);
  });

  it('reports the same in --json, hint by hint', async () => {
    const { code, stdout } = await runCli(['inspect', '--json', ...server()]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout);
    const read = report.tools.find((t: { name: string }) => t.name === 'read_text_file');
    expect(read.hintsOnWire).toEqual(['readOnlyHint', 'openWorldHint']);
    expect(read.hintsDefaulted).toEqual(['destructiveHint', 'idempotentHint']);
    expect(read.hints.destructiveHint).toEqual({ value: true, source: 'default' });
    // the input schema as the server sent it.
    expect(read.inputSchema.properties.path.type).toBe('string');
    expect(read.inputSchema.required).toContain('path');
  });

  it('calls a read-only tool without asking', async () => {
    const { code, stdout } = await runCli([
      'call',
      'read_text_file',
      '--arg',
      `path=${path.join(root, 'hello.txt')}`,
      ...server(),
    ]);
    expect(code).toBe(0);
    expect(stdout).toBe('hello from server-filesystem\n');
  });

  it('needs --yes for its destructive write_file, then writes', async () => {
    const args = JSON.stringify({ path: path.join(root, 'written.txt'), content: 'written by candor call' });
    const refused = await runCli(['call', 'write_file', args, ...server()]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/write_file is destructive \(destructiveHint: true\); pass --yes/);
    const done = await runCli(['call', 'write_file', args, '--yes', ...server()]);
    expect(done.code, done.stderr).toBe(0);
    expect(readFileSync(path.join(root, 'written.txt'), 'utf8')).toBe('written by candor call');
  });

  it('passes its tool errors through with exit code 1', async () => {
    const { code, stdout, stderr } = await runCli([
      'call',
      'read_text_file',
      '--arg',
      'path=/etc/hostname',
      ...server(),
    ]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/Access denied|outside allowed directories/i);
    expect(stderr).toMatch(/read_text_file reported an error/);
  });
});
