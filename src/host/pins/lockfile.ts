/**
 * `candor.lock.json`: the pinned definition and hash of every tool of every
 * server, per server. It keeps the definitions (not only the hashes) so drift
 * can be shown field by field.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { CandorError } from '../../errors.js';
import type { WireToolLike } from '../../tool/annotations.js';
import { isRecord } from '../../util/is-record.js';
import { hashDefinition, type PinnedDefinition, pinnedDefinition } from './pin-hash.js';

/** The default lockfile name. */
export const LOCKFILE_NAME = 'candor.lock.json';

/** One pinned tool. */
export interface PinnedTool {
  hash: string;
  definition: PinnedDefinition;
  /** Lint rules whose door-scan findings the person accepted when pinning (`candor pin --accept`). */
  accepted?: string[];
}

/** The pins of one server, by tool name (the server's own names, not namespaced). */
export interface ServerPins {
  tools: Record<string, PinnedTool>;
}

/** The lockfile's content. */
export interface Lockfile {
  lockfileVersion: 1;
  servers: Record<string, ServerPins>;
}

/**
 * Pin a server's tools as they are now.
 *
 * @example
 * ```ts
 * const { tools } = await client.listTools();
 * const lock: Lockfile = { lockfileVersion: 1, servers: { memory: pinTools(tools) } };
 * ```
 */
export function pinTools(
  tools: readonly WireToolLike[],
  accepted: Readonly<Record<string, readonly string[]>> = {},
): ServerPins {
  const pinned: Record<string, PinnedTool> = {};
  for (const tool of [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const definition = pinnedDefinition(tool);
    pinned[tool.name] = { hash: hashDefinition(definition), definition };
    const rules = accepted[tool.name];
    if (rules && rules.length > 0) pinned[tool.name]!.accepted = [...new Set(rules)].sort();
  }
  return { tools: pinned };
}

/** An empty lockfile. */
export function emptyLockfile(): Lockfile {
  return { lockfileVersion: 1, servers: {} };
}

/**
 * Read a lockfile. A missing file gives `undefined`; a malformed one throws a
 * {@link CandorError} that says what is wrong and where.
 *
 * @example
 * ```ts
 * const lock = (await readLockfile('candor.lock.json')) ?? emptyLockfile();
 * ```
 */
export async function readLockfile(path: string): Promise<Lockfile | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CandorError(`Cannot read the lockfile ${path}: ${(error as Error).message}`, {
      code: 'lockfile_unreadable',
      cause: error,
    });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CandorError(`The lockfile ${path} is not valid JSON: ${(error as Error).message}`, {
      code: 'lockfile_invalid',
      cause: error,
    });
  }
  return parseLockfile(data, path);
}

/**
 * Check a parsed lockfile's shape.
 *
 * @example
 * ```ts
 * const lock = parseLockfile(JSON.parse(text), 'candor.lock.json');
 * ```
 */
export function parseLockfile(data: unknown, where = 'lockfile'): Lockfile {
  const fail = (what: string): never => {
    throw new CandorError(`The lockfile ${where} is malformed: ${what}. Re-create it with \`candor pin\`.`, {
      code: 'lockfile_invalid',
    });
  };
  if (!isRecord(data)) return fail('it is not a JSON object');
  if (data.lockfileVersion !== 1) return fail(`lockfileVersion is ${JSON.stringify(data.lockfileVersion)}, expected 1`);
  if (!isRecord(data.servers)) return fail('"servers" is not an object');
  for (const [server, pins] of Object.entries(data.servers)) {
    if (!isRecord(pins) || !isRecord(pins.tools)) return fail(`servers.${server}.tools is not an object`);
    for (const [tool, pin] of Object.entries(pins.tools)) {
      if (!isRecord(pin) || typeof pin.hash !== 'string' || !isRecord(pin.definition)) {
        return fail(`servers.${server}.tools.${tool} needs "hash" (string) and "definition" (object)`);
      }
      if (pin.definition.name !== tool) return fail(`servers.${server}.tools.${tool}.definition.name is not "${tool}"`);
    }
  }
  return data as unknown as Lockfile;
}

/**
 * Write a lockfile: stable order, two-space indent, trailing newline, replaced
 * atomically (a crash never leaves half a file).
 *
 * @example
 * ```ts
 * await writeLockfile('candor.lock.json', lock);
 * ```
 */
export async function writeLockfile(path: string, lock: Lockfile): Promise<void> {
  const servers: Record<string, ServerPins> = {};
  for (const name of Object.keys(lock.servers).sort()) {
    const pins = lock.servers[name]!;
    const tools: Record<string, PinnedTool> = {};
    for (const tool of Object.keys(pins.tools).sort()) tools[tool] = pins.tools[tool]!;
    servers[name] = { tools };
  }
  const text = `${JSON.stringify({ lockfileVersion: 1, servers }, null, 2)}\n`;
  const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, text, 'utf8');
  await rename(temporary, path);
}
