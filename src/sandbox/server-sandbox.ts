/**
 * An untrusted stdio server in the sandbox: the filesystem read-only,
 * the user's private folders (HOME, /home, /root, /tmp, /run, …) hidden except the
 * server's own package folder and the paths given, writable only where the spec
 * says, a private HOME and TMPDIR, an environment of PATH plus the names listed,
 * no network, the host's, or only the allowed destinations (through `bridge.ts`),
 * no capabilities, and every process it starts dying with it.
 */
import { existsSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Bridge, openBridge } from './bridge.js';
import { bwrapArgs } from './bwrap.js';
import { type Destination, parseDestination } from './destination.js';
import { builtScript } from './forward-command.js';
import { FORWARD_RULES_ENV } from './forwarding.js';
import { nodeProgram } from './node-program.js';
import { packageFolders } from './package-folder.js';
import type { SandboxPlan, SandboxSpec } from './types.js';

/** Folders a sandboxed server never sees unless a path below them is given. */
const PRIVATE = ['/home', '/root', '/tmp', '/var/tmp', '/run', '/mnt', '/media', '/srv'];

/** What a sandbox lets a server do, for the status resource and `--print-config`. */
export interface SandboxSummary {
  /** `false`: loopback only; `true`: the host's network; else the allowed destinations. */
  network: boolean | string[];
  /** Readable beside the system folders: the package folders and the `read` paths. */
  read: string[];
  write: string[];
  /** Environment variable names passed in (PATH, HOME and TMPDIR always; HOME and TMPDIR private). */
  env: string[];
}

/** A prepared sandbox for one stdio server. */
export interface ServerSandbox {
  command: 'bwrap';
  args: string[];
  /** The environment bwrap is started with (the sandbox clears it and sets its own). */
  env: Record<string, string>;
  summary: SandboxSummary;
  /** Close the network bridge and remove the private HOME and TMPDIR. */
  dispose(): Promise<void>;
}

/** What to run and how to confine it. */
export interface ServerSandboxInput {
  /** Names the private folder (`candor-sandbox-<name>-…`). */
  name: string;
  command: string;
  args: readonly string[];
  cwd?: string;
  /** Values the config sets explicitly for the server. */
  env?: Readonly<Record<string, string>>;
  spec: SandboxSpec;
  /** Destinations beyond the spec's, already checked (a service double's routes, with their targets). */
  routes?: readonly Destination[];
  /** Read-only files shown inside at another path: [outside, inside] (a CA bundle over the system one). */
  mounts?: ReadonlyArray<readonly [string, string]>;
}

function inside(child: string, parent: string): boolean {
  return child.startsWith(parent === path.sep ? parent : `${parent}${path.sep}`);
}

function real(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/**
 * Prepare the sandbox of one stdio server: private folders, the network bridge, bwrap's arguments.
 *
 * @example
 * ```ts
 * const sandbox = await prepareServerSandbox({ name: 'memory', command: 'node', args: ['server.js'], spec: DEFAULT_SANDBOX });
 * spawn(sandbox.command, sandbox.args, { env: sandbox.env });
 * ```
 */
export async function prepareServerSandbox(input: ServerSandboxInput): Promise<ServerSandbox> {
  const { spec } = input;
  const home = real(homedir());
  const hide = [home, ...PRIVATE]
    .filter((dir) => existsSync(dir))
    .map(real)
    .filter((dir, i, all) => all.indexOf(dir) === i);
  const hidden = hide.filter((dir) => !hide.some((other) => other !== dir && inside(dir, other)));
  const base = await mkdtemp(path.join(tmpdir(), `candor-sandbox-${input.name.replace(/[^A-Za-z0-9.-]/g, '-')}-`));
  const privateHome = path.join(base, 'home');
  const privateTmp = path.join(base, 'tmp');
  await Promise.all([mkdir(privateHome), mkdir(privateTmp)]);

  const cwd = input.cwd ?? process.cwd();
  const pathVar = process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin';
  const needed: string[] = [];
  /** The bridge's socket folder: readable, but not worth a line in the summary. */
  const internal: string[] = [];
  /** Show `folder` (or only `file`, when the folder is a hidden one or holds one); whether the folder is visible. */
  const reveal = (folder: string, file: string): boolean => {
    if (!hidden.some((dir) => dir === folder || inside(folder, dir))) return true; // visible anyway
    if (!hidden.some((dir) => dir === folder || inside(dir, folder))) {
      needed.push(folder);
      return true;
    }
    if (file !== folder) needed.push(file);
    return false;
  };
  for (const { folder, file } of packageFolders(input.command, input.args, cwd, pathVar)) reveal(folder, file);
  const workdir = input.cwd ? real(input.cwd) : undefined;
  const chdir = workdir && reveal(workdir, workdir) ? workdir : privateHome;

  let bridge: Bridge | undefined;
  let command = input.command;
  let args = [...input.args];
  const mounts: Array<readonly [string, string]> = [...(input.mounts ?? [])];
  const keepCapabilities: string[] = [];
  const forwardEnv: Record<string, string> = {};
  // Routes need the sandbox's own network namespace: with the host's network there is nothing to bridge.
  if (Array.isArray(spec.network) || (spec.network === false && (input.routes ?? []).length > 0)) {
    const listed = Array.isArray(spec.network) ? spec.network : [];
    const destinations = [...listed.map((entry) => parseDestination(entry) as Destination), ...(input.routes ?? [])];
    const netDir = path.join(base, 'net');
    await mkdir(netDir);
    bridge = await openBridge(destinations, netDir);
    mounts.push([bridge.hostsFile, '/etc/hosts']);
    if (destinations.some((d) => d.port < 1024)) keepCapabilities.push('CAP_NET_BIND_SERVICE');
    const rules = JSON.stringify(bridge.rules);
    // A Node server listens for the allow-list in its own process (no second Node start-up);
    // any other program runs under the forwarder process.
    const node = nodeProgram(command, args, cwd, pathVar);
    const script = builtScript(node ? 'forwarder-hook.js' : 'forwarder.js');
    for (const { folder, file } of packageFolders(process.execPath, [script], cwd, pathVar)) reveal(folder, file);
    if (node) {
      args = ['--import', pathToFileURL(script).href, ...node.args];
      command = node.node;
      forwardEnv[FORWARD_RULES_ENV] = rules;
    } else {
      args = [script, rules, command, ...args];
      command = process.execPath;
    }
    internal.push(netDir);
  } else if (spec.network === true) {
    // The host network needs the host's resolver, often a link into /run.
    const resolv = real('/etc/resolv.conf');
    if (resolv !== '/etc/resolv.conf' && existsSync(resolv)) mounts.push([resolv, resolv]);
  }

  const read = [...new Set([...needed, ...spec.read])];
  const env: Record<string, string> = { PATH: pathVar, HOME: privateHome, TMPDIR: privateTmp };
  for (const name of spec.env) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, input.env ?? {}, forwardEnv);
  const plan: SandboxPlan = {
    network: spec.network === true ? 'host' : 'loopback',
    hide: hidden,
    read: [...read, ...internal],
    write: [...spec.write, privateHome, privateTmp],
    mounts,
    keepCapabilities,
    chdir,
    clearEnv: true,
    env,
    command,
    args,
  };
  return {
    command: 'bwrap',
    args: bwrapArgs(plan),
    env: { PATH: pathVar },
    summary: {
      // Routes are destinations too: the summary never says "no network" when some are open.
      network:
        bridge && (input.routes ?? []).length > 0
          ? [...(Array.isArray(spec.network) ? spec.network : []), ...input.routes!.map((r) => `${r.host}:${r.port}`)]
          : spec.network,
      read,
      write: [...spec.write],
      env: [...new Set(['PATH', 'HOME', 'TMPDIR', ...spec.env, ...Object.keys(input.env ?? {})])],
    },
    dispose: async () => {
      await bridge?.close();
      await rm(base, { recursive: true, force: true });
    },
  };
}

/**
 * One line on a sandbox, for logs and `--print-config`.
 *
 * @example
 * ```ts
 * describeSandbox({ network: false, read: [], write: [], env: ['PATH'] }); // 'no network; env PATH'
 * ```
 */
export function describeSandbox(summary: SandboxSummary): string {
  const parts = [
    summary.network === true
      ? 'host network'
      : summary.network === false
        ? 'no network'
        : `network only to ${summary.network.join(', ')}`,
  ];
  if (summary.read.length > 0) parts.push(`reads ${summary.read.join(', ')}`);
  if (summary.write.length > 0) parts.push(`writes ${summary.write.join(', ')}`);
  parts.push(`env ${summary.env.join(', ')}`);
  return parts.join('; ');
}
