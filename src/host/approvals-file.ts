/**
 * Remembered allow-always answers on disk: opt-in, next to
 * the lockfile, keyed by tool name and pin hash so a tool that changes asks
 * again. Written atomically (temporary file, then rename) so a crash never
 * leaves half a file; an unreadable file is an error, never a silent reset.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CandorError } from '../errors.js';

/** The file's shape: `{ approvalsVersion: 1, approvals: { "<tool>": ["<pin hash>", …] } }`. */
export interface ApprovalsFile {
  approvalsVersion: 1;
  approvals: Record<string, string[]>;
}

/** The conventional name, beside `candor.lock.json`. */
export const APPROVALS_FILE_NAME = 'candor.approvals.json';

/**
 * Read remembered approvals as `name\nhash` keys; a missing file is an empty set.
 *
 * @example
 * ```ts
 * const keys = await readApprovals('candor.approvals.json'); // Set { 'memory__read_graph\nsha256:…' }
 * ```
 */
export async function readApprovals(file: string): Promise<Set<string>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
    throw new CandorError(`Cannot read the approvals file ${file}: ${(error as Error).message}`, {
      code: 'invalid_approvals',
      cause: error,
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CandorError(
      `The approvals file ${file} is not valid JSON (${(error as Error).message}); fix or delete it.`,
      {
        code: 'invalid_approvals',
        cause: error,
      },
    );
  }
  const approvals = (parsed as Partial<ApprovalsFile> | null)?.approvals;
  if (
    typeof parsed !== 'object' ||
    parsed === null ||
    (parsed as Partial<ApprovalsFile>).approvalsVersion !== 1 ||
    typeof approvals !== 'object' ||
    approvals === null ||
    !Object.values(approvals).every((hashes) => Array.isArray(hashes) && hashes.every((h) => typeof h === 'string'))
  ) {
    throw new CandorError(
      `The approvals file ${file} must look like { "approvalsVersion": 1, "approvals": { "<tool>": ["<pin hash>"] } }.`,
      { code: 'invalid_approvals' },
    );
  }
  const keys = new Set<string>();
  for (const [name, hashes] of Object.entries(approvals)) for (const hash of hashes) keys.add(`${name}\n${hash}`);
  return keys;
}

/**
 * Write approvals (`name\nhash` keys) atomically, sorted so diffs stay readable.
 *
 * @example
 * ```ts
 * await writeApprovals('candor.approvals.json', new Set(['memory__read_graph\nsha256:…']));
 * ```
 */
export async function writeApprovals(file: string, keys: ReadonlySet<string>): Promise<void> {
  const approvals: Record<string, string[]> = {};
  for (const key of [...keys].sort()) {
    const cut = key.indexOf('\n');
    const name = key.slice(0, cut);
    const hashes = approvals[name] ?? [];
    hashes.push(key.slice(cut + 1));
    approvals[name] = hashes;
  }
  const body: ApprovalsFile = { approvalsVersion: 1, approvals };
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, `${JSON.stringify(body, null, 2)}\n`, 'utf8');
  await rename(temporary, file);
}
