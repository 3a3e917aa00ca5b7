/**
 * The throwaway sandbox (issue 12) on the shared bubblewrap sandbox (src/sandbox,
 * issue 21): a copy of the workdir, a fresh HOME and TMPDIR, the rest of the
 * filesystem read-only, a network namespace with only loopback, a PID namespace so
 * every process the server starts dies with it, and `strace -f` recording what each
 * process does. io_uring is refused (ENOSYS) so libuv falls back to syscalls
 * strace can see.
 */
import { cp, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CandorError } from '../errors.js';
import { bwrapArgs, checkSandboxPlatform } from '../sandbox/index.js';

/** The syscalls traced: file changes, program runs, connections. */
const TRACED =
  'open,openat,creat,truncate,ftruncate,unlink,unlinkat,rename,renameat,renameat2,mkdir,mkdirat,rmdir,chmod,fchmodat,chown,fchownat,lchown,execve,connect';

/** Folders of a workdir copy left out unless asked for. */
const SKIPPED = new Set(['.git', 'node_modules']);

/** `value` with the real workdir replaced by its copy, when it names a path inside it. */
export function inCopy(value: string, source: string, work: string): string {
  if (value === source) return work;
  return value.startsWith(`${source}${path.sep}`) ? `${work}${value.slice(source.length)}` : value;
}

/** A prepared sandbox. */
export interface Sandbox {
  /** The real workdir (never touched). */
  source: string;
  /** The copy of the workdir the server runs in. */
  work: string;
  home: string;
  tmp: string;
  /** The strace output file. */
  trace: string;
  /** The command that starts the server inside the sandbox. */
  command: string;
  args: string[];
  /** Remove every throwaway folder. */
  dispose(): Promise<void>;
}

/**
 * Check that this machine can sandbox and trace: Linux, bubblewrap, strace,
 * user namespaces and ptrace. Throws a clear error saying what is missing.
 */
export function checkPlatform(): void {
  checkSandboxPlatform({
    who: 'candor observe',
    code: 'observe_unsupported',
    tools: [['strace', 'strace']],
    probe: ['strace', '-qq', '-o', '/dev/null', 'true'],
    probeHint: 'bubblewrap needs user namespaces and strace needs ptrace (containers often forbid both)',
  });
}

async function sizeOf(dir: string, limit: number, total = { bytes: 0 }): Promise<number> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await sizeOf(full, limit, total);
    else if (entry.isFile()) total.bytes += (await stat(full)).size;
    if (total.bytes > limit) return total.bytes;
  }
  return total.bytes;
}

/**
 * Prepare a sandbox for one server command.
 *
 * @example
 * ```ts
 * const sandbox = await prepareSandbox({ command: 'node', args: ['server.js'], workdir: process.cwd() });
 * ```
 */
export async function prepareSandbox(options: {
  command: string;
  args: readonly string[];
  workdir: string;
  maxBytes?: number;
}): Promise<Sandbox> {
  const limit = options.maxBytes ?? 100 * 1024 * 1024;
  const source = path.resolve(options.workdir);
  const size = await sizeOf(source, limit);
  if (size > limit) {
    throw new CandorError(
      `The workdir ${source} holds more than ${Math.round(limit / 1048576)} MB (without .git and node_modules); pass a smaller --workdir.`,
      { code: 'observe_workdir_too_large' },
    );
  }
  const base = await mkdtemp(path.join(tmpdir(), 'candor-observe-'));
  const work = path.join(base, 'work');
  const home = path.join(base, 'home');
  const tmp = path.join(base, 'tmp');
  const traceDir = path.join(base, 'trace');
  await cp(source, work, {
    recursive: true,
    filter: (file) => !SKIPPED.has(path.basename(file)) || file === source,
    verbatimSymlinks: true,
  });
  await Promise.all([mkdir(home), mkdir(tmp), mkdir(traceDir)]);
  const trace = path.join(traceDir, 'trace');
  const args = bwrapArgs({
    network: 'loopback',
    write: [work, home, tmp, traceDir],
    chdir: work,
    env: { HOME: home, TMPDIR: tmp },
    command: 'strace',
    args: [
      '-f',
      '-qq',
      '-s',
      '4096',
      '-o',
      trace,
      '-e',
      `trace=${TRACED}`,
      '-e',
      'inject=io_uring_setup:error=ENOSYS',
      '--',
      options.command,
      // A server given the real workdir (a root folder argument, say) gets the copy instead.
      ...options.args.map((arg) => inCopy(arg, source, work)),
    ],
  });
  return {
    source,
    work,
    home,
    tmp,
    trace,
    command: 'bwrap',
    args,
    dispose: () => rm(base, { recursive: true, force: true }),
  };
}
