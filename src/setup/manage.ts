/**
 * `candor gateway add / remove / status` over a gateway config (the one setup wrote, or
 * any other): a server goes in through the same door as at setup (started, scanned,
 * pinned and trusted when the person says so) and out with its pins, so nobody edits
 * the JSON by hand. Taking out a server setup moved also takes it off the list
 * `--undo` puts back: it was removed on purpose.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { applyEdits, modify, parse } from 'jsonc-parser';
import { CandorError } from '../errors.js';
import { readLockfile, writeLockfile } from '../host/pins/lockfile.js';
import { isRecord } from '../util/is-record.js';
import { type Admission, admitReviewed } from './admit.js';
import { reviewServer, type ServerReview } from './review.js';
import { readMoved, readRecord, writeMoved } from './state.js';
import type { ServerEntry, SetupRecord } from './types.js';

/** A gateway config and its lockfile (and setup's folder, when setup wrote them). */
export interface ManagedConfig {
  configFile: string;
  lockFile: string;
  /** Setup's folder for it, if any. */
  folder?: string;
}

const SERVER_NAME = /^[A-Za-z0-9_.-]+$/;
const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2 } };

async function readConfig(file: string): Promise<{ text: string; servers: Record<string, unknown> }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CandorError(`Cannot read the gateway config ${file}: ${(error as Error).message}.`, {
      code: 'invalid_server_config',
    });
  }
  const parsed: unknown = parse(text);
  if (!isRecord(parsed))
    throw new CandorError(`${file}: the gateway config must be a JSON object.`, { code: 'invalid_server_config' });
  return { text, servers: isRecord(parsed.servers) ? parsed.servers : {} };
}

/** The server names of a gateway config. */
export async function serverNames(configFile: string): Promise<string[]> {
  return Object.keys((await readConfig(configFile)).servers);
}

/**
 * Add one server: written to the config, started and scanned, then pinned and trusted
 * if the person says so (or `yes`); otherwise it stays quarantined.
 *
 * @example
 * ```ts
 * await addServer({ configFile, lockFile }, 'memory', { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] }, { yes: true });
 * ```
 */
export async function addServer(
  at: ManagedConfig,
  name: string,
  entry: ServerEntry,
  options: { yes?: boolean; ask?: (question: string) => Promise<boolean>; timeoutMs?: number } = {},
): Promise<{ review: ServerReview; admission: Admission }> {
  if (!SERVER_NAME.test(name) || name.includes('__'))
    throw new CandorError(
      `Server names are letters, digits, "_", "-" and "." (no "__"); got ${JSON.stringify(name)}.`,
      {
        code: 'invalid_server_config',
      },
    );
  const { text, servers } = await readConfig(at.configFile);
  if (Object.hasOwn(servers, name))
    throw new CandorError(
      `${at.configFile} has a server named "${name}" already; take it out first (candor gateway remove ${name}) or pick another name.`,
      { code: 'invalid_server_config' },
    );
  const lock = await readLockfile(at.lockFile);
  const review = await reviewServer(name, entry, {
    file: at.configFile,
    otherServers: new Map(
      Object.entries(lock?.servers ?? {}).map(([server, pins]) => [server, Object.keys(pins.tools)]),
    ),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  await writeFile(at.configFile, applyEdits(text, modify(text, ['servers', name], entry, FORMAT)), { mode: 0o600 });
  const admission = await admitReviewed([review], {
    gatewayConfig: at.configFile,
    lockFile: at.lockFile,
    ...(options.yes ? { yes: true } : {}),
    ...(options.ask ? { ask: options.ask } : {}),
  });
  return { review, admission };
}

/**
 * Take one server out of the config, its pins out of the lockfile, and (for a config
 * setup wrote) off the list of servers `--undo` puts back.
 *
 * @example
 * ```ts
 * await removeServer({ configFile, lockFile }, 'memory');
 * ```
 */
export async function removeServer(at: ManagedConfig, name: string): Promise<void> {
  const { text, servers } = await readConfig(at.configFile);
  if (!Object.hasOwn(servers, name))
    throw new CandorError(`${at.configFile} has no server named "${name}".`, { code: 'invalid_server_config' });
  await writeFile(at.configFile, applyEdits(text, modify(text, ['servers', name], undefined, FORMAT)), { mode: 0o600 });
  const lock = await readLockfile(at.lockFile);
  if (lock?.servers[name]) {
    delete lock.servers[name];
    await writeLockfile(at.lockFile, lock);
  }
  if (at.folder) {
    const moved = await readMoved(at.folder);
    if (moved && Object.hasOwn(moved, name)) {
      delete moved[name];
      await writeMoved(at.folder, moved);
    }
  }
}

/** One setup found in candor's folder. */
export interface SetupFound {
  folder: string;
  record: SetupRecord;
}

/**
 * Every setup recorded under `<stateDir>/setup/`.
 *
 * @example
 * ```ts
 * const setups = await setupsIn('/home/me/.config/candor');
 * ```
 */
export async function setupsIn(stateDir: string): Promise<SetupFound[]> {
  const root = path.join(stateDir, 'setup');
  let names: string[];
  try {
    names = (await readdir(root, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const found: SetupFound[] = [];
  for (const name of names.sort()) {
    const record = await readRecord(path.join(root, name));
    if (record) found.push({ folder: path.join(root, name), record });
  }
  return found;
}

/** What `candor gateway status` shows of one server. */
export interface ServerStatus {
  name: string;
  /** `command args…` or the URL. */
  reach: string;
  pinned: boolean;
  trusted: boolean;
  /** Why it did not start at setup, if it did not. */
  failed?: string;
}

/**
 * The servers of a gateway config, with their pins and trust.
 *
 * @example
 * ```ts
 * const servers = await configStatus({ configFile, lockFile });
 * ```
 */
export async function configStatus(at: ManagedConfig, failed: Record<string, string> = {}): Promise<ServerStatus[]> {
  const { servers } = await readConfig(at.configFile);
  const lock = await readLockfile(at.lockFile).catch(() => undefined);
  return Object.entries(servers).map(([name, raw]) => {
    const entry = isRecord(raw) ? raw : {};
    const reach =
      typeof entry.command === 'string'
        ? [entry.command, ...(Array.isArray(entry.args) ? entry.args : [])].join(' ')
        : String(entry.url ?? '?');
    return {
      name,
      reach,
      pinned: lock?.servers[name] !== undefined,
      trusted: entry.trust === 'trusted',
      ...(failed[name] ? { failed: failed[name] } : {}),
    };
  });
}
