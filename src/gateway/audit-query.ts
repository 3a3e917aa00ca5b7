/**
 * `candor audit`: query the gateway's JSONL audit log by server,
 * tool, decision, principal and age. Lines that are not audit entries are
 * counted and skipped, never fatal: a log cut mid-line by a crash still reads.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import picomatch from 'picomatch';
import { CandorError } from '../errors.js';
import type { AuditEntry } from './audit-log.js';

/** What `candor audit` filters by; every given filter must hold. */
export interface AuditQuery {
  /** Server names (exact). */
  server?: string;
  /** A tool name or glob (`memory__*`). */
  tool?: string;
  decision?: AuditEntry['decision'];
  principal?: string;
  /** Only calls whose result had a finding of this kind (the result guards). */
  finding?: 'secret' | 'injection';
  /** Only entries at or after this time (ms since the epoch). */
  since?: number;
}

/**
 * A duration like `90s`, `15m`, `1h`, `7d` in milliseconds, or an ISO time as "since then".
 *
 * @example
 * ```ts
 * sinceOf('1h', Date.parse('2026-01-01T12:00:00Z')); // Date.parse('2026-01-01T11:00:00Z')
 * ```
 */
export function sinceOf(text: string, now = Date.now()): number {
  const match = /^(\d+(?:\.\d+)?)\s*(s|m|h|d)$/.exec(text.trim());
  if (match) {
    const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 's' | 'm' | 'h' | 'd'];
    return now - Number(match[1]) * unit;
  }
  const time = Date.parse(text);
  if (Number.isNaN(time))
    throw new CandorError(`--since ${text}: expected a duration (90s, 15m, 1h, 7d) or an ISO time.`, { code: 'usage' });
  return time;
}

/**
 * Read an audit log and keep the entries that match.
 *
 * @example
 * ```ts
 * const { entries } = await queryAudit('gateway-audit.jsonl', { decision: 'deny', since: sinceOf('1h') });
 * ```
 */
export async function queryAudit(file: string, query: AuditQuery): Promise<{ entries: AuditEntry[]; skipped: number }> {
  const tool = query.tool === undefined ? undefined : picomatch(query.tool);
  const entries: AuditEntry[] = [];
  let skipped = 0;
  const stream = createReadStream(file, { encoding: 'utf8' });
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', reject);
  });
  try {
    await opened;
  } catch (error) {
    throw new CandorError(`Cannot read the audit log ${file}: ${(error as Error).message}`, {
      code: 'usage',
      cause: error,
    });
  }
  for await (const line of createInterface({ input: stream, crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    let entry: AuditEntry;
    try {
      entry = JSON.parse(line) as AuditEntry;
    } catch {
      skipped++;
      continue;
    }
    if (
      typeof entry !== 'object' ||
      entry === null ||
      typeof entry.tool !== 'string' ||
      typeof entry.time !== 'string'
    ) {
      skipped++;
      continue;
    }
    if (query.server !== undefined && entry.server !== query.server) continue;
    if (tool !== undefined && !tool(entry.tool)) continue;
    if (query.decision !== undefined && entry.decision !== query.decision) continue;
    if (query.principal !== undefined && entry.principal !== query.principal) continue;
    if (query.finding !== undefined && !entry.results?.some((r) => r.kind === query.finding)) continue;
    if (query.since !== undefined && Date.parse(entry.time) < query.since) continue;
    entries.push(entry);
  }
  return { entries, skipped };
}
