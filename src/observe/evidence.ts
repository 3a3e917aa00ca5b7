/**
 * Evidence classes: what one observed call did, sorted into kinds
 * with a rule each, so a reviewer is never shown a false alarm made of the
 * wrong kind of evidence:
 * - a write: file content changed (created, modified) outside the server's scratch;
 * - a deletion: data that existed before the run deleted, truncated or replaced;
 * - an exec: a program run (reported; never by itself a write, its own writes are traced);
 * - a network attempt: an outbound connection or a name lookup (a contradiction
 *   only for `openWorldHint: false`);
 * - the server's own scratch: files under the sandbox's TMPDIR or HOME caches,
 *   runtime bytecode and journals, deletions of files created during this run
 *   (a lock or temp file the server made itself), and files a program rewrote
 *   while what they record stayed the same (a git index whose stat cache
 *   `git status` refreshed, a file renamed over with its own content) or wrote
 *   inside a folder tagged as a cache (`CACHEDIR.TAG`), reported apart;
 * - the server's own log: lines appended to a file the server made and opened
 *   before the call, through that descriptor (own-log.ts), reported apart.
 */
import path from 'node:path';
import type { WitnessChange } from './doubles/types.js';
import type { SnapshotDiff } from './snapshot.js';
import type { TracedEffect } from './trace.js';

/** What one observed call did. */
export interface CallRecord {
  args: Record<string, unknown>;
  /** True when the call did its work: no `isError`, no protocol error, and no error answered as plain text. */
  ok: boolean;
  error?: string;
  /** The answer's text (text blocks, then structured content), cut to 4 KiB: for the idempotency check. */
  answer?: string;
  effects: TracedEffect[];
  diff: SnapshotDiff;
  /** Rows the call deleted from SQLite files that were in the workdir (the database witness). */
  rowsDeleted?: Array<{ file: string; table: string; rows: number }>;
  /** What the witnesses of the doubles beside the server saw change during the call (rows, tables, keys). */
  changes?: WitnessChange[];
}

/** Where the sandbox keeps things, and what existed before the server started. */
export interface Scene {
  work: string;
  home: string;
  tmp: string;
  /** Every path in the sandbox before the server started. */
  initial: ReadonlySet<string>;
  /** The kinds of double started beside the server (`--service`), if any. */
  doubles?: readonly string[];
}

/** One call's effects, by class. Paths are the sandbox's. */
export interface Evidence {
  writes: string[];
  /** Data that existed before the run, deleted (or renamed over). */
  deletions: string[];
  /** Files that existed before the run, truncated and rewritten: a deletion of their old content. */
  overwrites: string[];
  execs: string[];
  /** Outbound attempts, one line each (`connect 10.0.0.1:443 (attempted)`). */
  network: string[];
  scratch: string[];
  /** The server's own log files the call appended to (`diff.logged`): not the tool's write. */
  logs: string[];
}

/**
 * Files nobody would call state: bytecode, compile caches, database journals, and the lock
 * and temporary files of an atomic write (`config.json.lock`, `config.json.5.1795….tmp`), whose
 * target file is the write that counts.
 */
const BOOKKEEPING =
  /(\.pyc$|\/__pycache__(\/|$)|\/node-compile-cache(\/|$)|-journal$|-wal$|-shm$|\.(lock|tmp|temp|swp)$|~$)/;

/** DNS: a connection to this port is a name lookup. */
export const DNS_PORT = 53;

const under = (file: string, dir: string) => file === dir || file.startsWith(`${dir}${path.sep}`);

/** Whether a path is the server's scratch whatever happens to it: TMPDIR, HOME caches and browser state, bookkeeping files. */
export function isScratchPath(file: string, scene: Scene): boolean {
  return (
    under(file, scene.tmp) ||
    SCRATCH_IN_HOME.some((dir) => under(file, path.join(scene.home, dir))) ||
    BOOKKEEPING.test(file)
  );
}

/**
 * Folders of the sandbox HOME that hold caches and a browser's own state (profile, crash
 * reports, certificate store): churn a browser makes whichever call is running.
 */
const SCRATCH_IN_HOME = ['.cache', '.npm', '.pki', '.config/chromium', '.config/google-chrome'];

/** One line for an outbound connection. */
export function describeConnect(effect: Extract<TracedEffect, { kind: 'connect' }>): string {
  return `${effect.port === DNS_PORT ? 'resolved a name: ' : ''}connect ${effect.address}:${effect.port ?? ''} (${effect.succeeded ? 'connected' : 'attempted'})`;
}

/**
 * Sort one call's effects into evidence classes.
 *
 * @example
 * ```ts
 * classify(call, scene); // { writes: ['/tmp/…/work/out.txt'], deletions: [], overwrites: [], execs: [], network: [], scratch: [], logs: [] }
 * ```
 */
export function classify(call: CallRecord, scene: Scene): Evidence {
  const writes = new Set<string>();
  const deletions = new Set<string>();
  const scratch = new Set<string>();
  const existed = (file: string) => scene.initial.has(file);
  const cached = new Set(call.diff.cached);
  const created = [...call.diff.created, ...cached];
  const isScratch = (file: string) => cached.has(file) || isScratchPath(file, scene);
  for (const file of [...(call.diff.rewritten ?? []), ...cached]) scratch.add(file);
  for (const file of [...call.diff.created, ...call.diff.modified]) {
    // A folder made only to hold scratch (`~/.config` for `~/.config/chromium/…`) is scratch too.
    const inside = created.filter((f) => f.startsWith(`${file}${path.sep}`));
    const holdsOnlyScratch = inside.length > 0 && inside.every(isScratch);
    (isScratch(file) || holdsOnlyScratch ? scratch : writes).add(file);
  }
  const deleted = new Set(call.diff.deleted);
  const changed = new Set([...call.diff.modified, ...call.diff.deleted]);
  for (const effect of call.effects) {
    if (effect.kind === 'delete' || effect.kind === 'rmdir') deleted.add(effect.path);
    // A rename onto a file that existed replaces its data, unless what lands there records the same
    // (the atomic rewrite of a lock-and-rename); a rename away shows in the snapshot as a deletion.
    if (effect.kind === 'rename' && existed(effect.to)) (changed.has(effect.to) ? deleted : scratch).add(effect.to);
  }
  for (const file of deleted) {
    (isScratchPath(file, scene) || !existed(file) ? scratch : deletions).add(file);
  }
  for (const { file, table, rows } of call.rowsDeleted ?? []) {
    deletions.add(`${file} (${rows} row${rows === 1 ? '' : 's'} of table ${table})`);
  }
  // Overwritten: an existing file opened with O_TRUNC (or truncated) whose content changed. Appending
  // changes a file too, but adds; the snapshot alone cannot tell the two apart.
  const modified = new Set(call.diff.modified);
  const overwrites = new Set<string>();
  for (const effect of call.effects) {
    if (effect.kind === 'truncate' && existed(effect.path) && modified.has(effect.path)) {
      if (!isScratchPath(effect.path, scene)) overwrites.add(effect.path);
    }
  }
  const execs = [...new Set(call.effects.filter((e) => e.kind === 'exec').map((e) => e.path))];
  // A name lookup counts even through a loopback resolver (systemd-resolved's 127.0.0.53):
  // resolving a name is reaching for the open world.
  const network = [
    ...new Set(
      call.effects
        .filter((e) => e.kind === 'connect' && e.family !== 'unix' && (!e.loopback || e.port === DNS_PORT))
        .map((e) => describeConnect(e as Extract<TracedEffect, { kind: 'connect' }>)),
    ),
  ];
  return {
    writes: [...writes],
    deletions: [...deletions],
    overwrites: [...overwrites],
    execs,
    network,
    scratch: [...scratch],
    logs: [...(call.diff.logged ?? [])],
  };
}

/** Evidence lines, one per item, each saying its class. */
export function evidenceLines(evidence: Partial<Evidence>): string[] {
  return [
    ...(evidence.writes ?? []).map((f) => `wrote ${f}`),
    ...(evidence.deletions ?? []).map((f) => `deleted ${f}`),
    ...(evidence.overwrites ?? []).map((f) => `overwrote ${f}`),
    ...(evidence.network ?? []),
    ...(evidence.execs ?? []).map((f) => `ran ${f}`),
  ];
}

/**
 * The evidence classes a tool's calls showed, in a fixed order, for the table.
 *
 * @example
 * ```ts
 * effectClasses(calls, scene); // ['wrote', 'database write', 'API write']
 * ```
 */
export function effectClasses(calls: readonly CallRecord[], scene: Scene): string[] {
  const seen = calls.map((c) => classify(c, scene));
  const any = (key: keyof Evidence) => seen.some((e) => e[key].length > 0);
  const database = (kinds: readonly string[]) =>
    calls.some((c) => (c.changes ?? []).some((change) => kinds.includes(change.kind)));
  // Requests an API double received: reads, writes, and POSTs it cannot place either way.
  const sent = (read: boolean | 'ambiguous') =>
    calls.some((c) => (c.changes ?? []).some((x) => x.kind === 'request' && x.read === read));
  return [
    ...(any('writes') ? ['wrote'] : []),
    ...(any('deletions') || any('overwrites') ? ['deleted'] : []),
    ...(database(['db-write', 'db-schema']) ? ['database write'] : []),
    ...(sent(true) ? ['API read'] : []),
    ...(sent(false) ? ['API write'] : []),
    ...(sent('ambiguous') ? ['API request (read or write?)'] : []),
    ...(calls.some((c) => (c.changes ?? []).some((x) => x.kind === 'page')) ? ['page'] : []),
    ...(any('execs') ? ['ran a program'] : []),
    ...(any('network') ? ['network'] : []),
    ...(any('scratch') ? ['scratch'] : []),
    ...(any('logs') ? ['server log'] : []),
  ];
}
