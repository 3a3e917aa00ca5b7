/**
 * The server's own log: a file the server made and opened for writing before a
 * call (a diagnostic log stream opened at start-up), which the call only lengthened
 * by whole lines of text while its trace shows no open of that file. Writing to
 * it is the server noting what it did, not the tool changing anything, so it is
 * reported apart (`diff.logged`) rather than as the tool's write.
 *
 * Every condition is evidence about this run, never a file name:
 * - the trace shows the server opening the file for writing before the call, and
 *   no open of it during the call: the bytes went through a descriptor held from
 *   before (a file opened in the call, even to append one line, stays a write);
 * - the file did not exist before the server started: data that was there (the
 *   user's notes, a database) is never the server's log, however it is written;
 * - the old content is an exact prefix of the new and what was added is whole
 *   lines of UTF-8 text: a log only grows, while a database held open rewrites
 *   pages in place and a binary journal is not text;
 * - the call's arguments do not name it.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { CallRecord } from './evidence.js';
import type { Snapshot } from './snapshot.js';
import type { TracedEffect } from './trace.js';

const TEXT = new TextDecoder('utf-8', { fatal: true });

/**
 * Files the server opened for writing so far, and the check of each call against them.
 *
 * @example
 * ```ts
 * const logs = new OwnLogs(scene.initial);
 * logs.saw(startupEffects);
 * await logs.setAside(record, before); // record.diff.logged: ['/tmp/…/home/.app/logs/1_log']
 * ```
 */
export class OwnLogs {
  readonly #opened = new Set<string>();
  readonly #initial: ReadonlySet<string>;

  constructor(initial: ReadonlySet<string>) {
    this.#initial = initial;
  }

  /** Note the files opened for writing in traced effects that came before the next call. */
  saw(effects: readonly TracedEffect[]): void {
    for (const effect of effects) if (effect.kind === 'write') this.#opened.add(effect.path);
  }

  /**
   * Move the files of `record.diff.modified` that are the server's own log to
   * `record.diff.logged`, then note the call's own opens (a descriptor opened in this
   * call is "from before" for the next one).
   */
  async setAside(record: CallRecord, before: Snapshot): Promise<void> {
    // Any traced effect on the file in this call (an open, a truncation, a rename onto it) makes it the call's.
    const touchedNow = new Set(
      record.effects.flatMap((e) => (e.kind === 'rename' ? [e.path, e.to] : e.kind === 'connect' ? [] : [e.path])),
    );
    const named = JSON.stringify(record.args);
    const logged: string[] = [];
    for (const file of record.diff.modified) {
      if (!this.#opened.has(file) || touchedNow.has(file) || this.#initial.has(file) || named.includes(file)) continue;
      if (await onlyAppendedLines(file, before.get(file))) logged.push(file);
    }
    if (logged.length > 0) {
      record.diff.modified = record.diff.modified.filter((file) => !logged.includes(file));
      record.diff.logged = [...(record.diff.logged ?? []), ...logged];
    }
    this.saw(record.effects);
  }
}

/** Whether `file` now is its snapshot value's content (`size:sha1…`) followed by whole lines of text. */
async function onlyAppendedLines(file: string, was: string | undefined): Promise<boolean> {
  const match = was === undefined ? null : /^(\d+):([0-9a-f]{40})(?: |$)/.exec(was);
  if (!match) return false;
  const size = Number(match[1]);
  let now: Buffer;
  try {
    now = await readFile(file);
  } catch {
    return false;
  }
  if (now.length <= size) return false;
  if (createHash('sha1').update(now.subarray(0, size)).digest('hex') !== match[2]) return false;
  const added = now.subarray(size);
  if (added.at(-1) !== 0x0a || added.includes(0)) return false;
  try {
    TEXT.decode(added);
    return true;
  } catch {
    return false;
  }
}
