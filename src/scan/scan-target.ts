/**
 * From what the person named to a report: an npm package spec, an MCP Registry
 * `server.json`, a URL, a config entry or a command. Throwaway folders (the
 * install, the generated workdir) are removed however the scan ends. Every
 * failure to scan is a {@link CandorError} whose message says why.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { CandorError } from '../errors.js';
import type { ServiceRequest } from '../observe/services.js';
import { parseTargets } from '../targets/parse.js';
import type { HttpTarget } from '../targets/types.js';
import { InstallError, installPackage } from './install.js';
import { mergeServices, servicesOfServerJson } from './list-entry.js';
import { checkRemoteAddress } from './remote-address.js';
import { type ScanBase, scanRemote, scanServer } from './scan.js';
import { readServerJson } from './server-json.js';
import { planServerJson } from './server-json-plan.js';
import type { ScanReport } from './types.js';
import { generateWorkdir } from './workdir.js';

/** One target and how to scan it. */
export interface ScanTargetOptions {
  /** The words naming the target (one: a package, a server.json, a URL, file.json#name). */
  words: string[];
  /** A stdio command after `--`, instead of words. */
  command?: string[];
  /** `--env`/`--env-file`: the server's environment, and values for server.json's inputs. */
  env?: Record<string, string>;
  /** A workdir to copy (default: a generated one). */
  workdir?: string;
  /** The user's cache folder (`~/.cache/candor`). */
  cacheDir: string;
  allowScripts?: boolean;
  /** Let a server.json's remote be on a private, loopback or link-local address. */
  allowPrivateNetwork?: boolean;
  skip?: string[];
  timeoutMs?: number;
  budgetSeconds?: number;
  /** The protocol era to speak (default: a config entry's `"protocol"`, else `auto`). */
  protocol?: 'legacy' | 'modern' | 'auto';
  /** Doubles to start beside the server (`--service postgres=DATABASE_URL`). */
  services?: ServiceRequest[];
  candorVersion: string;
  progress?: (line: string) => void;
}

/** npm's own settings for the registry and its certificate authorities, as npm itself reads them. */
async function npmSettings(): Promise<{ registry: string; cafile?: string }> {
  const get = async (key: string) =>
    (await promisify(execFile)('npm', ['config', 'get', key]).catch(() => ({ stdout: '' }))).stdout.trim();
  const [registry, cafile] = await Promise.all([get('registry'), get('cafile')]);
  return {
    registry: registry && registry !== 'undefined' ? registry : 'https://registry.npmjs.org/',
    ...(cafile && cafile !== 'null' && cafile !== 'undefined' ? { cafile } : {}),
  };
}

/** A word that is an npm package spec (`name`, `@scope/name@1.2.3`). */
export function isPackageSpec(word: string): boolean {
  return /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(@[^\s/]+)?$/i.test(word) && !/\.jsonc?$/i.test(word);
}

/**
 * A word naming an MCP Registry server.json (not a client config, not `file.json#name`):
 * a name ending in `server.json`, or JSON whose `$schema` is the server schema or that
 * lists `packages` or `remotes` (client configs hold `mcpServers` or `servers`).
 */
export async function isServerJson(word: string): Promise<boolean> {
  if (!/\.json$/i.test(word)) return false;
  if (/server\.json$/i.test(word)) return true;
  try {
    const data = JSON.parse(await readFile(word, 'utf8')) as Record<string, unknown>;
    return (
      (typeof data.$schema === 'string' && data.$schema.includes('server.schema.json')) ||
      Array.isArray(data.packages) ||
      Array.isArray(data.remotes)
    );
  } catch {
    return false;
  }
}

interface Stdio {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/**
 * Scan one target. Throws a {@link CandorError} when it cannot be scanned (bad
 * target or server.json, npm refused the install, the server did not start or
 * cannot be reached).
 *
 * @example
 * ```ts
 * const report = await scanTarget({ words: ['./server.json'], cacheDir, candorVersion: '1.0.0' });
 * ```
 */
export async function scanTarget(options: ScanTargetOptions): Promise<ScanReport> {
  const startedAt = Date.now();
  // A variable a double is named for (`--service postgres=DATABASE_URL`) fills a server.json input of that
  // name with the double's placeholder, which observe replaces with its URL.
  let services = options.services ?? [];
  const givenFor = (list: readonly ServiceRequest[]) => ({
    ...Object.fromEntries(list.flatMap((s) => (s.env ?? []).map((name) => [name, `{${s.kind}}`]))),
    ...options.env,
  });
  let given = givenFor(services);
  const cleanup: string[] = [];
  const base: ScanBase = {
    target: options.command?.length ? options.command.join(' ') : options.words.join(' '),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.budgetSeconds !== undefined ? { budgetSeconds: options.budgetSeconds } : {}),
    ...(options.protocol ? { protocol: options.protocol } : {}),
    candorVersion: options.candorVersion,
    startedAt,
    ...(options.progress ? { progress: options.progress } : {}),
  };
  const install = async (spec: string, registry?: string): Promise<Stdio> => {
    const began = Date.now();
    const settings = await npmSettings();
    const installed = await installPackage({
      spec,
      cacheDir: options.cacheDir,
      ...settings,
      ...(registry ? { registry } : {}),
      allowScripts: options.allowScripts === true,
      ...(options.progress ? { progress: options.progress } : {}),
    }).catch((error: unknown) => {
      if (error instanceof InstallError) throw new InstallError(`could not install ${spec}:\n${error.message}`);
      throw error;
    });
    cleanup.push(installed.prefix);
    base.installSeconds = Math.round((Date.now() - began) / 100) / 10;
    base.package = {
      name: installed.name,
      version: installed.version,
      ...(installed.integrity ? { integrity: installed.integrity } : {}),
    };
    options.progress?.(`installed ${installed.name}@${installed.version}`);
    return { command: installed.command, args: installed.args };
  };
  try {
    const word = options.words[0];
    let stdio: Stdio | undefined;
    let remote: HttpTarget | undefined;
    if (!options.command?.length && options.words.length === 1 && word !== undefined && (await isServerJson(word))) {
      const file = path.resolve(word);
      const server = await readServerJson(file);
      // The doubles the server.json names for itself join the run's (a kind given by flag wins).
      services = mergeServices(services, servicesOfServerJson(server, file));
      given = givenFor(services);
      let plan: ReturnType<typeof planServerJson>;
      try {
        plan = planServerJson(server, given);
      } catch (error) {
        throw new CandorError(`${file}: ${(error as Error).message}`, { code: 'invalid_target' });
      }
      const entry = `${plan.kind === 'package' ? 'packages' : 'remotes'}[${plan.index}]`;
      base.serverJson = { file, name: server.name, version: server.version, entry };
      for (const note of plan.notes) options.progress?.(note);
      if (plan.missing.length > 0) {
        base.needs = plan.missing;
        options.progress?.(`${entry} needs ${plan.missing.join(', ')}, which were not given (--env NAME=VALUE)`);
      }
      if (plan.kind === 'package') {
        const started = await install(plan.spec, plan.registry);
        stdio = {
          command: started.command,
          args: [...plan.runtimeArgs, ...started.args, ...plan.packageArgs],
          env: { ...plan.env, ...given },
        };
      } else {
        if (!options.allowPrivateNetwork) await checkRemoteAddress(plan.url, { file, entry });
        remote = {
          kind: 'http',
          url: plan.url,
          transport: plan.transport,
          label: plan.url,
          ...(Object.keys(plan.headers).length > 0 ? { headers: plan.headers } : {}),
        };
      }
    } else if (!options.command?.length && options.words.length === 1 && word !== undefined && isPackageSpec(word)) {
      stdio = { ...(await install(word)), env: given };
    } else {
      const targets = await parseTargets({ targets: options.words, command: options.command ?? [] });
      const target = targets[0];
      if (targets.length !== 1 || (target?.kind !== 'stdio' && target?.kind !== 'http')) {
        throw new CandorError(
          'candor scan takes one target: an npm package, a server.json, a URL, a config entry, or -- a stdio command.',
          { code: 'invalid_target' },
        );
      }
      if (target.kind === 'http') remote = target;
      // A `--` command's `env` is the caller's whole environment; only its own variables enter the sandbox.
      else
        stdio = {
          command: target.command,
          args: target.args,
          env: { ...(target.ownEnv ?? target.env ?? {}), ...given },
        };
      if (target.kind === 'stdio' && !options.command?.length) base.target = target.label;
      // A config entry's "protocol" holds the scan to that era unless --protocol says otherwise.
      if (base.protocol === undefined && target.protocol !== undefined) base.protocol = target.protocol;
    }
    if (remote) return await scanRemote({ ...base, remote });
    const workdir = options.workdir ? path.resolve(options.workdir) : await generateWorkdir();
    if (!options.workdir) {
      cleanup.push(workdir);
      // The server runs in the generated workdir, so a relative path to its own files is taken from here.
      stdio = {
        ...stdio!,
        args: stdio!.args.map((arg) =>
          /^\.{1,2}\//.test(arg) ||
          (arg.includes('/') && !path.isAbsolute(arg) && !arg.startsWith('-') && existsSync(arg))
            ? path.resolve(arg)
            : arg,
        ),
      };
    }
    return await scanServer({
      ...base,
      command: stdio!.command,
      args: stdio!.args,
      ...(stdio!.env && Object.keys(stdio!.env).length > 0 ? { env: stdio!.env } : {}),
      workdir,
      ...(options.skip ? { skip: options.skip } : {}),
      ...(services.length ? { services } : {}),
    }).catch((error: unknown) => {
      // A server that stops at start for want of a required input: say which one.
      if (error instanceof CandorError && error.code === 'observe_start_failed' && base.needs?.length)
        throw new CandorError(
          `${error.message}
server.json marks ${base.needs.join(', ')} required; give it with --env NAME=VALUE.`,
          {
            code: error.code,
            cause: error,
          },
        );
      throw error;
    });
  } finally {
    await Promise.all(cleanup.map((dir) => rm(dir, { recursive: true, force: true })));
  }
}
