/**
 * The throwaway sandbox on the shared bubblewrap sandbox (src/sandbox,
 *): a copy of the workdir, a fresh HOME and TMPDIR, the rest of the
 * filesystem read-only, a network namespace with only loopback, a PID namespace so
 * every process the server starts dies with it, and `strace -f` recording what each
 * process does. io_uring is refused (ENOSYS) so libuv falls back to syscalls
 * strace can see.
 */
import { appendFile, cp, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import picomatch from 'picomatch';
import { CandorError } from '../errors.js';
import {
  type Bridge,
  bwrapArgs,
  checkSandboxPlatform,
  type Destination,
  type ForwardRule,
  forwardedCommand,
  openBridge,
} from '../sandbox/index.js';

/**
 * The syscalls traced: file changes, program runs, connections, and io_uring_setup,
 * whose refusal strace can inject only into a syscall it traces.
 */
const TRACED =
  'open,openat,openat2,creat,truncate,ftruncate,unlink,unlinkat,rename,renameat,renameat2,mkdir,mkdirat,rmdir,chmod,fchmodat,chown,fchownat,lchown,execve,connect,io_uring_setup';

/** Folders of a workdir copy always left out (dependencies: reinstallable, and huge). `.git` is copied. */
const SKIPPED = new Set(['node_modules']);

/** The placeholder for the sandbox's copy of the workdir in server and tool arguments. */
export const WORKDIR_PLACEHOLDER = '{workdir}';

/**
 * `value` with `{workdir}` and every path naming the real workdir (anywhere in
 * it: `--dsn sqlite:///home/me/proj/db.sqlite`, `root=/home/me/proj`) replaced
 * by the copy. A path that only starts like it (`/home/me/project2`) is left.
 *
 * @example
 * ```ts
 * inCopy('sqlite:///home/me/proj/a.db', '/home/me/proj', '/tmp/c/work'); // 'sqlite:///tmp/c/work/a.db'
 * ```
 */
export function inCopy(value: string, source: string, work: string): string {
  return value.split(WORKDIR_PLACEHOLDER).join(work).replace(pathPattern(source), work);
}

/** A global pattern for `dir` as a whole path (or the start of one), never the start of a longer name. */
export function pathPattern(dir: string): RegExp {
  return new RegExp(`${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.-])`, 'g');
}

/** Every string inside a JSON value passed through {@link inCopy}. */
export function argumentsInCopy<T>(value: T, source: string, work: string): T {
  if (typeof value === 'string') return inCopy(value, source, work) as T;
  if (Array.isArray(value)) return value.map((v) => argumentsInCopy(v, source, work)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, argumentsInCopy(v, source, work)])) as T;
  }
  return value;
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

/** Whether a path of the workdir is left out of the copy: node_modules, or a --exclude glob (relative to the workdir). */
function excluder(source: string, globs: readonly string[]): (file: string) => boolean {
  const match = globs.length > 0 ? picomatch([...globs], { dot: true }) : undefined;
  return (file) => {
    if (file === source) return false;
    if (SKIPPED.has(path.basename(file))) return true;
    const relative = path.relative(source, file);
    return match !== undefined && (match(relative) || match(`${relative}/`));
  };
}

async function sizeOf(
  dir: string,
  limit: number,
  excluded: (file: string) => boolean,
  total = { bytes: 0 },
): Promise<number> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (excluded(full)) continue;
    if (entry.isDirectory()) await sizeOf(full, limit, excluded, total);
    else if (entry.isFile()) total.bytes += (await stat(full)).size;
    if (total.bytes > limit) return total.bytes;
  }
  return total.bytes;
}

/**
 * What services beside the server (the doubles) add to its sandbox: listeners inside on
 * loopback addresses, led to a Unix socket outside (`forwards`) or to the same loopback
 * `host:port` outside (`destinations`, through the bridge); names that resolve to
 * 127.0.0.1 inside (`hosts`); read-only files shown elsewhere (`mounts`); writable paths.
 */
export interface SandboxServices {
  forwards?: readonly ForwardRule[];
  destinations?: readonly Destination[];
  hosts?: readonly string[];
  mounts?: ReadonlyArray<readonly [string, string]>;
  write?: readonly string[];
}

/** The network pieces of the services: listeners inside, the bridge outside, a generated /etc/hosts. */
async function servicesNetwork(
  services: SandboxServices,
  dir: string,
): Promise<{ rules: ForwardRule[]; mounts: Array<[string, string]>; bridge?: Bridge }> {
  const rules = [...(services.forwards ?? [])];
  const hosts = services.hosts ?? [];
  if (rules.length === 0 && hosts.length === 0 && (services.destinations ?? []).length === 0)
    return { rules, mounts: [] };
  await mkdir(dir);
  const bridge = await openBridge(services.destinations ?? [], dir);
  rules.push(...bridge.rules);
  if (hosts.length > 0) await appendFile(bridge.hostsFile, hosts.map((name) => `127.0.0.1 ${name}\n`).join(''));
  return { rules, mounts: [[bridge.hostsFile, '/etc/hosts']], bridge };
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
  /** Globs (relative to the workdir) left out of the copy, e.g. `.git`, `data/**`. */
  exclude?: readonly string[];
  maxBytes?: number;
  services?: SandboxServices;
}): Promise<Sandbox> {
  const limit = options.maxBytes ?? 100 * 1024 * 1024;
  const source = path.resolve(options.workdir);
  const excluded = excluder(source, options.exclude ?? []);
  const size = await sizeOf(source, limit, excluded);
  if (size > limit) {
    throw new CandorError(
      `The workdir ${source} holds more than ${Math.round(limit / 1048576)} MB (without node_modules and what --exclude leaves out); pass --exclude GLOB (e.g. --exclude .git) or a smaller --workdir.`,
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
    filter: (file) => !excluded(file),
    verbatimSymlinks: true,
  });
  await Promise.all([mkdir(home), mkdir(tmp), mkdir(traceDir)]);
  const trace = path.join(traceDir, 'trace');
  const services = options.services ?? {};
  const net = await servicesNetwork(services, path.join(base, 'net'));
  // A server given the real workdir (a root folder argument, a DSN naming a file in it) gets the copy instead.
  let server = { command: options.command, args: options.args.map((arg) => inCopy(arg, source, work)) };
  if (net.rules.length > 0) server = forwardedCommand(net.rules, server.command, server.args);
  const args = bwrapArgs({
    network: 'loopback',
    write: [work, home, tmp, traceDir, ...(services.write ?? [])],
    mounts: [...net.mounts, ...(services.mounts ?? [])],
    // Ports below 1024 of the sandbox's own loopback (an API double at :443).
    keepCapabilities: net.rules.some((rule) => rule.port < 1024) ? ['CAP_NET_BIND_SERVICE'] : [],
    chdir: work,
    env: { HOME: home, TMPDIR: tmp },
    command: 'strace',
    args: [
      '-f',
      // Only the traced syscalls stop the server (a seccomp filter picks them), not every read and futex:
      // a node server starts about 1.6 times faster (strace(1), --seccomp-bpf).
      '--seccomp-bpf',
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
      server.command,
      ...server.args,
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
    dispose: async () => {
      await net.bridge?.close();
      await rm(base, { recursive: true, force: true });
    },
  };
}
