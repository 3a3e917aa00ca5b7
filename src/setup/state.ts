/**
 * What setup keeps for each client file it changed, in candor's own folder
 * (`<state>/setup/<client>-<scope>[-<project hash>]/`): the gateway config, its
 * lockfile, the backups and a record (undo.ts puts the backups back).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CandorError } from '../errors.js';
import type { ClientSpec, MovedServer, Scope, ScopeLocation, SetupRecord } from './types.js';

/** The folder setup keeps the gateway of one client scope (and project) in. */
export function setupFolder(stateDir: string, client: ClientSpec, scope: Scope, where: ScopeLocation): string {
  const project =
    where.project === undefined ? '' : `-${createHash('sha256').update(where.project).digest('hex').slice(0, 10)}`;
  return path.join(stateDir, 'setup', `${client.id}-${scope}${project}`);
}

const RECORD = 'setup.json';

/** The record of an earlier setup in `folder`, if any. */
export async function readRecord(folder: string): Promise<SetupRecord | undefined> {
  try {
    return JSON.parse(await readFile(path.join(folder, RECORD), 'utf8')) as SetupRecord;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CandorError(`Cannot read ${path.join(folder, RECORD)}: ${(error as Error).message}.`, {
      code: 'invalid_server_config',
    });
  }
}

/** Save the record (readable by its owner only: it names files, never secret values). */
export async function writeRecord(folder: string, record: SetupRecord): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await writeFile(path.join(folder, RECORD), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
}

/** The SHA-256 of what setup wrote to a file, to tell later whether anyone changed it since. */
export function contentHash(bytes: string | Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Keep a copy of `file` as it is now, unless the record has one already (the first
 * backup is what `--undo` goes back to).
 */
export async function backUp(folder: string, record: SetupRecord, file: string): Promise<void> {
  if (record.backups.some((b) => b.file === file)) return;
  let bytes: Buffer | undefined;
  try {
    bytes = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (bytes === undefined) {
    record.backups.push({ file, backup: null });
    return;
  }
  const backups = path.join(folder, 'backups');
  await mkdir(backups, { recursive: true, mode: 0o700 });
  const copy = path.join(backups, `${record.backups.length}-${path.basename(file)}`);
  // The client's file may hold secrets: the copy is its owner's only.
  await writeFile(copy, bytes, { mode: 0o600 });
  record.backups.push({ file, backup: copy });
}

const MOVED = 'moved.json';

/**
 * The servers setup took out of the client's file, as the client wrote them (undo puts
 * them back); undefined for records of older versions, which kept only the backup.
 */
export async function readMoved(folder: string): Promise<Record<string, MovedServer> | undefined> {
  try {
    return JSON.parse(await readFile(path.join(folder, MOVED), 'utf8')) as Record<string, MovedServer>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CandorError(`Cannot read ${path.join(folder, MOVED)}: ${(error as Error).message}.`, {
      code: 'invalid_server_config',
    });
  }
}

/** Save the moved servers (their entries may hold secrets, as the client's file did: owner only). */
export async function writeMoved(folder: string, moved: Record<string, MovedServer>): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await writeFile(path.join(folder, MOVED), `${JSON.stringify(moved, null, 2)}\n`, { mode: 0o600 });
}
