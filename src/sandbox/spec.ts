/**
 * A `"sandbox"` config value, checked: `true` (the default sandbox),
 * `false` (none), or `{ "network", "read", "write", "env" }`. Every mistake is
 * reported through `fail(where, reason)` with the JSON path below the entry, so
 * the config reader can name the file too.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { parseDestination } from './destination.js';
import type { SandboxSpec } from './types.js';

/** Keys a sandbox object may have. */
export const SANDBOX_KEYS = ['network', 'read', 'write', 'env'] as const;

/** The default sandbox: no network, nothing readable beyond the system and the package, no env but PATH. */
export const DEFAULT_SANDBOX: Readonly<SandboxSpec> = Object.freeze({ network: false, read: [], write: [], env: [] });

/**
 * Check a `"sandbox"` value. Returns the spec, or `false` for `"sandbox": false`.
 *
 * @example
 * ```ts
 * parseSandboxSpec({ network: ['api.github.com:443'], env: ['GITHUB_TOKEN'] }, (where, why) => { throw new Error(`${where}: ${why}`); });
 * ```
 */
export function parseSandboxSpec(value: unknown, fail: (where: string, reason: string) => never): SandboxSpec | false {
  if (value === false) return false;
  if (value === true) return { ...DEFAULT_SANDBOX, read: [], write: [], env: [] };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail('', 'expected true, false or { "network": false, "read": [], "write": [], "env": [] }.');
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!(SANDBOX_KEYS as readonly string[]).includes(key)) {
      fail(`.${key}`, `unknown key; a sandbox has ${SANDBOX_KEYS.join(', ')}.`);
    }
  }
  const spec: SandboxSpec = { network: false, read: [], write: [], env: [] };
  const network = record.network;
  if (network === true || network === false || network === undefined) spec.network = network ?? false;
  else if (Array.isArray(network)) {
    spec.network = network.map((entry, index) => {
      const parsed = typeof entry === 'string' ? parseDestination(entry) : 'expected "host:port".';
      if (typeof parsed === 'string') fail(`.network[${index}]`, parsed);
      return entry as string;
    });
  } else fail('.network', 'expected false (loopback only), true (the host network) or ["host:port", …].');
  for (const key of ['read', 'write'] as const) {
    const list = record[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) fail(`.${key}`, 'expected an array of absolute paths.');
    spec[key] = list.map((entry, index) => {
      const where = `.${key}[${index}]`;
      if (typeof entry !== 'string' || entry === '') fail(where, 'expected an absolute path.');
      const expanded = entry === '~' || entry.startsWith('~/') ? path.join(homedir(), entry.slice(1)) : entry;
      if (!path.isAbsolute(expanded)) {
        fail(where, `${JSON.stringify(entry)} is relative; sandbox paths must be absolute (or start with ~/).`);
      }
      if (!existsSync(expanded)) fail(where, `${expanded} does not exist; create it or leave it out.`);
      return path.normalize(expanded);
    });
  }
  if (record.env !== undefined) {
    if (!Array.isArray(record.env)) fail('.env', 'expected an array of environment variable names.');
    spec.env = record.env.map((entry, index) => {
      if (typeof entry !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(entry)) {
        fail(
          `.env[${index}]`,
          `expected an environment variable name (letters, digits, _); got ${JSON.stringify(entry)}.`,
        );
      }
      return entry;
    });
  }
  return spec;
}
