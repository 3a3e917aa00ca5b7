/**
 * The CLI's helpful failures, through the built binary: an
 * unreachable server, a server that exits, timeouts, invalid JSON arguments,
 * an unknown tool, a destructive call without confirmation. Each one is a clear
 * line on stderr, a non-zero exit code, and no stack trace unless --debug.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, REPO, runCli, type ServeProcess, startServe } from '../support/cli-harness.js';

let dir: string;
let root: string;
let served: ServeProcess;
let crashing: string;
const STACK = /\n\s+at /;

beforeAll(async () => {
  ensureBuilt();
  dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'candor-cli-errors-')));
  root = path.join(dir, 'root');
  mkdirSync(root);
  writeFileSync(path.join(root, 'keep.txt'), 'keep');
  // A server that answers the handshake and tools/list, then dies on the first call.
  crashing = path.join(dir, 'crashing-server.mjs');
  writeFileSync(
    crashing,
    `import { createServer } from ${JSON.stringify(path.join(REPO, 'dist/src/server/create-server.js'))};
import { defineTool } from ${JSON.stringify(path.join(REPO, 'dist/src/tool/define.js'))};
const crash = defineTool({ name: 'crash', description: 'Exits the process.', effect: 'read', world: 'closed',
  handler: () => { console.error('fatal: out of coffee'); process.exit(7); } });
createServer({ name: 'crashing', version: '1.0.0', tools: [crash] }).stdio();
`,
  );
  served = await startServe(['--example', 'workspace', '--root', root]);
});

afterAll(async () => {
  await served?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('failures that name the problem', () => {
  it('says when nothing listens at the URL', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    const { code, stderr } = await runCli(['inspect', `http://127.0.0.1:${port}/mcp`]);
    expect(code).toBe(1);
    expect(stderr).toMatch(
      new RegExp(
        `cannot connect to http://127\\.0\\.0\\.1:${port}/mcp: nothing is listening at 127\\.0\\.0\\.1:${port} \\(connection refused\\)\\. Start the server, or check the port in the URL\\.`,
      ),
    );
    expect(stderr).not.toMatch(STACK);
  });

  it('says when the server process exits before the handshake, quoting its stderr', async () => {
    const { code, stderr } = await runCli([
      'inspect',
      '--',
      process.execPath,
      '-e',
      'console.error("missing config file"); process.exit(3)',
    ]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/exited or closed stdout before completing the MCP handshake/);
    expect(stderr).toMatch(/missing config file/);
    expect(stderr).not.toMatch(STACK);
  });

  it('says when the command does not exist', async () => {
    const { code, stderr } = await runCli(['inspect', '--', 'candor-no-such-server']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/command not found: candor-no-such-server/);
  });

  it('says when the handshake times out', async () => {
    const { code, stderr } = await runCli([
      'inspect',
      '--timeout',
      '1000',
      '--',
      process.execPath,
      '-e',
      'setInterval(() => {}, 1000)',
    ]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/no answer to the MCP handshake within 1000 ms/);
    expect(stderr).not.toMatch(STACK);
  });

  it('says when a call times out', async () => {
    const args = JSON.stringify({ argv: [process.execPath, '-e', 'setTimeout(() => {}, 60000)'] });
    const { code, stderr } = await runCli(['call', served.url, 'run_command', args, '--yes', '--timeout', '3000']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/tools\/call run_command got no answer within 3000 ms \(raise it with --timeout <ms>\)/);
    expect(stderr).not.toMatch(STACK);
  });

  it('says when the server dies during a call, quoting its stderr', async () => {
    const { code, stderr } = await runCli(['call', 'crash', '--', process.execPath, crashing]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/the server went away during tools\/call crash/);
    expect(stderr).toMatch(/fatal: out of coffee/);
    expect(stderr).not.toMatch(STACK);
  });

  it('points at the position of invalid JSON arguments before starting anything', async () => {
    const { code, stderr } = await runCli(['call', served.url, 'read_file', '{"path": "keep.txt",}']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      [
        "candor: Invalid JSON arguments at line 1, column 21 (position 20): trailing comma before '}'.",
        '  {"path": "keep.txt",}',
        '                      ^',
        `Quote the JSON for your shell, e.g. '{"path": "README.md"}', or use --arg key=value.`,
        '',
      ].join('\n'),
    );
  });

  it('suggests the closest tool names for an unknown tool', async () => {
    const { code, stderr } = await runCli(['call', served.url, 'reed_file', '--arg', 'path=keep.txt']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/has no tool named "reed_file"\. Did you mean read_file\?/);
    expect(stderr).toMatch(/Its tools: apply_patch, create_directory/);
  });

  it('prints the stack trace only with --debug', async () => {
    const plain = await runCli(['call', served.url, 'nope']);
    expect(plain.stderr).not.toMatch(STACK);
    const debug = await runCli(['call', served.url, 'nope', '--debug']);
    expect(debug.code).toBe(2);
    expect(debug.stderr).toMatch(/has no tool named "nope"/);
    expect(debug.stderr).toMatch(STACK);
  });

  it('refuses a target it cannot read', async () => {
    const { code, stderr } = await runCli(['inspect', 'no-such-thing']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/Cannot tell what "no-such-thing" is/);
  });

  it('refuses an unknown command with usage help and exit code 2', async () => {
    const { code, stderr } = await runCli(['inspekt']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/unknown command 'inspekt'/);
    expect(stderr).toMatch(/Did you mean inspect\?/);
  });
});

describe('destructive calls', () => {
  it('need --yes without a terminal, and change nothing without it', async () => {
    const { code, stderr } = await runCli(['call', served.url, 'delete_path', '--arg', 'path=keep.txt']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/delete_path is destructive \(destructiveHint: true\); pass --yes/);
    expect(existsSync(path.join(root, 'keep.txt'))).toBe(true);
  });

  it('do not ask for additive or read-only tools', async () => {
    const { code, stdout } = await runCli([
      'call',
      served.url,
      'create_file',
      '--arg',
      'path=new.txt',
      '--arg',
      'content=hi',
    ]);
    expect(code).toBe(0);
    expect(stdout).toBe('Created new.txt (2 B).\n');
  });

  /** Run the CLI on a pseudo-terminal (util-linux `script`) and answer its question. */
  function onTerminal(args: string[], answer: string): Promise<{ code: number | null; output: string }> {
    const command = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    return new Promise((resolve) => {
      const child = spawn('script', ['-qec', command, '/dev/null'], { env: { ...process.env, NO_COLOR: '1' } });
      let output = '';
      let answered = false;
      child.stdout.on('data', (c: Buffer) => {
        output += c.toString('utf8');
        if (!answered && output.includes('[y/N]')) {
          answered = true;
          child.stdin.write(`${answer}\n`);
        }
      });
      child.on('close', (code) => resolve({ code, output }));
    });
  }

  it('ask on a terminal, and a "no" leaves the file alone', async () => {
    writeFileSync(path.join(root, 'ask.txt'), 'x');
    const { code, output } = await onTerminal(['call', served.url, 'delete_path', '--arg', 'path=ask.txt'], 'n');
    expect(output).toMatch(
      /delete_path on .* is destructive \(destructiveHint: true\)\. Call it with \{"path":"ask\.txt"\}\? \[y\/N\]/,
    );
    expect(output).toMatch(/Not called\./);
    expect(code).toBe(1);
    expect(existsSync(path.join(root, 'ask.txt'))).toBe(true);
  });

  it('ask on a terminal, and a "yes" calls the tool', async () => {
    writeFileSync(path.join(root, 'ask2.txt'), 'x');
    const { code, output } = await onTerminal(['call', served.url, 'delete_path', '--arg', 'path=ask2.txt'], 'y');
    expect(output).toMatch(/Deleted ask2\.txt\./);
    expect(code).toBe(0);
    expect(existsSync(path.join(root, 'ask2.txt'))).toBe(false);
  });
});

describe('--help', () => {
  it.each(['serve', 'inspect', 'call', 'lint', 'pin', 'verify'])('is there for %s', async (command) => {
    const { code, stdout } = await runCli([command, '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`^Usage: candor ${command} `));
  });

  it('lists every command at the top level', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    for (const command of ['serve', 'inspect', 'call', 'lint', 'pin', 'verify'])
      expect(stdout).toMatch(new RegExp(`\\n  ${command} `));
  });
});
