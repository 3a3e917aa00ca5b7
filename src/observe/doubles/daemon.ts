/**
 * What every database double does with its program: start it, know it is
 * ready from its own log line (never a sleep), run a helper program (initdb, a
 * client) to completion, stop it, and keep one initialised data folder per
 * machine to copy (initialising a database takes seconds, copying one a
 * fraction of a second). Database servers refuse to run as root; as root, the
 * double runs them as `nobody` through util-linux's `setpriv`.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, lstat, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CandorError } from '../../errors.js';

/** The user a database runs as when candor runs as root (servers refuse root). */
const NOBODY = 65534;

/** Whether this process runs as root, so database programs must drop to `nobody`. */
export const asRoot = (): boolean => process.getuid?.() === 0;

/** `command args` as it runs: under `setpriv` as `nobody` when this process is root. */
export function unprivileged(command: string, args: readonly string[]): [string, string[]] {
  if (!asRoot()) return [command, [...args]];
  return ['setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--', command, ...args]];
}

/** Give a folder to the user the database runs as (nothing to do unless root). */
export async function handOver(dir: string): Promise<void> {
  if (asRoot()) await chown(dir, NOBODY, NOBODY);
}

/** The error a double throws: which double, what failed, the program's last words. */
export function doubleFailed(kind: string, what: string, output = ''): CandorError {
  const tail = output.trim().split('\n').slice(-8).join('\n');
  return new CandorError(`The ${kind} double could not start: ${what}${tail ? `\n${tail}` : ''}`, {
    code: 'observe_double_failed',
  });
}

/** Run a program to its end; resolves with its output, rejects with it (and the exit status). */
export function run(
  command: string,
  args: readonly string[],
  options: { input?: string; timeoutMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      [...args],
      {
        timeout: options.timeoutMs ?? 60_000,
        maxBuffer: 64 * 1024 * 1024,
        ...(options.env ? { env: options.env } : {}),
      },
      (error, stdout, stderr) => {
        if (error) reject(Object.assign(error, { output: `${stdout}${stderr}` }));
        else resolve(stdout);
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** A started database program. */
export interface Daemon {
  child: ChildProcess;
  /** SIGTERM, then SIGKILL if it has not exited within a few seconds. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Start a long-running program and resolve once a line of its output matches
 * `ready`; reject if it exits first (with its output) or after `timeoutMs`.
 */
export function startDaemon(options: {
  kind: string;
  command: string;
  args: readonly string[];
  ready: RegExp;
  timeoutMs?: number;
  signal?: AbortSignal;
}): Promise<Daemon> {
  const child = spawn(options.command, [...options.args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
  };
  return new Promise<Daemon>((resolve, reject) => {
    let output = '';
    let settled = false;
    const finish = (error?: CandorError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (error) void stop().then(() => reject(error));
      else resolve({ child, stop });
    };
    const onData = (chunk: Buffer) => {
      // Only the tail matters: the ready line or the last words before an exit.
      output = (output + chunk.toString('utf8')).slice(-16_384);
      if (options.ready.test(output)) finish();
    };
    const onAbort = () => finish(doubleFailed(options.kind, 'aborted'));
    const timer = setTimeout(
      () => finish(doubleFailed(options.kind, `not ready within ${options.timeoutMs ?? 30_000} ms`, output)),
      options.timeoutMs ?? 30_000,
    );
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (error) => finish(doubleFailed(options.kind, `${options.command}: ${error.message}`)));
    child.once('close', (code) => finish(doubleFailed(options.kind, `${options.command} exited (${code})`, output)));
  });
}

/** The folder of this user's initialised database folders (`$TMPDIR/candor-doubles-<uid>`), made private. */
async function templateRoot(): Promise<string> {
  const root = path.join(tmpdir(), `candor-doubles-${process.getuid?.() ?? 'user'}`);
  await mkdir(root, { recursive: true, mode: 0o700 });
  // A folder someone else made there could hold a planted database: use it only if it is ours.
  const info = await lstat(root);
  if (!info.isDirectory() || (process.getuid && info.uid !== process.getuid()) || (info.mode & 0o077) !== 0) {
    throw new CandorError(`${root} is not a private folder of this user; remove it.`, {
      code: 'observe_double_failed',
    });
  }
  return root;
}

const making = new Map<string, Promise<string>>();

/**
 * An initialised data folder for `name` (which says the program and its version), made once
 * per machine by `init(folder)` and kept in a private folder under TMPDIR; copy it, never use it.
 * Made in a folder of its own and renamed into place (TMPDIR is one file system), so two
 * processes never see half of one.
 */
export function template(name: string, init: (folder: string) => Promise<void>): Promise<string> {
  const known = making.get(name);
  if (known) return known;
  const made = (async () => {
    const root = await templateRoot();
    const ready = path.join(root, name);
    if (existsSync(ready) && readdirSync(ready).length > 0) return ready;
    // Made beside the private folder, not in it: a database run as `nobody` must reach its folder.
    const building = await mkdtemp(path.join(tmpdir(), `candor-double-init-`));
    await chmod(building, 0o755);
    try {
      await init(building);
      await rename(building, ready).catch(async (error: NodeJS.ErrnoException) => {
        // Another process finished first: theirs is as good.
        if (!existsSync(ready)) throw error;
        await rm(building, { recursive: true, force: true });
      });
    } catch (error) {
      await rm(building, { recursive: true, force: true });
      throw error;
    }
    return ready;
  })();
  making.set(name, made);
  made.catch(() => making.delete(name));
  return made;
}

/** Copy a template folder (sparse files stay sparse; owners kept when root). */
export async function copyTemplate(from: string, to: string): Promise<void> {
  await run('cp', ['-a', '--sparse=always', from, to]);
}
