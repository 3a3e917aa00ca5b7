/**
 * What a git index records for the user: its tracked entries (path, mode,
 * blob id, merge stage, and the flags a person sets). The rest of the file is
 * git's own cache: each entry's stat data (times, inode, size), which
 * `git status` refreshes on a read, and the extensions (cached trees, the
 * untracked cache, end-of-index offsets). Recognised by content — the `DIRC`
 * signature, a version git writes (2 to 4) and a trailing checksum that holds —
 * never by the file's name. The file is parsed here rather than asked of `git`:
 * running git from outside the sandbox on a copy the server could have changed
 * would run that copy's hooks and `core.fsmonitor` command on the real machine.
 */
import { createHash } from 'node:crypto';

/** Stat data before the blob id: ctime, mtime (seconds and nanoseconds), dev, ino, mode, uid, gid, size. */
const STAT_BYTES = 40;
const MODE_AT = 24;
/** Entry flags (after the blob id): assume-valid, extended, stage (2 bits), name length (12 bits). */
const ASSUME_VALID = 0x8000;
const EXTENDED = 0x4000;
/** Extended flags (version 3 and up): skip-worktree and intent-to-add are a person's choices. */
const SKIP_WORKTREE = 0x4000;
const INTENT_TO_ADD = 0x2000;
/** A split index keeps its entries in another file: this one alone does not say what is tracked. */
const SPLIT_INDEX = 'link';

/** One entry as `git ls-files --stage` would show it, plus the flags a person sets. */
function entryLine(mode: number, oid: string, flags: number, extended: number, name: string): string {
  const marks = `${flags & ASSUME_VALID ? 'v' : ''}${extended & SKIP_WORKTREE ? 's' : ''}${extended & INTENT_TO_ADD ? 'i' : ''}`;
  return `${mode.toString(8)} ${oid} ${(flags >> 12) & 3} ${marks}\t${name}`;
}

/** The entries of an index whose object ids are `idBytes` long, or undefined when the bytes do not parse as one. */
function parse(bytes: Buffer, idBytes: number): string[] | undefined {
  const version = bytes.readUInt32BE(4);
  const count = bytes.readUInt32BE(8);
  const end = bytes.length - idBytes;
  const lines: string[] = [];
  let at = 12;
  let previous = '';
  for (let i = 0; i < count; i++) {
    const start = at;
    if (at + STAT_BYTES + idBytes + 2 > end) return undefined;
    const mode = bytes.readUInt32BE(at + MODE_AT);
    at += STAT_BYTES;
    const oid = bytes.subarray(at, at + idBytes).toString('hex');
    at += idBytes;
    const flags = bytes.readUInt16BE(at);
    at += 2;
    let extended = 0;
    if (flags & EXTENDED) {
      if (version < 3 || at + 2 > end) return undefined;
      extended = bytes.readUInt16BE(at);
      at += 2;
    }
    let name: string;
    if (version === 4) {
      // Version 4 names are prefix-compressed: a varint of bytes to drop from the previous name, then the rest.
      let drop = 0;
      let byte: number;
      do {
        if (at >= end) return undefined;
        byte = bytes[at++]!;
        drop = (drop << 7) | (byte & 0x7f);
        if (byte & 0x80) drop += 1;
      } while (byte & 0x80);
      const nul = bytes.indexOf(0, at);
      if (nul < 0 || nul >= end || drop > previous.length) return undefined;
      name = previous.slice(0, previous.length - drop) + bytes.subarray(at, nul).toString('latin1');
      at = nul + 1;
    } else {
      const nul = bytes.indexOf(0, at);
      if (nul < 0 || nul >= end) return undefined;
      name = bytes.subarray(at, nul).toString('latin1');
      // Padded with 1 to 8 NULs to a multiple of 8 bytes from the entry's start.
      at = start + Math.ceil((nul + 1 - start) / 8) * 8;
      if (at > end || bytes.subarray(nul, at).some((b) => b !== 0)) return undefined;
    }
    previous = name;
    lines.push(entryLine(mode, oid, flags, extended, name));
  }
  // Extensions: a 4-byte signature and a 4-byte size each, up to the checksum.
  while (at < end) {
    if (at + 8 > end) return undefined;
    const signature = bytes.subarray(at, at + 4).toString('latin1');
    const size = bytes.readUInt32BE(at + 4);
    if (signature === SPLIT_INDEX) return undefined;
    at += 8 + size;
  }
  return at === end ? lines : undefined;
}

/** Whether the trailing checksum holds (git may leave it zero when `index.skipHash` is set). */
function checksumHolds(bytes: Buffer, idBytes: number): boolean {
  const trailer = bytes.subarray(bytes.length - idBytes);
  if (trailer.every((b) => b === 0)) return true;
  const algorithm = idBytes === 20 ? 'sha1' : 'sha256';
  return createHash(algorithm)
    .update(bytes.subarray(0, bytes.length - idBytes))
    .digest()
    .equals(trailer);
}

/**
 * The tracked entries of a git index, one line each, or `undefined` when the
 * bytes are not a git index this reader can vouch for (another file, a split
 * index, a damaged one).
 *
 * @example
 * ```ts
 * gitIndexEntries(readFileSync('.git/index')); // ['100644 8baef1b4… 0 \ta.txt']
 * ```
 */
export function gitIndexEntries(bytes: Buffer): string[] | undefined {
  if (bytes.length < 12 + 20 || bytes.subarray(0, 4).toString('latin1') !== 'DIRC') return undefined;
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  // SHA-1 repositories use 20-byte ids, SHA-256 ones 32: the one whose checksum and layout hold is right.
  for (const idBytes of [20, 32]) {
    if (bytes.length < 12 + idBytes || !checksumHolds(bytes, idBytes)) continue;
    const lines = parse(bytes, idBytes);
    if (lines) return lines;
  }
  return undefined;
}
