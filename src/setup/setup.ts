/**
 * `candor setup <client>`: take the servers out of a client's config into a candor
 * gateway config, review each (lint and the scan at the door), pin what the person
 * approves, and leave one gateway entry in the client's file. A second run takes over
 * servers added since and keeps the earlier ones; `--undo` (see state.ts) goes back.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { CandorError } from '../errors.js';
import { emptyLockfile, readLockfile, writeLockfile } from '../host/pins/lockfile.js';
import { admissionLines, admitReviewed } from './admit.js';
import { pathText, readClientFile } from './client-file.js';
import { readEnvFile } from './env-file.js';
import { locate } from './locate.js';
import { planSetup } from './plan.js';
import { reviewServer, type ServerReview } from './review.js';
import { resolveReferences } from './secrets.js';
import { backUp, contentHash, readMoved, readRecord, setupFolder, writeMoved, writeRecord } from './state.js';
import { type ClientSpec, GATEWAY_ENTRY_NAME, type Place, type Scope, type SetupRecord } from './types.js';

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
  /** Pin and trust every server the scan passes without asking. */
  yes?: boolean;
  /** Ask a person whether to pin and trust a server (absent: no one to ask). */
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
  /** Servers trusted (their read-only tools run without a question). */
  trusted: string[];
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
  const plan = planSetup({
    client,
    file,
    mapPath,
    clientText: read.text,
    servers: read.servers,
    gatewayText,
    lockName: path.basename(record.lockFile),
    moved: (earlier && (await readMoved(folder))) ?? {},
    earlier: earlier !== undefined,
    launch:
      options.gateway.kind === 'http'
        ? options.gateway
        : {
            kind: 'stdio',
            command: options.gateway.command,
            args: [...options.gateway.args, 'gateway', '--config', record.gatewayConfig, '--stdio'],
          },
    readEnvFile: (name) => readEnvFile(name, where.project ?? place.home, file, place.home),
  });
  const { env, servers } = plan;
  const secrets = Object.values(env);
  const result: SetupResult = {
    clientFile: file,
    gatewayConfig: record.gatewayConfig,
    reviews: [],
    pinned: [],
    trusted: [],
    diffs: [],
  };

  if (options.dryRun) {
    result.diffs = [
      diffOf(file, read.text, plan.clientAfter, secrets),
      diffOf(record.gatewayConfig, gatewayText, plan.gatewayAfter, secrets),
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
  await writeMoved(folder, plan.moved);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, plan.clientAfter);
  record.mapPath = mapPath;
  for (const backup of record.backups) {
    if (backup.file !== file) continue;
    if (backup.written !== undefined && (read.text === undefined || contentHash(read.text) !== backup.written))
      backup.changedBetween = true;
    backup.written = contentHash(plan.clientAfter);
  }
  await writeFile(record.gatewayConfig, plan.gatewayAfter, { mode: 0o600 });
  // With a lockfile, a server not in it is quarantined: nothing is offered until it is pinned.
  if (!(await readLockfile(record.lockFile))) await writeLockfile(record.lockFile, emptyLockfile());
  record.failed = Object.fromEntries(result.reviews.filter((r) => r.failed).map((r) => [r.server, r.failed!]));
  await writeRecord(folder, record);

  for (const review of result.reviews) report(review, out);
  const admitted = await admitReviewed(result.reviews, {
    gatewayConfig: record.gatewayConfig,
    lockFile: record.lockFile,
    ...(options.yes ? { yes: true } : {}),
    ...(options.ask ? { ask: options.ask } : {}),
  });
  result.pinned = admitted.pinned;
  result.trusted = admitted.trusted;
  const inFile = client.files[scope]?.perProject ? `${file} at ${pathText(mapPath)}` : file;
  out(
    `${client.title} (${scope}): ${inFile} now has one entry, "${GATEWAY_ENTRY_NAME}": the gateway in front of ${result.reviews.length} server(s).`,
  );
  out(`Gateway config: ${record.gatewayConfig}`);
  for (const line of admissionLines(admitted, record)) out(line);
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
