/**
 * run_command through candor's engine and a real SDK v2 client: argv without a
 * shell, the working directory kept inside the root, secrets scrubbed, output
 * capped, and the time limit enforced.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspaceServer, type WorkspaceServerOptions } from '../../examples/workspace/index.js';
import type { CandorServer } from '../../src/server/create-server.js';

let root: string;
const open: Array<{ client: Client; server: CandorServer }> = [];

beforeAll(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'candor-run-')));
  mkdirSync(path.join(root, 'sub'));
});
afterEach(async () => {
  for (const { client, server } of open.splice(0)) {
    await client.close();
    await server.close();
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function run(
  args: Record<string, unknown>,
  options: Omit<WorkspaceServerOptions, 'root'> = {},
): Promise<{ text: string; isError: boolean; structured: any; inputSchema: any }> {
  const server = createWorkspaceServer({ root, ...options });
  const client = new Client({ name: 'run-test', version: '1.0.0' });
  await client.connect(server.connectMemory() as never);
  open.push({ client, server });
  const { tools } = await client.listTools();
  const result = (await client.callTool({ name: 'run_command', arguments: args })) as any;
  return {
    text: result.content.map((c: { text?: string }) => c.text ?? '').join('\n'),
    isError: result.isError === true,
    structured: result.structuredContent,
    inputSchema: tools.find((t) => t.name === 'run_command')?.inputSchema,
  };
}

const node = process.execPath;

describe('run_command', () => {
  it('runs argv in the root and reports exit code and output', async () => {
    const r = await run({ argv: [node, '-e', 'console.log(process.cwd()); console.error("warn"); process.exit(2)'] });
    expect(r.isError).toBe(true);
    expect(r.structured).toMatchObject({ exitCode: 2, stdout: `${root}\n`, stderr: 'warn\n', timedOut: false });
    expect(r.text).toMatch(/exit code 2/);
  });

  it('passes shell syntax through as plain arguments', async () => {
    const r = await run({ argv: ['echo', 'a && rm -rf ~', '$(id)', '*'] });
    expect(r.structured.stdout).toBe('a && rm -rf ~ $(id) *\n');
  });

  it('offers no script field unless the operator enables the shell', async () => {
    const plain = await run({ argv: ['true'] });
    expect(Object.keys(plain.inputSchema.properties)).not.toContain('script');
    const refused = await run({ script: 'echo hi' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/argv/);
    const shell = await run({ script: 'echo one && echo two' }, { commandAllowShell: true });
    expect(shell.structured.stdout).toBe('one\ntwo\n');
  });

  it('runs in a subfolder and refuses a cwd outside the root', async () => {
    expect((await run({ argv: ['pwd'], cwd: 'sub' })).structured.stdout).toBe(`${path.join(root, 'sub')}\n`);
    const r = await run({ argv: ['pwd'], cwd: '../' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/outside the workspace root/);
  });

  it('scrubs secrets from the environment and keeps PATH and HOME', async () => {
    const commandEnv = {
      PATH: process.env.PATH,
      HOME: '/home/tester',
      OPENAI_API_KEY: 'sk-x',
      DB_URL: 'postgres://u:p@h/d',
      NPM_TOKEN: 'n',
    };
    const script = 'console.log(JSON.stringify(Object.keys(process.env).sort()))';
    const r = await run({ argv: [node, '-e', script] }, { commandEnv });
    expect(JSON.parse(r.structured.stdout)).toEqual(['HOME', 'PATH']);
    const allowed = await run({ argv: [node, '-e', script] }, { commandEnv, commandEnvAllow: ['NPM_TOKEN'] });
    expect(JSON.parse(allowed.structured.stdout)).toEqual(['HOME', 'NPM_TOKEN', 'PATH']);
  });

  it('caps the output and says how much was left out', async () => {
    const r = await run(
      { argv: [node, '-e', 'process.stdout.write("z".repeat(3000))'] },
      { limits: { maxCommandOutputBytes: 1024 } },
    );
    expect(r.structured.stdout).toHaveLength(1024);
    expect(r.structured.truncated).toBe(true);
    expect(r.text).toMatch(/\[1\.9 KiB more stdout not shown\]/);
  });

  it('kills the command at the time limit, and a call cannot raise the limit', async () => {
    const r = await run(
      { argv: [node, '-e', 'setInterval(() => {}, 1000)'], timeoutMs: 999_999 },
      { limits: { commandTimeoutMs: 500 } },
    );
    expect(r.isError).toBe(true);
    expect(r.structured.timedOut).toBe(true);
    expect(r.text).toMatch(/killed after the 500 ms time limit/);
  });

  it('says when the program does not exist', async () => {
    const r = await run({ argv: ['candor-no-such-program', '--flag'] });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/Command not found: candor-no-such-program/);
  });
});
