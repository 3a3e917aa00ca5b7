/**
 * Snapshots of the sandbox's writable folders: evidence that holds
 * even when the trace misses something. A snapshot maps each file to its size
 * and content hash; the diff of two says what a call created, changed or deleted.
 */
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** path → `size:sha1` (or `dir`, `link`). */
export type Snapshot = Map<string, string>;

/** What changed between two snapshots. */
export interface SnapshotDiff {
  created: string[];
  modified: string[];
  deleted: string[];
}

/**
 * Snapshot every file under the given roots.
 *
 * @example
 * ```ts
 * const before = await snapshot(['/tmp/work']);
 * ```
 */
export async function snapshot(roots: readonly string[]): Promise<Snapshot> {
  const out: Snapshot = new Map();
  const walk = async (dir: string): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        out.set(full, 'dir');
        await walk(full);
      } else if (entry.isSymbolicLink()) {
        out.set(full, 'link');
      } else if (entry.isFile()) {
        try {
          const info = await lstat(full);
          const hash = createHash('sha1')
            .update(await readFile(full))
            .digest('hex');
          out.set(full, `${info.size}:${hash}`);
        } catch {
          // Gone while we looked: the next snapshot says so.
        }
      }
    }
  };
  for (const root of roots) await walk(root);
  return out;
}

/**
 * What changed from `before` to `after`.
 *
 * @example
 * ```ts
 * diffSnapshots(before, after); // { created: ['/tmp/work/out.txt'], modified: [], deleted: [] }
 * ```
 */
export function diffSnapshots(before: Snapshot, after: Snapshot): SnapshotDiff {
  const diff: SnapshotDiff = { created: [], modified: [], deleted: [] };
  for (const [file, value] of after) {
    const old = before.get(file);
    if (old === undefined) diff.created.push(file);
    else if (old !== value) diff.modified.push(file);
  }
  for (const file of before.keys()) if (!after.has(file)) diff.deleted.push(file);
  return diff;
}

/** Whether a diff is empty. */
export function unchanged(diff: SnapshotDiff): boolean {
  return diff.created.length === 0 && diff.modified.length === 0 && diff.deleted.length === 0;
}
