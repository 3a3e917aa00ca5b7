/**
 * The scorecard's data: the checked-in list of servers, the raw scan reports kept
 * beside it, the hand-made judgements of every error-level finding, and the
 * precision table the README shows. Read by scripts/scorecard.ts (which writes the
 * page and the README table) and by the test that keeps the README and the
 * judgements in step with the reports.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Finding } from '../src/lint/types.js';
import { readTargetList, slugFor } from '../src/scan/batch.js';
import type { ScanReport } from '../src/scan/types.js';

/** The scorecard's folder in the docs site. */
export const SCORECARD_DIR = path.join(import.meta.dirname, '..', 'docs', 'scorecard');
/** The raw JSON report of each server, as `candor scan --out` wrote it. */
export const REPORTS_DIR = path.join(SCORECARD_DIR, 'reports');
export const LIST_FILE = path.join(SCORECARD_DIR, 'servers.txt');
export const JUDGEMENTS_FILE = path.join(SCORECARD_DIR, 'judgements.json');
/** How the batch that made the reports ran (wall time, jobs, load). */
export const RUN_FILE = path.join(REPORTS_DIR, 'run.json');
export const README_FILE = path.join(import.meta.dirname, '..', 'README.md');

/** The README's generated region. */
export const README_START = '<!-- scorecard:start -->';
export const README_END = '<!-- scorecard:end -->';

/** One server's report as the batch stored it: a scan, or why it could not be scanned. */
export type StoredReport = (ScanReport & { target: string }) | { target: string; error: string };

/** A later pass of a batch over some of its servers. */
export interface RescanPass {
  targets: string[];
  wallSeconds: number;
  budgetSeconds: number;
  timeoutMs: number;
  reason?: string;
}

/** How the batch ran, measured by the script that ran it. */
export interface RunRecord {
  date: string;
  jobs: number;
  budgetSeconds: number;
  /** The per-call timeout (`--timeout`), when the run set one. */
  timeoutMs?: number;
  wallSeconds: number;
  /** Later passes: servers scanned again (resumed after their reports were removed), how, why and how long. */
  rescanned?: RescanPass[];
  cores: number;
  /** The 1, 5 and 15 minute load averages when the batch started and ended. */
  loadAverage: { start: number[]; end: number[] };
  node: string;
}

/** An error-level finding, judged by hand against the server's source. */
export interface Judgement {
  /** The target as the list names it (`name@version`). */
  server: string;
  tool?: string;
  rule: string;
  /** The finding's message, as the report has it (for a reader; matching is by server, tool and rule). */
  finding: string;
  verdict: 'right' | 'wrong';
  /** The file inside the package and the line that decides it (`dist/index.js:120`). */
  source: string;
  /** One sentence: why the finding is right or wrong. */
  why: string;
}

/** An error-level finding of one server's report. */
export interface ErrorFinding {
  server: string;
  kind: 'lint' | 'observe';
  finding: Finding;
}

/** A server of the list: as the list names it, and as the batch scans it. */
export interface ListedTarget {
  /** The line of the list (`name@1.2.3`, or `servers/x.server.json` relative to the list). */
  listed: string;
  /** The target the batch scans (a file target made absolute), which names its report in the batch's folder. */
  scanned: string;
}

/** The list's targets, in order. */
export async function scorecardTargets(): Promise<ListedTarget[]> {
  const { targets: scanned } = await readTargetList(LIST_FILE);
  const listed = readFileSync(LIST_FILE, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  return listed.map((line, i) => ({ listed: line, scanned: scanned[i]! }));
}

/**
 * The stored report of a target, or undefined when it was never scanned. Stored
 * reports are named after the target as the list writes it, so they are found the
 * same in any checkout.
 */
export function storedReport(listed: string): StoredReport | undefined {
  const file = path.join(REPORTS_DIR, `${slugFor(listed)}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as StoredReport) : undefined;
}

/** Every stored report of the list, in the list's order. */
export async function storedReports(): Promise<StoredReport[]> {
  const reports: StoredReport[] = [];
  for (const { listed } of await scorecardTargets()) {
    const report = storedReport(listed);
    if (report) reports.push(report);
  }
  return reports;
}

/** Every stored report of the list, by the target as the list names it. */
export async function storedReportsByTarget(): Promise<Map<string, StoredReport>> {
  const reports = new Map<string, StoredReport>();
  for (const { listed } of await scorecardTargets()) {
    const report = storedReport(listed);
    if (report) reports.set(listed, report);
  }
  return reports;
}

/** A wrong finding an earlier scan made, which a rule of lint or observe now avoids (the scan was run again). */
export interface FixedFinding extends Omit<Judgement, 'verdict'> {
  /** The rule change, in a few words. */
  fix: string;
}

export function readJudgements(): Judgement[] {
  return (JSON.parse(readFileSync(JUDGEMENTS_FILE, 'utf8')) as { judgements: Judgement[] }).judgements;
}

export function readFixed(): FixedFinding[] {
  return (JSON.parse(readFileSync(JUDGEMENTS_FILE, 'utf8')) as { fixed?: FixedFinding[] }).fixed ?? [];
}

export function readRun(): RunRecord | undefined {
  return existsSync(RUN_FILE) ? (JSON.parse(readFileSync(RUN_FILE, 'utf8')) as RunRecord) : undefined;
}

/** The error-level findings of a report: lint's (the door's included) and observe's. */
export function errorFindings(report: StoredReport): ErrorFinding[] {
  if ('error' in report) return [];
  return [
    ...report.lint.filter((f) => f.severity === 'error').map((finding) => ({ kind: 'lint' as const, finding })),
    ...report.observe.findings
      .filter((f) => f.severity === 'error')
      .map((finding) => ({ kind: 'observe' as const, finding })),
  ].map((f) => ({ server: report.target, ...f }));
}

/** The judgement of a finding: the one for its server, tool and rule. */
export function judgementOf(found: ErrorFinding, judgements: readonly Judgement[]): Judgement | undefined {
  return judgements.find(
    (j) =>
      j.server === found.server && (j.tool ?? '') === (found.finding.tool ?? '') && j.rule === found.finding.ruleId,
  );
}

/** Precision of one kind of finding. */
export interface PrecisionRow {
  kind: string;
  findings: number;
  right: number;
  wrong: number;
}

/** Right and wrong error-level findings over every report, by kind, then in all. */
export function precision(reports: readonly StoredReport[], judgements: readonly Judgement[]): PrecisionRow[] {
  const rows = (['lint', 'observe'] as const).map((kind) => {
    const found = reports.flatMap(errorFindings).filter((f) => f.kind === kind);
    const verdicts = found.map((f) => judgementOf(f, judgements)?.verdict);
    return {
      kind,
      findings: found.length,
      right: verdicts.filter((v) => v === 'right').length,
      wrong: verdicts.filter((v) => v === 'wrong').length,
    };
  });
  const sum = (key: 'findings' | 'right' | 'wrong') => rows.reduce((n, row) => n + row[key], 0);
  return [...rows, { kind: 'all', findings: sum('findings'), right: sum('right'), wrong: sum('wrong') }];
}

const percent = (part: number, whole: number) => (whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)}%`);

/** The README's precision table, generated from the reports and the judgements. */
export function readmeTable(
  reports: readonly StoredReport[],
  judgements: readonly Judgement[],
  fixed: readonly FixedFinding[] = [],
): string {
  const scanned = reports.filter((r) => !('error' in r));
  const tools = scanned.reduce((n, r) => n + ('tools' in r ? r.tools.length : 0), 0);
  const lines = [
    `Over the [scorecard](docs/scorecard/index.md)'s ${reports.length} npm servers (${scanned.length} scanned, ${tools} tools),`,
    'every error-level finding judged by hand against the server’s source:',
    '',
    '| Error-level findings | Found | Right | Wrong | Precision |',
    '| --- | --- | --- | --- | --- |',
    ...precision(reports, judgements).map(
      (row) =>
        `| ${row.kind === 'all' ? 'all' : `${row.kind}`} | ${row.findings} | ${row.right} | ${row.wrong} | ${percent(row.right, row.findings)} |`,
    ),
  ];
  if (fixed.length > 0)
    lines.push(
      '',
      `${fixed.length} wrong findings the scorecard turned up are fixed by a rule (listed on its page), and the servers scanned again.`,
    );
  return lines.join('\n');
}

/** The README with its generated region replaced. */
export function readmeWithTable(readme: string, table: string): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start === -1 || end < start) throw new Error(`README.md has no ${README_START} … ${README_END} region`);
  return `${readme.slice(0, start + README_START.length)}\n${table}\n${readme.slice(end)}`;
}

/** The generated region of a README, as it is. */
export function readmeRegion(readme: string): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  return start === -1 || end < start ? '' : readme.slice(start + README_START.length, end).trim();
}
