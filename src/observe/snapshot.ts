/**
 * Snapshots of the sandbox's writable folders: evidence that holds
 * even when the trace misses something. A snapshot maps each file to its size
 * and content hash (and, for a format a reader recognises, what the file
 * records: file-meaning.ts); the diff of two says what a call created, changed
 * or deleted, and which changed files still record the same thing.
 */
import { createHash } from 'node:crypto';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { CACHE_TAG, fileMeaning } from './file-meaning.js';

/** path → `size:sha1`, then ` ` and the file's meaning when a reader recognises it (or `dir`, `link`). */
export type Snapshot = Map<string, string>;

/** What changed between two snapshots. */
export interface SnapshotDiff {
  created: string[];
  modified: string[];
  deleted: string[];
  /**
   * Files whose bytes changed while what they record did not (a git index whose
   * stat cache was refreshed): the program's bookkeeping, not in `modified`.
   */
  rewritten?: string[];
  /**
   * Files created, changed or deleted inside a folder tagged as a cache (a
   * `CACHEDIR.TAG` with the specification's signature) that was a cache before the
   * call or made by it: the program's to rebuild, not in the lists above.
   */
  cached?: string[];
  /**
   * Files the server appended whole lines of text to through a descriptor it opened
   * before the call, having made them itself (own-log.ts): its own log, not in `modified`.
   */
  logged?: string[];
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
          const bytes = await readFile(full);
          const hash = createHash('sha1').update(bytes).digest('hex');
          const meaning = fileMeaning(bytes);
          out.set(full, `${info.size}:${hash}${meaning === undefined ? '' : ` ${meaning}`}`);
        } catch {
          // Gone while we looked: the next snapshot says so.
        }
      }
    }
  };
  for (const root of roots) {
    // The roots count as folders that exist, so a cache tag dropped into an empty one is not taken for the run's own.
    out.set(root, 'dir');
    await walk(root);
  }
  return out;
}

/**
 * What changed from `before` to `after`; `initial` (the sandbox before the server
 * started, default `before`) says which cache tags are honoured.
 *
 * @example
 * ```ts
 * diffSnapshots(before, after); // { created: ['/tmp/work/out.txt'], modified: [], deleted: [] }
 * ```
 */
export function diffSnapshots(before: Snapshot, after: Snapshot, initial: Snapshot = before): SnapshotDiff {
  const diff: SnapshotDiff = { created: [], modified: [], deleted: [] };
  const kept = cacheFolders(initial, before, after);
  const gone = cacheFolders(initial, before, before);
  const inside = (folders: readonly string[], file: string) =>
    folders.some((dir) => file === dir || file.startsWith(`${dir}${path.sep}`));
  const cached = (file: string) => {
    diff.cached ??= [];
    diff.cached.push(file);
  };
  for (const [file, value] of after) {
    const old = before.get(file);
    if (old !== value && inside(kept, file)) cached(file);
    else if (old === undefined) diff.created.push(file);
    else if (old !== value) {
      const meaning = meaningOf(value);
      if (meaning !== undefined && meaning === meaningOf(old)) {
        diff.rewritten ??= [];
        diff.rewritten.push(file);
      } else diff.modified.push(file);
    }
  }
  for (const file of before.keys()) {
    if (after.has(file)) continue;
    if (inside(gone, file)) cached(file);
    else diff.deleted.push(file);
  }
  return diff;
}

/**
 * Folders tagged as caches in `after` whose tag is honoured: it was there before the run
 * (`initial`), or the folder is the run's own and came with its tag (new in this call, or tagged
 * already before it). A tag dropped into a folder that held data does not make that data a cache,
 * else a server could hide its writes behind one.
 */
function cacheFolders(initial: Snapshot, before: Snapshot, after: Snapshot): string[] {
  const tagged = (shot: Snapshot, file: string) => meaningOf(shot.get(file) ?? '') === CACHE_TAG;
  // A snapshot lists what is inside its roots, not the roots: a folder with anything in it existed.
  const held = (shot: Snapshot, dir: string) =>
    shot.has(dir) || [...shot.keys()].some((file) => file.startsWith(`${dir}${path.sep}`));
  const folders: string[] = [];
  for (const [file, value] of after) {
    if (path.basename(file) !== 'CACHEDIR.TAG' || meaningOf(value) !== CACHE_TAG) continue;
    const dir = path.dirname(file);
    const runsOwn = !held(initial, dir) && (!held(before, dir) || tagged(before, file));
    if (tagged(initial, file) || runsOwn) folders.push(dir);
  }
  return folders;
}

/** The meaning part of a snapshot value, if any. */
function meaningOf(value: string): string | undefined {
  const space = value.indexOf(' ');
  return space < 0 ? undefined : value.slice(space + 1);
}

/** Whether a diff is empty (files rewritten to the same meaning count as unchanged). */
export function unchanged(diff: SnapshotDiff): boolean {
  return diff.created.length === 0 && diff.modified.length === 0 && diff.deleted.length === 0;
}

/** The first file (by name) in the workdir copy, outside hidden folders: what "an existing file" arguments name. */
export function firstFile(shot: Snapshot, work: string): string | undefined {
  return [...shot.entries()]
    .filter(
      ([file, value]) => file.startsWith(`${work}/`) && /^\d+:/.test(value) && !file.slice(work.length).includes('/.'),
    )
    .map(([file]) => file)
    .sort()[0];
}
