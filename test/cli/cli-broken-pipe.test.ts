/**
 * Output into a pipe whose reader has gone (`candor ui --help | head -1`): every
 * command stops quietly with exit 0 instead of crashing with `write EPIPE`. Through
 * real pipes: bash's `| head -1`, and a pipe whose read end is closed before the CLI
 * writes its first byte (so every write it makes fails).
 */
import { execFile, spawn } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, REPO, runCli } from '../support/cli-harness.js';

let commands: string[] = [];

beforeAll(async () => {
  ensureBuilt();
  const { stdout } = await runCli(['--help']);
  commands = [...stdout.slice(stdout.indexOf('Commands:')).matchAll(/^ {2}([a-z-]+) /gm)]
    .map((m) => m[1]!)
    .filter((c) => c !== 'help');
}, 120_000);

/** `candor <args> | head -1` in bash; the exit code is candor's own (PIPESTATUS), not head's. */
function throughHead(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const quoted = args.map((a) => `'${a}'`).join(' ');
  const script = `"${process.execPath}" "${CLI}" ${quoted} | head -1; exit "\${PIPESTATUS[0]}"`;
  return new Promise((resolve) => {
    execFile('bash', ['-c', script], { cwd: REPO, env: { ...process.env, NO_COLOR: '1' } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

/** Run candor with its stdout a pipe whose reader is closed at once; stderr is collected. */
function intoClosedPipe(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: REPO,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Closed in the same tick as the spawn, long before node has started: every write fails.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('output into a pipe that closes early', () => {
  it('finds the commands to try', () => {
    expect(commands).toEqual(expect.arrayContaining(['ui', 'gateway', 'scan', 'serve', 'inspect', 'setup']));
  });

  it('prints the first line of every command help into head -1 and exits 0', async () => {
    for (const command of commands) {
      const run = await throughHead([command, '--help']);
      expect(run.stderr, command).toBe('');
      expect(run.code, command).toBe(0);
      expect(run.stdout, command).toMatch(new RegExp(`^Usage: candor ${command} `));
    }
  }, 120_000);

  it('exits 0 without a stack when no byte of the help can be written', async () => {
    for (const args of [['--help'], ['ui', '--help'], ['gateway', '--help'], ['scan', '--help'], ['--version']]) {
      const run = await intoClosedPipe(args);
      expect(run.stderr, args.join(' ')).toBe('');
      expect(run.code, args.join(' ')).toBe(0);
    }
  }, 60_000);

  it("stops a command's report quietly when its reader has gone", async () => {
    const run = await intoClosedPipe([
      'inspect',
      '--json',
      '--',
      process.execPath,
      CLI,
      'serve',
      '--example',
      'workspace',
      '--stdio',
    ]);
    expect(run.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(run.code).toBe(0);
  }, 60_000);
});
