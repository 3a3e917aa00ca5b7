/**
 * The workspace server end to end through the BUILT `candor` binary, over
 * Streamable HTTP and over stdio: `candor inspect` shows it, `candor call` uses
 * it, and every refusal the workspace promises comes back as a tool error a model can
 * act on (exit code 1, the reason on stdout).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, runCli, type ServeProcess, startServe } from '../support/cli-harness.js';

let base: string;
let root: string;
let http: ServeProcess;
let devHttp: ServeProcess;
let loopback: Server;
let loopbackUrl: string;

beforeAll(async () => {
  ensureBuilt();
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'candor-cli-ws-')));
  root = path.join(base, 'root');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  writeFileSync(path.join(base, 'outside.txt'), 'outside\n');
  writeFileSync(path.join(root, 'notes.md'), '# Notes\nTODO: one\nTODO: two\n');
  writeFileSync(path.join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(path.join(root, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
  writeFileSync(path.join(root, 'big.log'), 'x'.repeat(1024 * 1024 + 10));
  symlinkSync(base, path.join(root, 'escape'));
  execFileSync('mkfifo', [path.join(root, 'fifo')]);
  loopback = createServer((_req, res) => res.end('internal secret'));
  await new Promise<void>((resolve) => loopback.listen(0, '127.0.0.1', resolve));
  loopbackUrl = `http://127.0.0.1:${(loopback.address() as AddressInfo).port}/`;
  const env = { GITHUB_TOKEN: 'ghp_should_not_leak' };
  [http, devHttp] = await Promise.all([
    startServe(['--example', 'workspace', '--root', root], { env }),
    startServe(['--example', 'workspace', '--root', '/dev']),
  ]);
});

afterAll(async () => {
  await Promise.all([http?.stop(), devHttp?.stop()]);
  await new Promise((resolve) => loopback?.close(resolve));
  if (base) rmSync(base, { recursive: true, force: true });
});

/** The target words for each transport: the HTTP URL, or `-- node candor serve … --stdio`. */
function transports(rootDir: () => string, url: () => string) {
  return {
    http: (words: string[]) => ['call', url(), ...words],
    stdio: (words: string[]) => [
      'call',
      ...words,
      '--',
      process.execPath,
      CLI,
      'serve',
      '--example',
      'workspace',
      '--root',
      rootDir(),
      '--stdio',
    ],
  };
}

const main = transports(
  () => root,
  () => http.url,
);
const dev = transports(
  () => '/dev',
  () => devHttp.url,
);

const patchThatDoesNotApply =
  '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-export const b = 2;\n+export const b = 3;\n';

const refusals: Array<{
  title: string;
  tool: string;
  args: () => Record<string, unknown>;
  reason: RegExp;
  dev?: true;
}> = [
  {
    title: '".." out of the root',
    tool: 'read_file',
    args: () => ({ path: '../outside.txt' }),
    reason: /outside the workspace root/,
  },
  {
    title: 'an absolute path outside the root',
    tool: 'read_file',
    args: () => ({ path: '/etc/passwd' }),
    reason: /outside the workspace root/,
  },
  {
    title: 'a symbolic link that leaves the root',
    tool: 'read_file',
    args: () => ({ path: 'escape/outside.txt' }),
    reason: /symbolic link that leads outside/,
  },
  { title: 'a FIFO', tool: 'read_file', args: () => ({ path: 'fifo' }), reason: /is a FIFO/ },
  {
    title: 'a device file',
    tool: 'read_file',
    args: () => ({ path: 'zero' }),
    reason: /is a character device/,
    dev: true,
  },
  {
    title: 'a binary file',
    tool: 'read_file',
    args: () => ({ path: 'image.png' }),
    reason: /looks like a binary file/,
  },
  {
    title: 'a file over the size cap',
    tool: 'read_file',
    args: () => ({ path: 'big.log' }),
    reason: /over the 1\.0 MiB limit; pass startLine and endLine/,
  },
  {
    title: 'create_file over an existing file',
    tool: 'create_file',
    args: () => ({ path: 'notes.md', content: 'x' }),
    reason: /already exists; create_file only creates new files/,
  },
  {
    title: 'an ambiguous str_replace',
    tool: 'str_replace',
    args: () => ({ path: 'notes.md', oldText: 'TODO', newText: 'DONE' }),
    reason: /occurs 2 times[\s\S]*line 2: TODO: one[\s\S]*line 3: TODO: two/,
  },
  {
    title: 'a str_replace that matches nothing',
    tool: 'str_replace',
    args: () => ({ path: 'notes.md', oldText: 'TODO: three', newText: 'x' }),
    reason: /oldText was not found[\s\S]*line 2: TODO: one/,
  },
  {
    title: 'a patch that does not apply',
    tool: 'apply_patch',
    args: () => ({ patch: patchThatDoesNotApply }),
    reason: /does not match the current content; nothing was written/,
  },
  {
    title: 'a move onto an existing path',
    tool: 'move_path',
    args: () => ({ from: 'notes.md', to: 'src/a.ts' }),
    reason: /already exists; move_path never replaces/,
  },
  {
    title: 'deleting a non-empty folder without recursive',
    tool: 'delete_path',
    args: () => ({ path: 'src' }),
    reason: /not empty; pass recursive: true/,
  },
  {
    title: 'deleting the root',
    tool: 'delete_path',
    args: () => ({ path: '.', recursive: true }),
    reason: /workspace root itself/,
  },
  { title: 'a glob that climbs out', tool: 'glob', args: () => ({ pattern: '../**' }), reason: /contains "\.\."/ },
  {
    title: 'an invalid regular expression',
    tool: 'grep_search',
    args: () => ({ pattern: '(' }),
    reason: /not a valid regular expression/,
  },
  {
    title: 'web_fetch to loopback',
    tool: 'web_fetch',
    args: () => ({ url: loopbackUrl }),
    reason: /Refused to fetch .*127\.0\.0\.1 is a loopback address/,
  },
  {
    title: 'web_fetch of a non-http URL',
    tool: 'web_fetch',
    args: () => ({ url: 'file:///etc/passwd' }),
    reason: /Only http and https URLs/,
  },
  {
    title: 'run_command with a cwd outside the root',
    tool: 'run_command',
    args: () => ({ argv: ['pwd'], cwd: '..' }),
    reason: /outside the workspace root/,
  },
  {
    title: 'run_command past its time limit',
    tool: 'run_command',
    args: () => ({ argv: [process.execPath, '-e', 'setInterval(() => {}, 1000)'], timeoutMs: 1000 }),
    reason: /killed after the 1000 ms time limit/,
  },
  {
    title: 'run_command of a missing program',
    tool: 'run_command',
    args: () => ({ argv: ['candor-no-such-program'] }),
    reason: /Command not found: candor-no-such-program/,
  },
];

describe.each([
  ['Streamable HTTP', 'http'],
  ['stdio', 'stdio'],
] as const)('the workspace server over %s, through the built CLI', (_name, kind) => {
  it('is listed by candor inspect with every hint on the wire and none defaulted', async () => {
    const target =
      kind === 'http'
        ? [http.url]
        : ['--', process.execPath, CLI, 'serve', '--example', 'workspace', '--root', root, '--stdio'];
    const { code, stdout, stderr } = await runCli(['inspect', '--json', ...target]);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.server).toMatchObject({ name: 'workspace', version: '0.1.0' });
    expect(report.tools).toHaveLength(14);
    for (const tool of report.tools) expect(tool.hintsDefaulted, tool.name).toEqual([]);
    const readFile = report.tools.find((t: { name: string }) => t.name === 'read_file');
    expect(readFile).toMatchObject({
      title: 'Read File',
      tags: ['files', 'read'],
      hints: { readOnlyHint: { value: true, source: 'wire' } },
    });
  });

  it('reads a file with candor call', async () => {
    const { code, stdout } = await runCli(main[kind](['read_file', '--arg', 'path=src/a.ts']));
    expect(code).toBe(0);
    expect(stdout).toBe('export const a = 1;\n');
  });

  it('reads --arg values by the types of the tool schema, and prints the whole result with --json', async () => {
    const words = ['read_file', '--arg', 'path=notes.md', '--arg', 'startLine=2', '--arg', 'endLine=2', '--json'];
    const { code, stdout } = await runCli(main[kind](words));
    expect(code).toBe(0);
    // The whole result: its content, and nothing else but the protocol's own _meta of the era spoken.
    const { _meta, ...result } = JSON.parse(stdout);
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'TODO: one' },
        { type: 'text', text: '[notes.md: lines 2-2 of 3]' },
      ],
    });
    expect(Object.keys(_meta ?? {}).filter((key) => !key.startsWith('io.modelcontextprotocol/'))).toEqual([]);
  });

  it('keeps secrets out of run_command environments', async () => {
    const words = [
      'run_command',
      JSON.stringify({ argv: [process.execPath, '-p', 'process.env.GITHUB_TOKEN ?? "absent"'] }),
      '--yes',
    ];
    const { code, stdout } = await runCli(main[kind](words), { env: { GITHUB_TOKEN: 'ghp_should_not_leak' } });
    expect(code).toBe(0);
    expect(stdout).toMatch(/exit code 0[\s\S]*--- stdout ---\nabsent/);
    expect(stdout).not.toMatch(/ghp_/);
  });

  it.concurrent.each(refusals)('refuses $title', async ({ tool, args, reason, dev: onDev }) => {
    const words = [tool, JSON.stringify(args()), '--yes'];
    const { code, stdout, stderr } = await runCli((onDev ? dev : main)[kind](words));
    expect(stdout, stderr).toMatch(reason);
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`${tool} reported an error \\(isError: true\\)`));
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('targets from a client config file', () => {
  it('inspects and calls a server named in an mcpServers map', async () => {
    const config = path.join(base, 'mcp.json');
    const server = {
      command: process.execPath,
      args: [CLI, 'serve', '--example', 'workspace', '--root', root, '--stdio'],
    };
    writeFileSync(
      config,
      JSON.stringify({ mcpServers: { workspace: server, other: { url: 'http://127.0.0.1:9/mcp' } } }),
    );
    const inspect = await runCli(['inspect', `${config}#workspace`]);
    expect(inspect.code, inspect.stderr).toBe(0);
    expect(inspect.stdout).toMatch(/^workspace 0\.1\.0 · 14 tools · protocol 2026-07-28 · workspace/);
    const call = await runCli([
      'call',
      '--config',
      config,
      '--server',
      'workspace',
      'read_file',
      '--arg',
      'path=src/a.ts',
    ]);
    expect(call.stdout).toBe('export const a = 1;\n');
    const ambiguous = await runCli(['inspect', config]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toMatch(/That names 2 servers \(workspace, other\); pick one/);
  });
});

describe('what the refusals left behind', () => {
  it('changed nothing outside the root and nothing the refused calls named', () => {
    expect(readFileSync(path.join(base, 'outside.txt'), 'utf8')).toBe('outside\n');
    expect(readFileSync(path.join(root, 'notes.md'), 'utf8')).toBe('# Notes\nTODO: one\nTODO: two\n');
    expect(readFileSync(path.join(root, 'src', 'a.ts'), 'utf8')).toBe('export const a = 1;\n');
  });
});
