/**
 * Reading and writing text files inside the sandbox: UTF-8 only, binary files
 * refused with a message that says what to do instead, sizes capped, the last
 * path component never followed if it became a link after the check.
 */
import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { ToolError } from '../../src/errors.js';
import { O_NOFOLLOW, refuseSpecial, type SandboxPath } from './sandbox.js';

const SNIFF_BYTES = 8192;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The text of a buffer, or why it is not text: NUL bytes in the first 8 KiB, or
 * bytes that are not valid UTF-8.
 */
export function decodeText(bytes: Uint8Array): { text: string } | { reason: string } {
  if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return { reason: 'it contains NUL bytes' };
  try {
    return { text: utf8.decode(bytes) };
  } catch {
    return { reason: 'it is not valid UTF-8' };
  }
}

/** Format a byte count the way people read it: `512 B`, `1.5 KiB`, `2.0 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GiB`;
}

/**
 * Open a regular file for reading and check it on the descriptor: never
 * through a link in the last component (`O_NOFOLLOW`), never blocking on a FIFO
 * (`O_NONBLOCK`), refusing directories, devices, FIFOs and sockets.
 *
 * @example
 * ```ts
 * const { handle, size } = await openRegularFile(await sandbox.resolve('a.txt', { checkOnOpen: true }));
 * ```
 */
export async function openRegularFile(target: SandboxPath): Promise<{ handle: FileHandle; size: number }> {
  const handle = await open(target.absolute, constants.O_RDONLY | O_NOFOLLOW | (constants.O_NONBLOCK ?? 0)).catch(
    (error) => {
      throw openError(target.relative, error);
    },
  );
  try {
    const info = await handle.stat();
    if (info.isDirectory()) {
      throw new ToolError(`${target.relative} is a directory, not a file; list_directory shows what is in it.`, {
        code: 'not_a_file',
      });
    }
    refuseSpecial(target.relative, info);
    return { handle, size: info.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * Read a whole text file, refusing binary content and files over `maxBytes`.
 *
 * @example
 * ```ts
 * const text = await readTextFile(await sandbox.resolve('a.txt', { checkOnOpen: true }), { maxBytes: 1 << 20 });
 * ```
 */
export async function readTextFile(target: SandboxPath, options: { maxBytes: number; hint?: string }): Promise<string> {
  const { handle, size } = await openRegularFile(target);
  try {
    if (size > options.maxBytes) {
      throw new ToolError(
        `${target.relative} is ${formatBytes(size)}, over the ${formatBytes(options.maxBytes)} limit${options.hint ? `; ${options.hint}` : '.'}`,
        { code: 'too_large' },
      );
    }
    const bytes = await readAll(handle, size);
    if (bytes.length > options.maxBytes) {
      throw new ToolError(`${target.relative} grew past the ${formatBytes(options.maxBytes)} limit while being read.`, {
        code: 'too_large',
      });
    }
    const decoded = decodeText(bytes);
    if ('reason' in decoded) {
      throw new ToolError(
        `${target.relative} looks like a binary file (${decoded.reason}); this tool works on UTF-8 text only. file_info shows its size and type.`,
        { code: 'binary' },
      );
    }
    return decoded.text;
  } finally {
    await handle.close();
  }
}

/** Read a file whose size `fstat` gave: one read when the size is right, the slow way if it changed. */
async function readAll(handle: FileHandle, size: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(size + 1);
  const { bytesRead } = await handle.read(buffer, 0, size + 1, 0);
  if (bytesRead <= size) return buffer.subarray(0, bytesRead);
  // The file grew since fstat: read it all.
  return handle.readFile();
}

/**
 * Write text to a file. `mode: 'create'` fails if anything exists at the path
 * (`O_EXCL`, which also refuses a link planted there); `'replace'` truncates.
 */
export async function writeTextFile(
  target: SandboxPath,
  content: string,
  options: { mode: 'create' | 'replace'; maxBytes: number },
): Promise<number> {
  const bytes = Buffer.from(content, 'utf8');
  if (bytes.length > options.maxBytes) {
    throw new ToolError(
      `The content is ${formatBytes(bytes.length)}, over the ${formatBytes(options.maxBytes)} write limit.`,
      { code: 'too_large' },
    );
  }
  const flags =
    options.mode === 'create'
      ? constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW
      : constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | O_NOFOLLOW;
  const handle = await open(target.absolute, flags, 0o644).catch((error) => {
    throw openError(target.relative, error);
  });
  try {
    await handle.writeFile(bytes);
  } finally {
    await handle.close();
  }
  return bytes.length;
}

/** Translate an `open` failure into something a model can act on. */
export function openError(relative: string, error: unknown): ToolError {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'EEXIST':
      return new ToolError(`${relative} already exists.`, { code: 'exists' });
    case 'ENOENT':
      return new ToolError(`No file at ${relative}; list_directory or glob shows what is there.`, {
        code: 'not_found',
      });
    case 'ENXIO':
      return new ToolError(
        `${relative} is a socket (or a device with nothing behind it), not a regular file; refused.`,
        {
          code: 'special_file',
        },
      );
    case 'ENOTDIR':
      return new ToolError(`${relative}: a part of the path is a file, not a directory.`, { code: 'not_found' });
    case 'ELOOP':
      return new ToolError(`${relative} is a symbolic link; refused.`, { code: 'symlink' });
    case 'EISDIR':
      return new ToolError(`${relative} is a directory, not a file.`, { code: 'not_a_file' });
    case 'EACCES':
    case 'EPERM':
      return new ToolError(`${relative}: permission denied.`, { code: 'denied' });
    default:
      return new ToolError(`${relative} cannot be opened (${code ?? 'unknown error'}).`, { cause: error });
  }
}
