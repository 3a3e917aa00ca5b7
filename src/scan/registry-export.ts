/**
 * An MCP Registry export: the list an organisation keeps of the servers it allows,
 * as the registry's API answers it (`GET /v0.1/servers`: `{ servers: [{ server, _meta }],
 * metadata }`), a JSON array of those entries, or a JSON array of plain server.json
 * documents. Each entry becomes one server.json file in a folder of the batch's own,
 * so the batch scans it as it would any server.json and keeps a copy with the verdict.
 * Entries the registry marks `deleted` are left out and named; nothing is dropped
 * silently.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CandorError } from '../errors.js';
import { isRecord } from '../util/is-record.js';

/** The `_meta` key under which the official registry keeps its own facts about an entry. */
const OFFICIAL = 'io.modelcontextprotocol.registry/official';

/** One server of an export, as read. */
export interface RegistryEntry {
  /** The server.json document itself. */
  server: Record<string, unknown>;
  /** `name@version`, or the entry's place in the file when those are missing. */
  label: string;
  /** The registry's status for the entry (`active`, `deprecated`, `deleted`), when it gives one. */
  status?: string;
}

/** What an export gave: the server.json files to scan and the entries left out. */
export interface UnpackedExport {
  /** Absolute paths of the server.json files written, in the export's order. */
  files: string[];
  /** Entries left out, each with why (`name@1.0.0: deleted in the registry`). */
  skipped: string[];
}

const officialOf = (entry: Record<string, unknown>, server: Record<string, unknown>) => {
  for (const meta of [entry._meta, server._meta]) {
    if (isRecord(meta) && isRecord(meta[OFFICIAL])) return meta[OFFICIAL] as Record<string, unknown>;
  }
  return undefined;
};

/**
 * The entries of a registry export, or undefined when the JSON is not one (a list of
 * target strings, a client config, a single server.json).
 *
 * @example
 * ```ts
 * registryEntries({ servers: [{ server: { name: 'io.github.x/y', version: '1.0.0', packages: [] } }] });
 * // [{ server: {…}, label: 'io.github.x/y@1.0.0' }]
 * ```
 */
export function registryEntries(data: unknown): RegistryEntry[] | undefined {
  const list = Array.isArray(data) ? data : isRecord(data) && Array.isArray(data.servers) ? data.servers : undefined;
  if (!list || list.length === 0 || !list.every(isRecord)) return undefined;
  return (list as Record<string, unknown>[]).map((entry, index) => {
    // The API wraps each server.json as `{ server, _meta }`; older exports list server.json documents.
    const server = isRecord(entry.server) ? entry.server : entry;
    const official = officialOf(entry, server);
    const name = typeof server.name === 'string' ? server.name : undefined;
    const version = typeof server.version === 'string' ? server.version : undefined;
    return {
      server,
      label: name ? `${name}${version ? `@${version}` : ''}` : `entry ${index}`,
      ...(typeof official?.status === 'string' ? { status: official.status } : {}),
    };
  });
}

/** A file name for an entry: readable, and unique by its place in the export. */
const fileNameFor = (entry: RegistryEntry, index: number) =>
  `${String(index).padStart(4, '0')}-${entry.label
    .toLowerCase()
    .replace(/[^a-z0-9.@-]+/g, '-')
    .replace(/^[-.]+|-+$/g, '')
    .slice(0, 80)}.server.json`;

/**
 * Write each entry of an export as a server.json into `dir` (created), leaving out the
 * entries the registry marks deleted.
 *
 * @example
 * ```ts
 * const { files, skipped } = await unpackRegistryExport(entries, 'scan-out/server-json');
 * ```
 */
export async function unpackRegistryExport(entries: readonly RegistryEntry[], dir: string): Promise<UnpackedExport> {
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  const skipped: string[] = [];
  for (const [index, entry] of entries.entries()) {
    if (entry.status === 'deleted') {
      skipped.push(`${entry.label}: deleted in the registry`);
      continue;
    }
    const file = path.resolve(dir, fileNameFor(entry, index));
    await writeFile(file, `${JSON.stringify(entry.server, null, 2)}\n`);
    files.push(file);
  }
  if (files.length === 0)
    throw new CandorError(`the registry export has no server left to scan (${skipped.join('; ')}).`, {
      code: 'invalid_target',
    });
  return { files, skipped };
}
