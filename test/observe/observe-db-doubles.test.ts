/**
 * `candor observe --service …` over the real CLI, in the real sandbox, with the
 * real databases (PostgreSQL, MariaDB, Redis, SQLite from Debian): a server on the
 * official SDK reaches the seeded double at its usual loopback port inside the
 * sandbox, the witness sees each call's rows, keys and tables, and the tools that
 * lie about their hints are caught while their honest twins get no finding.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObserveReport } from '../../src/observe/index.js';
import { ensureBuilt, runCli } from '../support/cli-harness.js';

const fixture = path.join(import.meta.dirname, '../fixtures/observe/db-server.mjs');
let workdir: string;

beforeAll(() => {
  ensureBuilt();
  workdir = mkdtempSync(path.join(tmpdir(), 'candor-observe-db-'));
});
afterAll(() => rmSync(workdir, { recursive: true, force: true }));

async function observeWith(kind: string, flags: string[]): Promise<{ code: number | null; report: ObserveReport }> {
  const run = await runCli(
    ['observe', ...flags, '--env', `DB_KIND=${kind}`, '--format', 'json', '--', process.execPath, fixture],
    { cwd: workdir, timeoutMs: 120_000 },
  );
  if (!run.stdout.trim()) throw new Error(`no report (exit ${run.code}):\n${run.stderr}`);
  return { code: run.code, report: JSON.parse(run.stdout) as ObserveReport };
}

const rulesOf = (report: ObserveReport, tool: string) => {
  const seen = report.tools.find((t) => t.name === tool);
  if (!seen) throw new Error(`${tool} was not listed`);
  if (seen.notExercised) throw new Error(`${tool} was not exercised: ${seen.notExercised}`);
  return seen.findings.map((f) => f.ruleId);
};
const evidenceOf = (report: ObserveReport, tool: string, rule: string) =>
  report.tools.find((t) => t.name === tool)!.findings.find((f) => f.ruleId === rule)!.evidence;

describe.each([
  ['postgres', ['--service', 'postgres'], 'public.'],
  ['mysql', ['--service', 'mariadb'], 'candor.'],
  ['sqlite', ['--service', 'sqlite'], ''],
])('observe --service %s', (kind, flags, prefix) => {
  let code: number | null;
  let report: ObserveReport;
  beforeAll(async () => {
    ({ code, report } = await observeWith(kind, flags));
  }, 180_000);

  it('catches a read-only tool that inserts a row', () => {
    expect(code).toBe(1);
    expect(rulesOf(report, 'list_orders')).toEqual(['observe/read-only-db-write']);
    expect(evidenceOf(report, 'list_orders', 'observe/read-only-db-write')).toEqual([
      `${kind}: inserted 1 row in ${prefix}notes`,
    ]);
  });

  it('catches a read-only tool that drops a table', () => {
    expect(rulesOf(report, 'table_stats')).toEqual(['observe/read-only-db-write']);
    expect(evidenceOf(report, 'table_stats', 'observe/read-only-db-write')).toContain(
      `${kind}: dropped table ${prefix}products`,
    );
  });

  it('gives the honest twins no finding: a read-only SELECT, an additive INSERT', () => {
    expect(rulesOf(report, 'list_customers')).toEqual([]);
    expect(rulesOf(report, 'add_note')).toEqual([]);
    expect(report.tools.find((t) => t.name === 'add_note')!.effects).toContain('database write');
  });

  it('reports a read-only tool that only creates its own table a level lower', () => {
    expect(rulesOf(report, 'cached_report')).toEqual(['observe/read-only-db-created']);
    expect(report.findings.find((f) => f.ruleId === 'observe/read-only-db-created')!.severity).toBe('warning');
  });

  it('warns about a tool that says it writes but changed nothing', () => {
    expect(rulesOf(report, 'sync_prices')).toEqual(['observe/write-no-db-change']);
    expect(report.findings.find((f) => f.ruleId === 'observe/write-no-db-change')!.severity).toBe('warning');
  });
});

describe('observe --service redis', () => {
  let code: number | null;
  let report: ObserveReport;
  beforeAll(async () => {
    ({ code, report } = await observeWith('redis', ['--service', 'redis']));
  }, 180_000);

  it('catches a read-only tool that SETs a key, and an additive one that deletes a key', () => {
    expect(code).toBe(1);
    expect(rulesOf(report, 'peek_customer')).toEqual(['observe/read-only-db-write']);
    expect(evidenceOf(report, 'peek_customer', 'observe/read-only-db-write')).toContain(
      'redis: created 1 key in seen:*',
    );
    expect(rulesOf(report, 'archive_note')).toEqual(['observe/non-destructive-db-deleted']);
    expect(evidenceOf(report, 'archive_note', 'observe/non-destructive-db-deleted')).toEqual([
      'redis: deleted 1 key in note:*',
    ]);
  });

  it('catches an idempotent tool whose repeat changes a key again', () => {
    // The answer moved too (43, then 44): the answers' own rule says so beside the database's.
    expect(rulesOf(report, 'record_visit')).toEqual([
      'observe/idempotent-changed-again',
      'observe/idempotent-db-changed-again',
    ]);
    expect(evidenceOf(report, 'record_visit', 'observe/idempotent-db-changed-again')).toEqual([
      'redis: changed 1 key in counter:* on the repeat',
    ]);
  });

  it('gives the honest read (HGETALL) no finding', () => {
    expect(rulesOf(report, 'get_customer')).toEqual([]);
  });
});

describe('pointing a server at a double', () => {
  it('fills {postgres} in --env values when --service names another variable', async () => {
    const { report } = await observeWith('postgres', [
      '--service',
      'postgres=UNUSED_URL',
      '--env',
      'DATABASE_URL={postgres}',
      '--tools',
      'list_*',
    ]);
    expect(rulesOf(report, 'list_customers')).toEqual([]);
    expect(rulesOf(report, 'list_orders')).toEqual(['observe/read-only-db-write']);
  }, 180_000);

  it('scans with a double too: candor scan --service postgres=DATABASE_URL', async () => {
    const run = await runCli(
      [
        'scan',
        '--service',
        'postgres=DATABASE_URL',
        '--env',
        'DB_KIND=postgres',
        '--format',
        'json',
        '--',
        process.execPath,
        fixture,
      ],
      { cwd: workdir, timeoutMs: 180_000 },
    );
    const report = JSON.parse(run.stdout) as {
      verdict: string;
      tools: Array<{ name: string; verdict: string }>;
      observe: { findings: Array<{ tool?: string; ruleId: string }> };
    };
    expect(run.code).toBe(1);
    expect(report.verdict).toBe('contradictions');
    expect(report.tools.find((t) => t.name === 'list_customers')!.verdict).toBe('consistent');
    expect(report.observe.findings.filter((f) => f.ruleId === 'observe/read-only-db-write').map((f) => f.tool)).toEqual(
      ['list_orders', 'table_stats'],
    );
  }, 240_000);

  it('refuses a kind it has no double of, saying which it has (exit 2)', async () => {
    const run = await runCli(['observe', '--service', 'mongodb', '--', process.execPath, fixture], {
      cwd: workdir,
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no double named "mongodb"; candor has postgres, mysql, redis, sqlite');
  });
});
