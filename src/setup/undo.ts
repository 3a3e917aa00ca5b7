/**
 * `candor setup --undo`: a three-way merge (undo-plan.ts) of the client's file before
 * setup, the file now and the gateway config now, then setup's folder removed. A file
 * nobody changed since setup wrote it, with the same servers behind the gateway, gets its
 * backup back byte for byte. A server that cannot be placed is written to a file of its
 * own next to setup's folders and named, never dropped.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CandorError } from '../errors.js';
import { pathText, serversIn } from './client-file.js';
import { contentHash, readMoved, readRecord } from './state.js';
import type { ClientSpec, MovedServer } from './types.js';
import { type Leftover, planUndo } from './undo-plan.js';

/** What undo did to one client file. */
export interface Restored {
  file: string;
  /** The JSON path of the server map, when the rest of the file was kept as it is now. */
  only?: string;
  /** Servers put back into the client's file. */
  placed: string[];
  /** Of those, the ones added behind the gateway since setup. */
  added: string[];
  /** Servers that could not be placed, and the file they were written to. */
  leftovers?: { file: string; servers: Record<string, Leftover> };
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Undo setup of one client file and remove setup's folder.
 *
 * @example
 * ```ts
 * const restored = await undoSetup(folder, cursor); // [{ file: '/home/me/.cursor/mcp.json', placed: ['memory'], added: [] }]
 * ```
 */
export async function undoSetup(folder: string, client: ClientSpec): Promise<Restored[]> {
  const record = await readRecord(folder);
  if (!record) return [];
  const mapPath = record.mapPath ?? [...client.mapPath];
  const backup = record.backups.find((b) => b.file === record.clientFile);
  if (!backup)
    throw new CandorError(`${folder}: setup's record has no backup of ${record.clientFile}.`, {
      code: 'invalid_server_config',
    });
  const current = await readOptional(record.clientFile);
  const before = backup.backup === null ? undefined : await readFile(backup.backup, 'utf8');
  const gatewayText = await readOptional(record.gatewayConfig);
  // Records of older versions kept no list of moved servers: those in the backup are the ones.
  const moved: Record<string, MovedServer> =
    (await readMoved(folder)) ??
    Object.fromEntries(
      Object.entries(before === undefined ? {} : serversIn(before, record.clientFile, mapPath)).map(([name, entry]) => [
        name,
        { entry: entry as Record<string, unknown>, upstream: {} },
      ]),
    );
  const plan = planUndo({
    client,
    file: record.clientFile,
    mapPath,
    current,
    before,
    unchangedSinceSetup:
      current !== undefined &&
      backup.written !== undefined &&
      !backup.changedBetween &&
      contentHash(current) === backup.written,
    gatewayText,
    moved,
  });
  const restored: Restored = { file: record.clientFile, placed: plan.placed, added: plan.added };
  if (!plan.whole) restored.only = pathText(mapPath);
  if (Object.keys(plan.leftovers).length > 0) {
    const file = path.join(path.dirname(folder), `${path.basename(folder)}-not-restored-${Date.now()}.json`);
    const servers = Object.fromEntries(Object.entries(plan.leftovers).map(([name, l]) => [name, l.entry]));
    const why = Object.fromEntries(Object.entries(plan.leftovers).map(([name, l]) => [name, l.reason]));
    // The entries may carry secret values, as the client's file did: readable by its owner only.
    await writeFile(file, `${JSON.stringify({ why, servers }, null, 2)}\n`, { mode: 0o600 });
    restored.leftovers = { file, servers: plan.leftovers };
  }
  if (plan.text === undefined) await rm(record.clientFile, { force: true });
  else await writeFile(record.clientFile, plan.text);
  await rm(folder, { recursive: true, force: true });
  return [restored];
}
