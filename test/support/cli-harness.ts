/**
 * Running the BUILT `candor` binary in end-to-end tests: build once
 * per change (under a lock, so parallel test files do not build over each
 * other), then spawn `node dist/src/cli/main.js …` like a user would.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(REPO, 'dist', 'src', 'cli', 'main.js');
export const BIN = (name: string) => path.join(REPO, 'node_modules', '.bin', name);

/**
 * Rebuild `dist/` when any source file is newer than the built CLI. The check
 * and the build run under one `flock`, so the second test file waits and then
 * finds the build fresh.
 */
export function ensureBuilt(): void {
  const script = `
    const fs = require('node:fs'), path = require('node:path'), cp = require('node:child_process');
    const repo = ${JSON.stringify(REPO)};
    const built = path.join(repo, 'dist/src/cli/main.js');
    const newest = (dir) => {
      let t = 0;
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        if (e.name === 'node_modules' || e.name === 'demo-root' || e.name === 'fixtures') continue;
        const p = path.join(dir, e.name);
        if (e.isDirectory()) t = Math.max(t, newest(p));
        else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) t = Math.max(t, fs.statSync(p).mtimeMs);
      }
      return t;
    };
    const source = Math.max(newest(path.join(repo, 'src')), newest(path.join(repo, 'examples')));
    if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= source) process.exit(0);
    // Type errors in files other work-in-progress touches still emit JavaScript; the check below decides.
    const r = cp.spawnSync(process.execPath, [path.join(repo, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: repo, encoding: 'utf8' });
    if (r.status !== 0) process.stderr.write('tsc reported problems (the build still emitted):\\n' + r.stdout.slice(0, 4000));
    fs.utimesSync(built, new Date(), new Date());
  `;
  execFileSync('flock', [path.join(REPO, 'node_modules', '.candor-build.lock'), process.execPath, '-e', script], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (!existsSync(CLI)) throw new Error(`The build did not produce ${CLI}.`);
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Run the built CLI to completion.
 *
 * @example
 * ```ts
 * const { code, stdout } = await runCli(['inspect', url]);
 * ```
 */
export function runCli(
  args: readonly string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? REPO,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `candor ${args.join(' ')} did not finish in ${options.timeoutMs ?? 60_000} ms.\n${stdout}\n${stderr}`,
        ),
      );
    }, options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** A `candor serve … --http` process and the URL it printed. */
export interface ServeProcess {
  url: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Send a signal and wait for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Start `candor serve` over HTTP on a free port and wait for its endpoint line.
 *
 * @example
 * ```ts
 * const served = await startServe(['--example', 'workspace', '--root', dir]);
 * await runCli(['inspect', served.url]);
 * await served.stop();
 * ```
 */
export function startServe(args: readonly string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'serve', ...args, '--http', '127.0.0.1:0'], {
      cwd: REPO,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`candor serve did not print its endpoint in time.\n${stdout}\n${stderr}`));
    }, 60_000);
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
      const match = /MCP endpoint: (http:\/\/\S+)/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1]!,
          child,
          stdout: () => stdout,
          stderr: () => stderr,
          stop: async (signal = 'SIGTERM') => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    });
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`candor serve exited (${code}) before printing its endpoint.\n${stdout}\n${stderr}`));
    });
  });
}
