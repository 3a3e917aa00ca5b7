import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runProcess } from './run-process.js';

const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
/** A killed process whose parent is gone may stay a zombie until init reaps it: that counts as dead. */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    try {
      process.kill(pid, 0);
      return process.platform !== 'linux';
    } catch {
      return false;
    }
  }
}

const base = { cwd: tmpdir(), env, timeoutMs: 20_000, maxOutputBytes: 1024 };

describe('runProcess', () => {
  it('collects exit code, stdout and stderr', async () => {
    const r = await runProcess({
      ...base,
      argv: [process.execPath, '-e', 'process.stdout.write("out"); process.stderr.write("err"); process.exit(3)'],
    });
    expect(r).toMatchObject({ exitCode: 3, stdout: 'out', stderr: 'err', timedOut: false });
  });

  it('passes arguments without a shell', async () => {
    const r = await runProcess({
      ...base,
      argv: [process.execPath, '-e', 'console.log(process.argv[1])', '$(id); rm -rf ~'],
    });
    expect(r.stdout.trim()).toBe('$(id); rm -rf ~');
  });

  it('writes stdin', async () => {
    const r = await runProcess({
      ...base,
      argv: [process.execPath, '-e', 'process.stdin.pipe(process.stdout)'],
      stdin: 'piped',
    });
    expect(r.stdout).toBe('piped');
  });

  it('kills the command and what it started when the time limit passes', async () => {
    const script = `
      const { spawn } = require('node:child_process');
      const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      console.log(child.pid);
      setInterval(() => {}, 1000);
    `;
    // Generous: the child must start and print the grandchild's pid before the limit hits.
    const r = await runProcess({ ...base, timeoutMs: 5000, argv: [process.execPath, '-e', script] });
    expect(r.timedOut).toBe(true);
    const grandchild = Number(r.stdout.trim());
    expect(grandchild).toBeGreaterThan(0);
    expect(running(process.pid)).toBe(true);
    // SIGKILL was sent before runProcess resolved; give the kernel a moment to act on it.
    for (let i = 0; i < 100 && running(grandchild); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(running(grandchild)).toBe(false);
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    const running = runProcess({
      ...base,
      argv: [process.execPath, '-e', 'setInterval(() => {}, 1000)'],
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    const r = await running;
    expect(r.cancelled).toBe(true);
    expect(r.exitCode).toBe(null);
  });

  it('keeps at most maxOutputBytes of each stream and counts the rest', async () => {
    const r = await runProcess({ ...base, argv: [process.execPath, '-e', 'process.stdout.write("x".repeat(5000))'] });
    expect(r.stdout).toBe('x'.repeat(1024));
    expect(r.droppedStdout).toBe(5000 - 1024);
  });

  it('rejects with ENOENT for a program that does not exist', async () => {
    await expect(runProcess({ ...base, argv: ['candor-no-such-program'] })).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
