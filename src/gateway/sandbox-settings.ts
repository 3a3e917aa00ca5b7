/**
 * The sandbox settings of a config file: each entry's `"sandbox"` and the
 * top-level `"sandbox": true`, checked one way for `candor gateway` and for
 * `candor pin`, `verify` and `ui`, which start the same entries to list their tools
 * and must confine them as the gateway would.
 */
import path from 'node:path';
import { parseSandboxSpec } from '../sandbox/spec.js';
import type { SandboxSpec } from '../sandbox/types.js';
import { entryToTarget } from '../targets/config-file.js';
import { isRecord } from '../util/is-record.js';
import { fail, gatewaySection, readConfigJson } from './config-json.js';

/** What a config file says about sandboxes. */
export interface SandboxSettings {
  /** The top-level `"sandbox"`: every stdio entry not marked `false` in the default sandbox. */
  byDefault?: boolean;
  /** Each entry's `"sandbox"`, by server name (entries without one are absent). */
  servers: Record<string, SandboxSpec | false>;
}

/**
 * An entry's `"sandbox"` value, checked; undefined when it has none.
 *
 * @example
 * ```ts
 * entrySandbox('/x/candor.gateway.json', 'servers.fs', { command: 'node', sandbox: true }, true); // the default spec
 * ```
 */
export function entrySandbox(
  file: string,
  where: string,
  entry: Record<string, unknown>,
  stdio: boolean,
): SandboxSpec | false | undefined {
  if (entry.sandbox === undefined) return undefined;
  if (!stdio && entry.sandbox !== false) {
    fail(file, `${where}.sandbox`, 'only stdio servers (a "command") run in a sandbox; this one is reached by URL.');
  }
  return parseSandboxSpec(entry.sandbox, (sub, reason) => fail(file, `${where}.sandbox${sub}`, reason));
}

/**
 * The top-level `"sandbox"` of a gateway section, checked; undefined when absent.
 *
 * @example
 * ```ts
 * rootSandbox('/x/candor.gateway.json', '', { sandbox: true }); // true
 * ```
 */
export function rootSandbox(file: string, prefix: string, root: Record<string, unknown>): boolean | undefined {
  if (root.sandbox === undefined) return undefined;
  if (typeof root.sandbox !== 'boolean') {
    fail(file, `${prefix}sandbox`, 'expected true (every stdio upstream in the default sandbox) or false.');
  }
  return root.sandbox;
}

/**
 * Read a config file's sandbox settings, as the gateway reads them. Only the sandbox
 * keys are checked: the file may be any client config `candor pin` reads.
 *
 * @example
 * ```ts
 * const settings = await loadSandboxSettings('candor.gateway.json');
 * settings.servers.github; // { network: ['api.github.com:443'], read: [], write: [], env: ['GITHUB_TOKEN'] }
 * ```
 */
export async function loadSandboxSettings(file: string): Promise<SandboxSettings> {
  const absolute = path.resolve(file);
  const parsed = await readConfigJson(absolute);
  const settings: SandboxSettings = { servers: {} };
  if (!isRecord(parsed)) return settings;
  // A candor.config.json without a "gateway" object is read by its mcpServers, as `candor pin` reads it.
  const section = gatewaySection(parsed, absolute) ?? {
    root: parsed,
    prefix: '',
    map: parsed.mcpServers,
    mapKey: 'mcpServers',
    clientConfig: true,
  };
  if (!section.clientConfig) {
    const byDefault = rootSandbox(absolute, section.prefix, section.root);
    if (byDefault !== undefined) settings.byDefault = byDefault;
  }
  if (!isRecord(section.map)) return settings;
  for (const [name, entry] of Object.entries(section.map)) {
    if (!isRecord(entry)) continue;
    const byUrl = entryToTarget(name, entry, absolute).kind === 'http';
    const spec = entrySandbox(absolute, `${section.mapKey}.${name}`, entry, !byUrl);
    if (spec !== undefined) settings.servers[name] = spec;
  }
  return settings;
}
