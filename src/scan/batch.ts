/**
 * Many servers at once: a list of targets scanned `jobs` at a time, each
 * server's reports (JSON, Markdown, HTML) written to the output folder, then an
 * index (and, for a server.json target, a copy of it carrying the verdict). A server whose JSON report is there already is finished and skipped
 * (a batch resumes where it stopped) unless `force`. Reports are written to a
 * temporary name and renamed, so an interrupted scan never looks finished.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CandorError, isCandorError } from '../errors.js';
import { badgeSvg } from './badge.js';
import { type BatchEntry, entryFor, formatIndex } from './batch-index.js';
import { parseListEntry } from './list-entry.js';
import { registryEntries, unpackRegistryExport } from './registry-export.js';
import { formatScan } from './report.js';
import { serverJsonWithVerdict } from './server-json-verdict.js';
import type { ScanReport } from './types.js';

/** What a batch needs. */
export interface BatchOptions {
  targets: readonly string[];
  /** The output folder (created). */
  out: string;
  /** Scans at the same time (default 1). */
  jobs?: number;
  /** Scan servers that are finished already. */
  force?: boolean;
  /** Scan one target; a {@link CandorError} means it could not be scanned. */
  scan: (target: string, progress: (line: string) => void) => Promise<ScanReport>;
  progress?: (line: string) => void;
}

/** A file-name stem for a target: readable, and unique by a hash of the whole target. */
export function slugFor(target: string): string {
  const readable = target
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^[-.]+|-+$/g, '')
    .slice(0, 60);
  return `${readable || 'server'}-${createHash('sha256').update(target).digest('hex').slice(0, 8)}`;
}

/** A list of targets, and the entries of a registry export that were left out (each with why). */
export interface TargetList {
  targets: string[];
  skipped: string[];
}

/**
 * Read a list of targets: a JSON array of strings, one target per line (blank lines
 * and lines starting with `#` left out; a line may name the doubles its server needs after
 * the target: `pkg@1.2.3 --service postgres=DATABASE_URL`), or an MCP Registry export (the API's
 * `{ servers: [...] }` or an array of server.json entries), whose entries are written
 * as server.json files into `unpackTo`. Relative file targets are taken from the
 * list's folder.
 *
 * @example
 * ```ts
 * await readTargetList('servers.txt'); // { targets: ['@modelcontextprotocol/server-memory@2026.8.31', …], skipped: [] }
 * ```
 */
export async function readTargetList(file: string, options: { unpackTo?: string } = {}): Promise<TargetList> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CandorError(`${file}: cannot read the list (${(error as NodeJS.ErrnoException).code ?? error}).`, {
      code: 'invalid_target',
    });
  }
  let targets: unknown;
  if (/^\s*[[{]/.test(text)) {
    try {
      targets = JSON.parse(text);
    } catch (error) {
      throw new CandorError(`${file}: not valid JSON (${(error as Error).message}).`, { code: 'invalid_target' });
    }
    const entries = registryEntries(targets);
    if (entries) {
      if (!options.unpackTo)
        throw new CandorError(`${file}: a registry export needs a folder for its server.json files.`, {
          code: 'invalid_target',
        });
      const { files, skipped } = await unpackRegistryExport(entries, options.unpackTo);
      return { targets: files, skipped };
    }
    if (!Array.isArray(targets))
      throw new CandorError(
        `${file}: a JSON list must be an array of targets or a registry export ({ "servers": [...] }).`,
        { code: 'invalid_target' },
      );
    const bad = targets.findIndex((t) => typeof t !== 'string' || t.trim() === '');
    if (bad !== -1)
      throw new CandorError(`${file}: $[${bad}]: each entry must be a target string.`, { code: 'invalid_target' });
  } else {
    targets = text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
  }
  const list = targets as string[];
  if (list.length === 0) throw new CandorError(`${file}: the list names no target.`, { code: 'invalid_target' });
  // A target that names a file (server.json, config.json#name) is relative to the list, not to where candor runs;
  // its own options (`--service postgres`) stay after it, checked now so a bad line stops the run before it starts.
  return {
    targets: list.map((line) => {
      const { target } = parseListEntry(line);
      const rest = line.trim().slice(target.length);
      const resolved =
        /^\.{1,2}\//.test(target) || /\.jsonc?(#.*)?$/i.test(target)
          ? path.resolve(path.dirname(file), target)
          : target;
      return `${resolved}${rest}`;
    }),
    skipped: [],
  };
}

async function writeAtomically(file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.partial`;
  await writeFile(temporary, text);
  await rename(temporary, file);
}

async function finished(file: string): Promise<ScanReport | { error: string } | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as ScanReport | { error: string };
  } catch {
    return undefined;
  }
}

/**
 * Run a batch and write its index (`index.json`, `index.md`, `index.html`).
 *
 * @example
 * ```ts
 * const entries = await runBatch({ targets, out: 'scan-out', jobs: 2, scan: (t) => scanTarget({ words: [t], … }) });
 * ```
 */
export async function runBatch(options: BatchOptions): Promise<BatchEntry[]> {
  await mkdir(options.out, { recursive: true });
  const entries: BatchEntry[] = new Array(options.targets.length);
  let next = 0;
  const worker = async () => {
    while (next < options.targets.length) {
      const index = next++;
      const target = options.targets[index]!;
      const slug = slugFor(target);
      const jsonFile = path.join(options.out, `${slug}.json`);
      const done = options.force ? undefined : await finished(jsonFile);
      if (done) {
        options.progress?.(`${target}: finished before, skipped (--force scans it again)`);
        entries[index] = entryFor(target, slug, done);
        continue;
      }
      const progress = (line: string) => options.progress?.(`[${target}] ${line}`);
      let result: ScanReport | { error: string };
      try {
        result = await options.scan(target, progress);
        await writeAtomically(path.join(options.out, `${slug}.md`), formatScan(result, 'markdown'));
        await writeAtomically(path.join(options.out, `${slug}.html`), formatScan(result, 'html'));
        await writeAtomically(path.join(options.out, `${slug}.svg`), badgeSvg(result));
        if (result.serverJson) {
          const text = await readFile(result.serverJson.file, 'utf8');
          await writeAtomically(path.join(options.out, `${slug}.server.json`), serverJsonWithVerdict(text, result));
        }
      } catch (error) {
        // One server's failure, even an unexpected one, must not lose the rest of the batch.
        result = { error: isCandorError(error) ? error.message : `unexpected error: ${(error as Error).message}` };
        await writeAtomically(path.join(options.out, `${slug}.svg`), badgeSvg('could not scan'));
        progress(`could not scan: ${result.error.split('\n')[0]}`);
      }
      // The JSON report last: it is the mark of a finished server.
      await writeAtomically(jsonFile, `${JSON.stringify({ target, ...result }, null, 2)}\n`);
      entries[index] = entryFor(target, slug, result);
      options.progress?.(`${target}: ${entries[index]!.verdict}`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs ?? 1, options.targets.length)) }, worker));
  for (const format of ['json', 'markdown', 'html'] as const) {
    const name = `index.${format === 'markdown' ? 'md' : format}`;
    await writeAtomically(path.join(options.out, name), formatIndex(entries, format));
  }
  return entries;
}
