/**
 * `candor setup <client>`: take the servers out of a client's config into a candor
 * gateway config, review each (lint and the scan at the door), pin what the person
 * approves, and leave one gateway entry in the client's file. A second run takes over
 * servers added since and keeps the earlier ones; `--undo` (see state.ts) goes back.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { parse } from 'jsonc-parser';
import { CandorError } from '../errors.js';
import { emptyLockfile, readLockfile, writeLockfile } from '../host/pins/lockfile.js';
import { pinReviewed } from '../host/pins/pin-review.js';
import { isRecord } from '../util/is-record.js';
import { editServers, pathText, readClientFile } from './client-file.js';
import { locate } from './locate.js';
import { reviewServer, type ServerReview } from './review.js';
import { referenceSecrets, resolveReferences } from './secrets.js';
import { backUp, contentHash, readRecord, setupFolder, writeRecord } from './state.js';
import {
  type ClientSpec,
  GATEWAY_ENTRY_NAME,
  type Place,
  type Scope,
  type ServerEntry,
  type SetupRecord,
} from './types.js';

/** What `candor setup` is asked to do. */
export interface SetupOptions {
  client: ClientSpec;
  scope: Scope;
  place: Place;
  /** candor's own folder (the gateway config, lockfile and backups go under setup/). */
  stateDir: string;
  /** How the client starts the gateway: this program (stdio), or the URL of a running gateway. */
  gateway: { kind: 'stdio'; command: string; args: string[] } | { kind: 'http'; url: string };
  /** Print the diff of each file and change nothing. */
  dryRun?: boolean;
  /** Pin every server the scan passes without asking. */
  yes?: boolean;
  /** Ask a person whether to pin a server (absent: no one to ask). */
  ask?: (question: string) => Promise<boolean>;
  timeoutMs?: number;
  out: (line: string) => void;
}

/** What setup did. */
export interface SetupResult {
  clientFile: string;
  gatewayConfig: string;
  reviews: ServerReview[];
  pinned: string[];
  /** The diffs (dry run), secrets hidden. */
  diffs: string[];
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const SERVER_NAME = /^[A-Za-z0-9_.-]+$/;

/** The client's entries (other than the gateway's own) as gateway upstreams; a bad one stops setup. */
function takeOver(
  client: ClientSpec,
  at: { file: string; mapPath: readonly string[] },
  raw: Record<string, unknown>,
  ours: boolean,
): Record<string, ServerEntry> {
  const out: Record<string, ServerEntry> = {};
  const { file } = at;
  const where = (name: string) => pathText([...at.mapPath, name]);
  for (const [name, value] of Object.entries(raw)) {
    if (name === GATEWAY_ENTRY_NAME && ours) continue;
    const fail = (reason: string) =>
      new CandorError(`${file} at ${where(name)}: ${reason} The file was left as it is.`, {
        code: 'invalid_server_config',
      });
    if (name === GATEWAY_ENTRY_NAME)
      throw fail(`the entry "${GATEWAY_ENTRY_NAME}" was not written by candor setup; rename it first.`);
    if (!SERVER_NAME.test(name) || name.includes('__'))
      throw fail('the gateway takes server names of letters, digits, "_", "-" and "." (no "__"); rename it first.');
    if (!isRecord(value)) throw fail('expected an object.');
    const entry = client.readEntry(value);
    if (typeof entry === 'string') throw fail(`${entry}.`);
    out[name] = entry;
  }
  return out;
}

/** A unified diff of one file with every secret value hidden. */
function diffOf(file: string, before: string | undefined, after: string, secrets: readonly string[]): string {
  let patch = createTwoFilesPatch(file, file, before ?? '', after, before === undefined ? '(new file)' : '', '');
  for (const value of secrets) patch = patch.split(JSON.stringify(value).slice(1, -1)).join('<hidden>');
  return patch;
}

/**
 * Put the gateway in front of one client file.
 *
 * @example
 * ```ts
 * await runSetup({ client: cursor, scope: 'user', place, stateDir, gateway: { kind: 'stdio', command: 'candor', args: [] }, out: console.log });
 * ```
 */
export async function runSetup(options: SetupOptions): Promise<SetupResult> {
  const { client, scope, place, out } = options;
  const where = locate(client, scope, place);
  if (!where) throw new CandorError(`${client.title} has no ${scope} scope.`, { code: 'invalid_server_config' });
  const { file, mapPath } = where;
  const read = await readClientFile(file, mapPath);
  const folder = setupFolder(options.stateDir, client, scope, where);
  const earlier = await readRecord(folder);
  const record: SetupRecord = earlier ?? {
    client: client.id,
    scope,
    clientFile: file,
    mapPath,
    gatewayConfig: path.join(folder, 'candor.gateway.json'),
    lockFile: path.join(folder, 'candor.lock.json'),
    backups: [],
    failed: {},
  };
  const gatewayText = await readOptional(record.gatewayConfig);
  const parsedGateway: unknown = gatewayText === undefined ? {} : parse(gatewayText);
  const previous = isRecord(parsedGateway) && isRecord(parsedGateway.servers) ? parsedGateway.servers : {};
  const ourEntry = earlier ? read.servers[GATEWAY_ENTRY_NAME] : undefined;
  const env: Record<string, string> = {};
  if (isRecord(ourEntry) && isRecord(ourEntry.env)) {
    for (const [key, value] of Object.entries(ourEntry.env)) if (typeof value === 'string') env[key] = value;
  }
  const incoming = takeOver(client, where, read.servers, earlier !== undefined);
  const servers = { ...(previous as Record<string, ServerEntry>), ...referenceSecrets(incoming, env) };
  if (Object.keys(servers).length === 0) {
    // A file that is not there is named as missing, not as one without servers.
    const problem =
      read.text === undefined
        ? `${file} does not exist: ${client.title} has no ${scope} config here, so no servers to put the gateway in front of.`
        : `${file} has no servers at ${pathText(mapPath)} to put the gateway in front of.`;
    throw new CandorError(problem, { code: 'invalid_server_config' });
  }

  const gatewayAfter =
    gatewayText === undefined
      ? `${JSON.stringify({ servers, lock: { file: path.basename(record.lockFile) } }, null, 2)}\n`
      : editServers(gatewayText, ['servers'], servers, Object.keys(previous));
  const entry = client.gatewayEntry(
    options.gateway.kind === 'http'
      ? options.gateway
      : {
          kind: 'stdio',
          command: options.gateway.command,
          args: [...options.gateway.args, 'gateway', '--config', record.gatewayConfig, '--stdio'],
          env,
        },
  );
  if (typeof entry === 'string') throw new CandorError(`${entry}.`, { code: 'invalid_server_config' });
  const clientAfter = editServers(read.text, mapPath, { [GATEWAY_ENTRY_NAME]: entry }, Object.keys(read.servers));
  const secrets = Object.values(env);
  const result: SetupResult = {
    clientFile: file,
    gatewayConfig: record.gatewayConfig,
    reviews: [],
    pinned: [],
    diffs: [],
  };

  if (options.dryRun) {
    result.diffs = [
      diffOf(file, read.text, clientAfter, secrets),
      diffOf(record.gatewayConfig, gatewayText, gatewayAfter, secrets),
    ];
    for (const diff of result.diffs) out(diff);
    out('Dry run: nothing was changed.');
    return result;
  }

  for (const [name, upstream] of Object.entries(servers)) {
    const review = await reviewServer(name, resolveReferences(upstream, env), {
      file: record.gatewayConfig,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    });
    result.reviews.push(review);
  }

  await mkdir(folder, { recursive: true, mode: 0o700 });
  await backUp(folder, record, file);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, clientAfter);
  record.mapPath = mapPath;
  for (const backup of record.backups) if (backup.file === file) backup.written = contentHash(clientAfter);
  await writeFile(record.gatewayConfig, gatewayAfter, { mode: 0o600 });
  // With a lockfile, a server not in it is quarantined: nothing is offered until it is pinned.
  if (!(await readLockfile(record.lockFile))) await writeLockfile(record.lockFile, emptyLockfile());
  record.failed = Object.fromEntries(result.reviews.filter((r) => r.failed).map((r) => [r.server, r.failed!]));
  await writeRecord(folder, record);

  const lock = (await readLockfile(record.lockFile))!;
  const chosen: ServerReview[] = [];
  for (const review of result.reviews) {
    report(review, out);
    if (!review.tools || review.blocked.length > 0 || lock.servers[review.server]) continue;
    if (
      options.yes ||
      (await options.ask?.(`Pin ${review.server} (${review.tools.length} tools) so the gateway offers them?`))
    )
      chosen.push(review);
  }
  if (chosen.length > 0) {
    const { reviews } = await pinReviewed(
      record.lockFile,
      chosen.map((r) => ({ server: r.server, tools: r.tools! })),
    );
    result.pinned = reviews.filter((r) => r.pinned).map((r) => r.server);
  }
  const waiting = result.reviews.filter((r) => !result.pinned.includes(r.server) && !lock.servers[r.server]);
  const inFile = client.files[scope]?.perProject ? `${file} at ${pathText(mapPath)}` : file;
  out(
    `${client.title} (${scope}): ${inFile} now has one entry, "${GATEWAY_ENTRY_NAME}": the gateway in front of ${result.reviews.length} server(s).`,
  );
  out(`Gateway config: ${record.gatewayConfig}`);
  if (result.pinned.length > 0) out(`Pinned: ${result.pinned.join(', ')}.`);
  for (const review of waiting) {
    out(
      `Quarantined until pinned: ${review.server}: candor pin --config ${record.gatewayConfig} --server ${review.server} --lock ${record.lockFile}`,
    );
  }
  if (options.gateway.kind === 'http' && secrets.length > 0)
    out(`The running gateway needs these variables in its environment: ${Object.keys(env).join(', ')}.`);
  const from = where.project === undefined ? '' : ` (in ${where.project})`;
  out(`To go back: candor setup ${client.id} --scope ${scope} --undo${from}`);
  return result;
}

function report(review: ServerReview, out: (line: string) => void): void {
  if (review.failed) {
    out(`  ${review.server}: did not start (kept, quarantined): ${review.failed}`);
    return;
  }
  const lint = `lint ${review.lint.error} error(s), ${review.lint.warning} warning(s)`;
  const door =
    review.blocked.length === 0
      ? 'the scan at the door passes'
      : `the scan at the door keeps out ${review.blocked.map((b) => `${b.tool} (${b.rules.join(', ')})`).join(', ')}`;
  out(`  ${review.server}: ${review.tools!.length} tools; ${lint}; ${door}.`);
}
