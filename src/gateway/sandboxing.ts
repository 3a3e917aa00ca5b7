/**
 * Sandboxed stdio upstreams (issue 21): each stdio upstream whose config asks for a
 * sandbox (or every one not marked `"sandbox": false`, with `--sandbox`) is started
 * inside the shared bubblewrap sandbox (src/sandbox). Where the machine cannot
 * sandbox, such an upstream is refused with one line and never run unsandboxed.
 */
import type { ServerLogger } from '../engine/logger.js';
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
import type { GatewayOptions, UpstreamConfig } from './types.js';

/** The upstreams as the host gets them, and what the sandbox made of each. */
export interface SandboxedUpstreams {
  /** Host server configs (sandboxed ones start bwrap); refused upstreams are left out. */
  servers: Record<string, Omit<UpstreamConfig, 'sandbox'>>;
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
      const { sandbox: _sandbox, ...rest } = config;
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
        ...(config.env ? { env: config.env } : {}),
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
      env: [...new Set(['PATH', 'HOME', 'TMPDIR', ...spec.env, ...Object.keys(config.env ?? {})])],
    };
    return `candor gateway: ${name} runs sandboxed (${describeSandbox(summary)})`;
  });
}
