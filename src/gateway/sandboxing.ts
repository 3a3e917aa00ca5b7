/**
 * Sandboxed stdio upstreams: each stdio upstream whose config asks for a
 * sandbox (or every one not marked `"sandbox": false`, with `--sandbox`) is started
 * inside the shared bubblewrap sandbox (src/sandbox). Where the machine cannot
 * sandbox, such an upstream is refused with one line and never run unsandboxed.
 */

import { CandorError } from '../errors.js';
import {
  checkSandboxPlatform,
  DEFAULT_SANDBOX,
  describeSandbox,
  prepareServerSandbox,
  type SandboxSpec,
  type SandboxSummary,
  type ServerSandbox,
} from '../sandbox/index.js';
import type { StdioTarget, Target } from '../targets/types.js';
import type { ServerLogger } from '../util/logger.js';
import { upstreamOf } from './config.js';
import { loadSandboxSettings, type SandboxSettings } from './sandbox-settings.js';
import type { GatewayOptions, UpstreamConfig } from './types.js';

/** The upstreams as the host gets them, and what the sandbox made of each. */
export interface SandboxedUpstreams {
  /** Host server configs (sandboxed ones start bwrap); refused upstreams are left out. */
  servers: Record<string, Omit<UpstreamConfig, 'sandbox' | 'sandboxEnv'>>;
  /** How each sandboxed upstream is confined. */
  summaries: Map<string, SandboxSummary>;
  /** Upstreams that asked for a sandbox this machine cannot give, with the one-line reason. */
  refused: Map<string, string>;
  /** Remove the sandboxes' private folders and network bridges. */
  dispose(): Promise<void>;
}

/**
 * The sandbox an upstream runs in, or undefined (HTTP upstreams, `"sandbox": false`,
 * or no `--sandbox` and nothing asked).
 *
 * @example
 * ```ts
 * sandboxSpecOf({ command: 'node', args: ['s.js'] }, true); // the default sandbox
 * ```
 */
export function sandboxSpecOf(config: UpstreamConfig, byDefault: boolean | undefined): SandboxSpec | undefined {
  if (config.command === undefined || config.sandbox === false) return undefined;
  if (typeof config.sandbox === 'object') return config.sandbox;
  if (config.sandbox === true || byDefault) return { ...DEFAULT_SANDBOX, read: [], write: [], env: [] };
  return undefined;
}

/**
 * Put every upstream that asks for it in a sandbox.
 *
 * @example
 * ```ts
 * const prepared = await sandboxUpstreams(options, logger);
 * ```
 */
export async function sandboxUpstreams(options: GatewayOptions, logger: ServerLogger): Promise<SandboxedUpstreams> {
  const servers: SandboxedUpstreams['servers'] = {};
  const summaries = new Map<string, SandboxSummary>();
  const refused = new Map<string, string>();
  const sandboxes: ServerSandbox[] = [];
  try {
    for (const [name, config] of Object.entries(options.servers)) {
      const { sandbox: _sandbox, sandboxEnv, ...rest } = config;
      const spec = sandboxSpecOf(config, options.sandbox);
      if (!spec) {
        servers[name] = rest;
        continue;
      }
      try {
        checkSandboxPlatform({ who: 'candor gateway', code: 'sandbox_unsupported' });
      } catch (error) {
        const line = `${name}: not started: it asks for a sandbox and ${(error as CandorError).message.replace(/^candor gateway /, 'this machine ')}`;
        refused.set(name, line);
        logger.error(line);
        continue;
      }
      const sandbox = await prepareServerSandbox({
        name,
        command: config.command!,
        args: config.args ?? [],
        ...(config.cwd ? { cwd: config.cwd } : {}),
        ...((sandboxEnv ?? config.env) ? { env: sandboxEnv ?? config.env } : {}),
        spec,
      });
      sandboxes.push(sandbox);
      const { cwd: _cwd, ...withoutCwd } = rest;
      servers[name] = { ...withoutCwd, command: sandbox.command, args: sandbox.args, env: sandbox.env };
      summaries.set(name, sandbox.summary);
      logger.info(`${name}: sandboxed (${describeSandbox(sandbox.summary)})`);
    }
  } catch (error) {
    await Promise.all(sandboxes.map((s) => s.dispose()));
    throw error instanceof CandorError
      ? error
      : new CandorError(`Cannot prepare a sandbox: ${(error as Error).message}`, {
          code: 'sandbox_failed',
          cause: error,
        });
  }
  return {
    servers,
    summaries,
    refused,
    dispose: async () => {
      await Promise.all(sandboxes.map((s) => s.dispose()));
    },
  };
}

/**
 * One line per upstream on how it runs, for `candor gateway --print-config`.
 *
 * @example
 * ```ts
 * sandboxLines({ servers: { memory: { command: 'node', args: ['m.js'] } }, sandbox: true });
 * // ['candor gateway: memory runs sandboxed (no network; reads its package folder; env PATH, HOME, TMPDIR)']
 * ```
 */
export function sandboxLines(options: GatewayOptions): string[] {
  return Object.entries(options.servers).map(([name, config]) => {
    if (config.command === undefined) return `candor gateway: ${name} is reached by URL (no sandbox)`;
    const spec = sandboxSpecOf(config, options.sandbox);
    if (!spec) return `candor gateway: ${name} runs unsandboxed (with your files, network and environment)`;
    const summary = {
      network: spec.network,
      read: ['its package folder', ...spec.read],
      write: spec.write,
      env: [...new Set(['PATH', 'HOME', 'TMPDIR', ...spec.env, ...Object.keys(config.sandboxEnv ?? config.env ?? {})])],
    };
    return `candor gateway: ${name} runs sandboxed (${describeSandbox(summary)})`;
  });
}

/**
 * Stdio servers a command names (`candor pin`, `verify`, `ui`), confined as `candor
 * gateway` confines them: those commands start a config entry's server to
 * list its tools, a stranger's code before anyone approved it. An entry's `"sandbox"`,
 * its file's top-level `"sandbox": true` or `sandbox` (the command's `--sandbox`) put
 * it in the sandbox; where the machine cannot sandbox, it is refused with the
 * gateway's line. The result is keyed by the names given.
 *
 * @example
 * ```ts
 * const prepared = await sandboxTargets([['github', target]], { sandbox: false, logger });
 * prepared.refused.get('github'); // 'github: not started: it asks for a sandbox and …' on a machine without bwrap
 * ```
 */
export async function sandboxTargets(
  targets: ReadonlyArray<readonly [name: string, target: StdioTarget]>,
  options: { sandbox?: boolean; logger: ServerLogger },
): Promise<SandboxedUpstreams> {
  const files = new Map<string, SandboxSettings>();
  const servers: Record<string, UpstreamConfig> = {};
  for (const [name, target] of targets) {
    const upstream = upstreamOf(target);
    if (target.source) {
      const { file, name: entry } = target.source;
      if (!files.has(file)) files.set(file, await loadSandboxSettings(file));
      const settings = files.get(file)!;
      const spec = settings.servers[entry];
      if (spec !== undefined) upstream.sandbox = spec;
      else if (settings.byDefault) upstream.sandbox = true;
    }
    servers[name] = upstream;
  }
  return sandboxUpstreams({ servers, ...(options.sandbox ? { sandbox: true } : {}) }, options.logger);
}

/** Targets as a command will start them (see {@link confineTargets}). */
export interface ConfinedTargets {
  /** In the given order: sandboxed stdio servers start bwrap; a refused one is `invalid`, its reason the gateway's line. */
  targets: Target[];
  /** The gateway's one-line refusals, in target order. */
  refused: string[];
  /** Remove the sandboxes' private folders and network bridges (after the servers stopped). */
  dispose(): Promise<void>;
}

/**
 * The targets a command names, each stdio server confined as `candor gateway` would
 * confine it ({@link sandboxTargets}), for commands that start servers to look at
 * them: `candor pin`, `verify`, `lint`, `inspect`, `call`.
 *
 * @example
 * ```ts
 * const confined = await confineTargets(await parseTargets({ config: 'candor.gateway.json' }), { logger });
 * try { await lintTargets(confined.targets); } finally { await confined.dispose(); }
 * ```
 */
export async function confineTargets(
  targets: readonly Target[],
  options: { sandbox?: boolean; logger: ServerLogger },
): Promise<ConfinedTargets> {
  const taken = new Set<string>();
  const keys = targets.map((target) => {
    const base = target.source?.name ?? target.label;
    let key = base;
    for (let i = 2; taken.has(key); i++) key = `${base}-${i}`;
    taken.add(key);
    return key;
  });
  const stdio = targets.flatMap((target, index) => (target.kind === 'stdio' ? [[keys[index]!, target] as const] : []));
  if (stdio.length === 0) return { targets: [...targets], refused: [], dispose: async () => {} };
  const prepared = await sandboxTargets(stdio, options);
  const confined = targets.map((target, index): Target => {
    if (target.kind !== 'stdio') return target;
    const key = keys[index]!;
    const refusal = prepared.refused.get(key);
    if (refusal !== undefined) {
      return {
        kind: 'invalid',
        label: target.label,
        ...(target.source ? { source: target.source } : {}),
        reason: refusal,
      };
    }
    const config = prepared.summaries.has(key) ? prepared.servers[key] : undefined;
    if (!config) return target;
    const { cwd: _cwd, ownEnv: _ownEnv, ...rest } = target;
    return { ...rest, command: config.command!, args: config.args ?? [], env: config.env ?? {} };
  });
  return { targets: confined, refused: [...prepared.refused.values()], dispose: () => prepared.dispose() };
}
