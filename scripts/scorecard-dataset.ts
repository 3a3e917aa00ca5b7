/**
 * The scorecard as a dataset others can cite and reuse: one JSON file (with its JSON
 * Schema) and one CSV, both made from the stored reports, the judgements and the
 * list's categories alone, so they regenerate byte for byte (`--from-reports`). No
 * clock is read: the dataset's date is the newest report's.
 *
 * A category is the heading of the list's section the server sits in
 * (`# Databases` in docs/scorecard/servers.txt), so the rule that sorts servers is
 * written where the servers are.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Finding } from '../src/lint/types.js';
import {
  type Judgement,
  judgementOf,
  LIST_FILE,
  type ListedTarget,
  SCORECARD_DIR,
  type StoredReport,
} from './scorecard-data.js';

/** Where the dataset is kept: docs/scorecard/dataset/. */
export const DATASET_DIR = path.join(SCORECARD_DIR, 'dataset');

/** The dataset's own version: raised when a field changes meaning or goes away. */
export const DATASET_VERSION = 1;
const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** A finding about one tool (or the server, without `tool`), with its judgement when it was error-level. */
export interface DatasetFinding {
  source: 'lint' | 'observe';
  rule: string;
  severity: string;
  message: string;
  judgement?: 'right' | 'wrong';
}

export interface DatasetTool {
  name: string;
  /** The hints the tool declares; a hint it leaves out is absent (the spec's default then applies). */
  declared: Partial<Record<(typeof HINTS)[number], boolean>>;
  /** Effects observe saw during its calls (`wrote notes.json`, `connect 10.0.0.1:443 (attempted)`). */
  observed: string[];
  exercised: boolean;
  /** Why the tool was not exercised (every call failed, skipped, …), whole. */
  notExercisedReason?: string;
  verdict: 'consistent' | 'contradicts' | 'not exercised';
  findings: DatasetFinding[];
}

export interface DatasetServer {
  /** As the list names it: `name@version`, or the server.json that starts it. */
  target: string;
  category: string;
  package?: string;
  version?: string;
  /** False when the server could not be scanned (then `error` says why and `tools` is empty). */
  scanned: boolean;
  error?: string;
  protocolVersion?: string;
  verdict?: string;
  candorVersion?: string;
  date?: string;
  tools: DatasetTool[];
  /** Findings about the server as a whole. */
  findings: DatasetFinding[];
}

/** Headline figures over a set of servers. */
export interface Figures {
  category: string;
  servers: number;
  scanned: number;
  tools: number;
  withHints: number;
  exercised: number;
  contradicting: number;
}

export interface Dataset {
  datasetVersion: number;
  description: string;
  /** The newest report's date: when the data was last measured. */
  measured: string;
  figures: Figures[];
  servers: DatasetServer[];
}

/** Each listed line's category: the heading of its section of the list. */
export function categoriesOf(listText: string): Map<string, string> {
  const categories = new Map<string, string>();
  let category = 'uncategorised';
  let previousBlank = false;
  for (const raw of listText.split('\n')) {
    const line = raw.trim();
    if (line === '') {
      previousBlank = true;
      continue;
    }
    if (line.startsWith('#')) {
      // A section heading is a comment that opens a paragraph; a comment inside one describes its next line.
      if (previousBlank) category = line.replace(/^#+\s*/, '');
    } else categories.set(line, category);
    previousBlank = false;
  }
  return categories;
}

const findingOf = (
  source: 'lint' | 'observe',
  finding: Finding,
  server: string,
  judgements: readonly Judgement[],
): DatasetFinding => {
  const judged = finding.severity === 'error' ? judgementOf({ server, kind: source, finding }, judgements) : undefined;
  return {
    source,
    rule: finding.ruleId,
    severity: finding.severity,
    message: finding.message,
    ...(judged ? { judgement: judged.verdict } : {}),
  };
};

function serverOf(
  listed: ListedTarget,
  report: StoredReport,
  category: string,
  judgements: readonly Judgement[],
): DatasetServer {
  if ('error' in report)
    return { target: listed.listed, category, scanned: false, error: report.error, tools: [], findings: [] };
  const all = [
    ...report.lint.map((f) => ({ f, source: 'lint' as const })),
    ...report.observe.findings.map((f) => ({ f, source: 'observe' as const })),
  ];
  const about = (tool: string | undefined) =>
    all.filter(({ f }) => f.tool === tool).map(({ f, source }) => findingOf(source, f, report.target, judgements));
  return {
    target: listed.listed,
    category,
    ...(report.package ? { package: report.package.name, version: report.package.version } : {}),
    scanned: true,
    ...(report.protocolVersion ? { protocolVersion: report.protocolVersion } : {}),
    verdict: report.verdict,
    candorVersion: report.candorVersion,
    date: report.date,
    tools: report.tools.map((tool) => ({
      name: tool.name,
      declared: Object.fromEntries(HINTS.filter((h) => h in tool.declared).map((h) => [h, tool.declared[h]!])),
      observed: tool.effects,
      exercised: tool.verdict !== 'not exercised',
      ...(tool.verdict === 'not exercised' ? { notExercisedReason: tool.reason ?? 'no reason given' } : {}),
      verdict: tool.verdict,
      findings: about(tool.name),
    })),
    findings: about(undefined),
  };
}

function figuresOf(category: string, servers: readonly DatasetServer[]): Figures {
  const tools = servers.flatMap((s) => s.tools);
  return {
    category,
    servers: servers.length,
    scanned: servers.filter((s) => s.scanned).length,
    tools: tools.length,
    withHints: tools.filter((t) => Object.keys(t.declared).length > 0).length,
    exercised: tools.filter((t) => t.exercised).length,
    contradicting: tools.filter((t) => t.verdict === 'contradicts').length,
  };
}

/**
 * The dataset from the list's servers and their stored reports.
 *
 * @example
 * ```ts
 * const data = scorecardDataset(listed, reports, readJudgements());
 * ```
 */
export function scorecardDataset(
  listed: readonly ListedTarget[],
  reports: ReadonlyMap<string, StoredReport>,
  judgements: readonly Judgement[],
  listText = readFileSync(LIST_FILE, 'utf8'),
): Dataset {
  const categories = categoriesOf(listText);
  const servers = listed.flatMap((target) => {
    const report = reports.get(target.listed);
    return report ? [serverOf(target, report, categories.get(target.listed) ?? 'uncategorised', judgements)] : [];
  });
  const order = [...new Set(servers.map((s) => s.category))];
  const dates = servers.flatMap((s) => (s.date ? [s.date] : [])).sort();
  return {
    datasetVersion: DATASET_VERSION,
    description:
      'candor scorecard: MCP servers from npm, the hints each tool declares, what candor observe saw each tool do, and every finding with its hand judgement.',
    measured: dates.at(-1) ?? '',
    figures: [
      ...order.map((category) =>
        figuresOf(
          category,
          servers.filter((s) => s.category === category),
        ),
      ),
      figuresOf('all', servers),
    ],
    servers,
  };
}

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
const csvField = (value: string | number | boolean | undefined) => {
  const text = value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The CSV columns, one row per tool (a server that could not be scanned is one row without a tool). */
const COLUMNS = [
  'category',
  'server',
  'version',
  'tool',
  ...HINTS,
  'exercised',
  'not_exercised_reason',
  'verdict',
  'observed',
  'error_findings',
  'judgements',
  'scan_error',
] as const;

/**
 * The dataset as CSV (one row per tool).
 *
 * @example
 * ```ts
 * writeFileSync('scorecard.csv', datasetCsv(data));
 * ```
 */
export function datasetCsv(data: Dataset): string {
  const rows: string[][] = [];
  for (const server of data.servers) {
    const base = { category: server.category, server: server.target, version: server.version ?? '' };
    if (!server.scanned) {
      rows.push(COLUMNS.map((c) => csvField(c === 'scan_error' ? server.error : (base as Record<string, string>)[c])));
      continue;
    }
    for (const tool of server.tools) {
      const errors = tool.findings.filter((f) => f.severity === 'error');
      const row: Record<string, string | boolean | undefined> = {
        ...base,
        tool: tool.name,
        ...Object.fromEntries(HINTS.map((h) => [h, tool.declared[h]])),
        exercised: tool.exercised,
        not_exercised_reason: tool.notExercisedReason,
        verdict: tool.verdict,
        observed: tool.observed.join('; '),
        error_findings: errors.map((f) => f.rule).join('; '),
        judgements: errors.map((f) => f.judgement ?? 'unjudged').join('; '),
      };
      rows.push(COLUMNS.map((c) => csvField(row[c])));
    }
  }
  return `${[COLUMNS.join(','), ...rows.map((r) => r.join(','))].join('\r\n')}\r\n`;
}
