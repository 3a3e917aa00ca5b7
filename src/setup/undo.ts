/**
 * `candor setup --undo`: put back what setup changed and remove its folder. A file
 * nobody changed since setup wrote it gets its backup back byte for byte. A file
 * someone did change (Claude Code rewrites ~/.claude.json as it runs; its user and
 * local scopes of every project share that file) gets only the server map setup
 * replaced put back, so the other changes are kept.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { pathText, restoreServerMap } from './client-file.js';
import { contentHash, readRecord } from './state.js';

/** One file undo put back: whole, or only the server map at `only`. */
export interface Restored {
  file: string;
  /** The JSON path of the server map put back when the rest of the file was kept. */
  only?: string;
}

async function readOptional(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Put every backed-up file back as it was before the first setup, and remove the folder.
 *
 * @example
 * ```ts
 * const restored = await undoSetup(folder); // [{ file: '/home/me/.cursor/mcp.json' }]
 * ```
 */
export async function undoSetup(folder: string): Promise<Restored[]> {
  const record = await readRecord(folder);
  if (!record) return [];
  const restored: Restored[] = [];
  const mapPath = record.mapPath;
  for (const { file, backup, written } of record.backups) {
    const now = await readOptional(file);
    const before = backup === null ? undefined : await readFile(backup);
    // Records of older versions have no hash or map path: the whole file goes back.
    const changed = now !== undefined && written !== undefined && mapPath !== undefined && contentHash(now) !== written;
    if (changed) {
      await writeFile(file, restoreServerMap(now.toString('utf8'), before?.toString('utf8'), mapPath));
      restored.push({ file, only: pathText(mapPath) });
    } else {
      if (before === undefined) await rm(file, { force: true });
      else await writeFile(file, before);
      restored.push({ file });
    }
  }
  await rm(folder, { recursive: true, force: true });
  return restored;
}
