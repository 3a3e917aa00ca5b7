/**
 * The one place where a path a model sends becomes a real path on disk.
 *
 * Every workspace tool goes through {@link Sandbox.resolve}; nothing else in the
 * pack joins or normalises user paths. A path is refused when it:
 * - contains a NUL byte or is empty;
 * - is absolute and outside the root, or climbs out with `..`;
 * - goes through a symbolic link whose target leaves the root (checked on the
 *   real path of the deepest ancestor that exists, so a link in the middle of a
 *   path that does not exist yet is caught too);
 * - is a dangling symbolic link (its target cannot be checked);
 * - names a device file, a FIFO or a socket (reading a FIFO blocks forever,
 *   reading `/dev/zero` never ends).
 *
 * The check and the use are separate system calls, so a process that can write
 * inside the root can still race a link into place between them; the tools open
 * files with `O_NOFOLLOW` to close the last-component half of that window.
 */
import { constants, realpathSync, type Stats, statSync } from 'node:fs';
import { lstat, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../../src/errors.js';

/** What kind of thing a resolved path must be. */
export type Expect = 'any' | 'file' | 'directory' | 'absent';

export interface ResolveOptions {
  /** `file`/`directory`: must exist and be one; `absent`: must not exist; `any`: may or may not exist. */
  expect?: Expect;
  /** Refuse the root itself (for delete and move). */
  notRoot?: boolean;
  /**
   * Do not follow a symbolic link in the last component: the link itself is the
   * target (delete and move act on the link, never on what it points to).
   */
  noFollow?: boolean;
  /**
   * Skip the final `lstat`: the caller opens the path and checks what it is on
   * the open descriptor (`fstat`, see {@link refuseSpecial}), which is both one
   * system call fewer and free of a gap between check and use. `stats` is then
   * absent and `expect` is not checked.
   */
  checkOnOpen?: boolean;
}

/** A path inside the root, resolved and checked. */
export interface SandboxPath {
  /** The real absolute path (symbolic links resolved for the part that exists). */
  readonly absolute: string;
  /** The path relative to the root, with `/` separators; `.` for the root. */
  readonly relative: string;
  /** `lstat` of the path, when it exists. */
  readonly stats?: Stats;
}

/** Open flag that refuses a symbolic link in the last component (0 where the platform lacks it). */
export const O_NOFOLLOW: number = constants.O_NOFOLLOW ?? 0;

/**
 * A root folder and the rules for staying inside it.
 *
 * @example
 * ```ts
 * const sandbox = new Sandbox('/srv/project');
 * const target = await sandbox.resolve('src/index.ts', { expect: 'file' });
 * target.absolute; // '/srv/project/src/index.ts'
 * await sandbox.resolve('../etc/passwd'); // throws ToolError: outside the workspace root
 * ```
 */
export class Sandbox {
  /** The real path of the root. */
  readonly root: string;

  /** Open a sandbox on an existing directory (its real path becomes the root); throws TypeError otherwise. */
  constructor(root: string) {
    if (typeof root !== 'string' || root === '') throw new TypeError('The workspace root must be a non-empty path.');
    let real: string;
    try {
      real = realpathSync(path.resolve(root));
    } catch {
      throw new TypeError(`The workspace root ${root} does not exist.`);
    }
    if (!statSync(real).isDirectory()) throw new TypeError(`The workspace root ${root} is not a directory.`);
    this.root = real;
  }

  /** The root-relative display form of an absolute path inside the root. */
  display(absolute: string): string {
    const rel = path.relative(this.root, absolute);
    return rel === '' ? '.' : rel.split(path.sep).join('/');
  }

  /**
   * Resolve a path a tool received. Relative paths are taken from the root;
   * absolute paths must point inside it.
   */
  async resolve(input: unknown, options: ResolveOptions = {}): Promise<SandboxPath> {
    const { expect = 'any', notRoot = false, noFollow = false, checkOnOpen = false } = options;
    if (typeof input !== 'string' || input.trim() === '') {
      throw new ToolError('The path is empty; pass a path relative to the workspace root, such as "src/index.ts".');
    }
    if (input.includes('\0')) throw new ToolError('The path contains a NUL byte; pass a plain path.');

    const lexical = path.resolve(this.root, input);
    if (!this.#inside(lexical)) throw outside(input);

    let absolute: string;
    if (noFollow && lexical !== this.root) {
      // The parent is resolved and checked; the last component is taken as it is.
      const parent = await this.#realExisting(input, path.dirname(lexical));
      absolute = path.join(parent, path.basename(lexical));
    } else {
      absolute = await this.#realExisting(input, lexical);
    }
    const relative = this.display(absolute);
    if (checkOnOpen) {
      if (notRoot && absolute === this.root) throw rootItself();
      return { absolute, relative };
    }
    const stats = await lstat(absolute).catch((error) => {
      if (isNotFound(error)) return undefined;
      throw accessError(input, error);
    });
    if (notRoot && absolute === this.root) throw rootItself();
    if (stats) refuseSpecial(relative, stats);
    checkExpectation(relative, stats, expect);
    return { absolute, relative, ...(stats ? { stats } : {}) };
  }

  /**
   * The real path of `lexical`: symbolic links resolved in the deepest ancestor
   * that exists, the missing rest appended. Refused when that leaves the root.
   */
  async #realExisting(input: string, lexical: string): Promise<string> {
    // Fast path: the whole path exists (one system call; the common case for reads).
    try {
      const real = await realpath(lexical);
      if (!this.#inside(real)) {
        throw new ToolError(`${input} goes through a symbolic link that leads outside the workspace root; refused.`, {
          code: 'outside_root',
        });
      }
      return real;
    } catch (error) {
      if (!isNotFound(error)) {
        if (error instanceof ToolError) throw error;
        throw accessError(input, error);
      }
    }
    // Walk up to the deepest ancestor that exists (lstat: a dangling link exists).
    const missing: string[] = [];
    let existing = lexical;
    let existingStats: Stats | undefined;
    for (;;) {
      try {
        existingStats = await lstat(existing);
        break;
      } catch (error) {
        if (!isNotFound(error)) throw accessError(input, error);
        missing.unshift(path.basename(existing));
        const parent = path.dirname(existing);
        if (parent === existing) break;
        existing = parent;
      }
    }

    let realExisting: string;
    try {
      realExisting = await realpath(existing);
    } catch (error) {
      if (isNotFound(error) && existingStats?.isSymbolicLink()) {
        throw new ToolError(
          `${input} goes through a symbolic link whose target does not exist, so it cannot be checked; refused.`,
        );
      }
      throw accessError(input, error);
    }
    if (!this.#inside(realExisting)) {
      throw new ToolError(`${input} goes through a symbolic link that leads outside the workspace root; refused.`, {
        code: 'outside_root',
      });
    }
    if (missing.length > 0 && !(await stat(realExisting)).isDirectory()) {
      throw new ToolError(`${input} cannot exist: ${this.display(realExisting)} is a file, not a directory.`, {
        code: 'not_a_directory',
      });
    }
    return missing.length === 0 ? realExisting : path.join(realExisting, ...missing);
  }

  #inside(absolute: string): boolean {
    const rel = path.relative(this.root, absolute);
    return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
  }
}

function rootItself(): ToolError {
  return new ToolError('That is the workspace root itself; this tool only works on paths inside it.');
}

/**
 * Refuse device files, FIFOs and sockets (reading /dev/zero never ends; opening
 * a FIFO for reading blocks until a writer comes).
 *
 * @example
 * ```ts
 * refuseSpecial('pipe', await handle.stat()); // throws ToolError: pipe is a FIFO (named pipe), …
 * ```
 */
export function refuseSpecial(relative: string, stats: Stats): void {
  const kind = stats.isCharacterDevice()
    ? 'a character device'
    : stats.isBlockDevice()
      ? 'a block device'
      : stats.isFIFO()
        ? 'a FIFO (named pipe)'
        : stats.isSocket()
          ? 'a socket'
          : undefined;
  if (kind) throw new ToolError(`${relative} is ${kind}, not a regular file or directory; refused.`);
}

function checkExpectation(relative: string, stats: Stats | undefined, expect: Expect): void {
  if (expect === 'any') return;
  if (expect === 'absent') {
    if (stats) throw new ToolError(`${relative} already exists.`, { code: 'exists' });
    return;
  }
  if (!stats) {
    throw new ToolError(`No ${expect} at ${relative}; list_directory or glob shows what is there.`, {
      code: 'not_found',
    });
  }
  if (expect === 'file' && !stats.isFile()) {
    throw new ToolError(`${relative} is a directory, not a file; list_directory shows what is in it.`, {
      code: 'not_a_file',
    });
  }
  if (expect === 'directory' && !stats.isDirectory()) {
    throw new ToolError(`${relative} is a file, not a directory.`, { code: 'not_a_directory' });
  }
}

function outside(input: string): ToolError {
  return new ToolError(
    `${input} is outside the workspace root; pass a path relative to the root (paths cannot climb out with ".." or point elsewhere).`,
    { code: 'outside_root' },
  );
}

function accessError(input: string, error: unknown): ToolError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return new ToolError(`${input}: permission denied.`, { code: 'denied' });
  if (code === 'ENOTDIR') return new ToolError(`${input}: a part of the path is a file, not a directory.`);
  if (code === 'ELOOP') return new ToolError(`${input}: too many levels of symbolic links; refused.`);
  return new ToolError(`${input} cannot be resolved (${code ?? 'unknown error'}).`, { cause: error });
}

/** True for ENOENT (and ENOTDIR is not: a file in the middle of a path is a real problem). */
export function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}
