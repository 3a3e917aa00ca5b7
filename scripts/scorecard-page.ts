/**
 * docs/scorecard/index.md from the stored reports, the judgements and the run
 * record: how it was made, what it measured, the precision table, one line per
 * server, then a table per server with its error-level findings and their judgements.
 */

import { slugFor } from '../src/scan/batch.js';
import {
  type ErrorFinding,
  errorFindings,
  type FixedFinding,
  type Judgement,
  judgementOf,
  precision,
  type RunRecord,
  type StoredReport,
} from './scorecard-data.js';
import type { Figures } from './scorecard-dataset.js';
import { readSampleRule, samplePrecision } from './scorecard-sample.js';
import { cell } from './scorecard-server-page.js';

const short = (text: string, max = 140) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** `n thing` or `n things`. */
const count = (n: number, thing: string) => `${n} ${thing}${n === 1 ? '' : 's'}`;

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? 0 : sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];

/** How many of a scan's tools declare at least one of the four hints. */
function withHints(report: Extract<StoredReport, { tools: unknown }>): number {
  return report.tools.filter((t) => HINTS.some((hint) => hint in t.declared)).length;
}

function observeErrors(report: StoredReport): number {
  return 'error' in report ? 0 : report.observe.findings.filter((f) => f.severity === 'error').length;
}

/** The tools not exercised, grouped by reason (a long list of tools failing for one reason reads as one line). */
function notExercised(report: Extract<StoredReport, { tools: unknown }>): string[] {
  const byReason = new Map<string, string[]>();
  for (const tool of report.tools.filter((t) => t.verdict === 'not exercised')) {
    const reason = short(tool.reason ?? 'no reason given', 160);
    byReason.set(reason, [...(byReason.get(reason) ?? []), tool.name]);
  }
  return [...byReason].map(([reason, tools]) => `${tools.length} (${short(tools.join(', '), 120)}): ${reason}`);
}

/** A server's name in the page: its package and version, whatever form the list gives it in. */
function label(report: StoredReport): string {
  return 'package' in report && report.package ? `${report.package.name}@${report.package.version}` : report.target;
}

function findingLine(found: ErrorFinding, judgements: readonly Judgement[]): string {
  const judged = judgementOf(found, judgements);
  const verdict = judged ? `**${judged.verdict}** (\`${judged.source}\`): ${cell(judged.why)}` : '**not judged yet**';
  const where = found.finding.tool ? ` on \`${found.finding.tool}\`` : '';
  return `- ${found.kind} \`${found.finding.ruleId}\`${where}: ${cell(short(found.finding.message, 220))} — ${verdict}`;
}

function serverSection(report: StoredReport, judgements: readonly Judgement[]): string {
  if ('error' in report)
    return `### ${report.target}\n\nCould not be scanned: ${cell(short(report.error.split('\n').join(' '), 400))}\n`;
  const started = report.serverJson
    ? `\`${report.serverJson.file}\` (its arguments and environment)`
    : 'the package alone, no arguments';
  const tools = report.tools.length;
  const hinted = withHints(report);
  const skipped = notExercised(report);
  const rows: Array<[string, string]> = [
    ['Version', `${report.package?.version ?? '—'}`],
    ['Started with', started],
    ['Tools', String(tools)],
    ['Declared hints', `${hinted} of ${tools} tools (${tools ? Math.round((100 * hinted) / tools) : 0}%)`],
    [
      'Lint',
      `${report.lint.filter((f) => f.severity === 'error').length} errors, ${report.lint.filter((f) => f.severity === 'warning').length} warnings`,
    ],
    ['Observe contradictions', String(observeErrors(report))],
    ['Consistent', count(report.tools.filter((t) => t.verdict === 'consistent').length, 'tool')],
    ['Not exercised', skipped.length === 0 ? '0' : skipped.map(cell).join('<br>')],
    ['Verdict', report.verdict],
    ['Scan time', `${report.seconds} s`],
  ];
  const findings = errorFindings(report);
  return [
    `### ${label(report)}`,
    '',
    '| | |',
    '| --- | --- |',
    ...rows.map(([name, value]) => `| ${name} | ${value} |`),
    '',
    ...(findings.length > 0
      ? ['Error-level findings, judged against the source:', '', ...findings.map((f) => findingLine(f, judgements)), '']
      : []),
  ].join('\n');
}

/** A server's name linked to its own page. */
const linked = (report: StoredReport) => `[${cell(label(report))}](by-server/${slugFor(report.target)}.md)`;

function summaryRow(report: StoredReport): string {
  if ('error' in report) return `| ${linked(report)} | — | — | — | — | — | — | could not scan |`;
  const tools = report.tools.length;
  const lintErrors = report.lint.filter((f) => f.severity === 'error').length;
  const lintWarnings = report.lint.filter((f) => f.severity === 'warning').length;
  const skipped = report.tools.filter((t) => t.verdict === 'not exercised').length;
  const hinted = tools ? `${Math.round((100 * withHints(report)) / tools)}%` : '—';
  return `| ${linked(report)} | ${tools} | ${hinted} | ${lintErrors} | ${lintWarnings} | ${observeErrors(report)} | ${skipped} | ${report.verdict} |`;
}

function measurements(reports: readonly StoredReport[], run: RunRecord | undefined): string[] {
  const times = reports.flatMap((r) => ('seconds' in r ? [r.seconds] : []));
  const lines = [
    `- Median scan time per server, install included: **${median(times).toFixed(1)} s** (${times.length} servers; the fastest ${Math.min(...times).toFixed(1)} s, the slowest ${Math.max(...times).toFixed(1)} s).`,
  ];
  // The install is npm's (the registry, the cache); the rest is candor's scan of the installed server.
  const installed = reports.flatMap((r) =>
    'seconds' in r && typeof r.installSeconds === 'number' ? [r.seconds - r.installSeconds] : [],
  );
  if (installed.length > 0)
    lines.push(
      `- Median scan time of the installed server (the same scans without npm's install): **${median(installed).toFixed(1)} s** (${installed.length} servers).`,
    );
  if (run) {
    const load = (values: number[]) => values.map((v) => v.toFixed(2)).join(', ');
    const timeout = run.timeoutMs ? ` and \`--timeout ${run.timeoutMs}\`` : '';
    lines.push(
      `- The whole list with \`--jobs ${run.jobs}\`, \`--budget ${run.budgetSeconds}\`${timeout}: **${(run.wallSeconds / 60).toFixed(1)} minutes** wall time, on ${run.cores} cores shared with other work (load average ${load(run.loadAverage.start)} at the start, ${load(run.loadAverage.end)} at the end), Node ${run.node}, ${run.date.slice(0, 10)}.`,
    );
    for (const pass of run.rescanned ?? [])
      lines.push(
        `- Scanned again in a later pass with \`--budget ${pass.budgetSeconds}\` and \`--timeout ${pass.timeoutMs}\`${pass.reason ? ` (${pass.reason})` : ''}: ${pass.targets.map((t) => `\`${t}\``).join(', ')}, ${(pass.wallSeconds / 60).toFixed(1)} minutes more.`,
      );
  }
  return lines;
}

const share = (part: number, whole: number) => (whole === 0 ? '—' : `${((100 * part) / whole).toFixed(1)}%`);

/** How the findings were judged: all of them, or a stated sample, with the precision's 95% interval. */
function sampleLines(reports: readonly StoredReport[], judgements: readonly Judgement[]): string[] {
  const rule = readSampleRule();
  const found = reports.flatMap(errorFindings);
  const p = samplePrecision(found, judgements, rule);
  const judged = p.right + p.wrong;
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const drawn =
    rule && p.found > rule.size
      ? `${p.found} error-level findings; a uniform random sample of ${p.drawn} (seed ${rule.seed}: a seeded shuffle of the findings sorted by server, tool, rule and kind, the first ${rule.size} taken; \`scripts/scorecard-sample.ts\`) was judged against the source`
      : `${p.found} error-level findings, every one judged against the source`;
  return [
    `${drawn}: ${p.right} right, ${p.wrong} wrong${p.unjudged ? `, ${p.unjudged} not judged yet` : ''}. Precision **${judged === 0 ? '—' : pct(p.right / judged)}**, 95% Wilson interval ${judged === 0 ? '—' : `${pct(p.low)} to ${pct(p.high)}`}. The table counts the judged findings by kind.`,
    '',
  ];
}

/** The figures over every server, first on the page; each server's own page is linked from the table below. */
function headline(figures: readonly Figures[]): string[] {
  const all = figures.find((f) => f.category === 'all');
  if (!all) return [];
  return [
    `- **${all.servers} servers** (${all.scanned} scanned, ${all.servers - all.scanned} could not be scanned), **${all.tools} tools**: ${share(all.withHints, all.tools)} declare hints, **${share(all.exercised, all.tools)} exercised**, ${all.tools === 0 ? '—' : ((100 * all.contradicting) / all.tools).toFixed(1)} contradictions per 100 tools (by category below; every server has its own page with its tools, the evidence of each finding and its badge).`,
  ];
}

/** The headline figures by category, and where the dataset is. */
function byCategory(figures: readonly Figures[]): string[] {
  if (figures.length === 0) return [];
  return [
    '## By category',
    '',
    'Categories are the sections of the list. "With hints": tools declaring at least one of the four hints;',
    '"exercised": tools observe called successfully at least once; contradictions are tools whose observed',
    'effects contradict their hints, per 100 tools.',
    '',
    '| Category | Servers (scanned) | Tools | With hints | Exercised | Contradictions per 100 tools |',
    '| --- | --- | --- | --- | --- | --- |',
    ...figures.map(
      (f) =>
        `| ${f.category === 'all' ? '**all**' : cell(f.category)} | ${f.servers} (${f.scanned}) | ${f.tools} | ${share(f.withHints, f.tools)} | ${share(f.exercised, f.tools)} | ${f.tools === 0 ? '—' : ((100 * f.contradicting) / f.tools).toFixed(1)} |`,
    ),
    '',
    '## Dataset',
    '',
    'Every server, tool, declared hint, observed effect, exercised or not (and why), finding and judgement of',
    'this page, as one JSON file with its JSON Schema and one CSV (a row per tool), in the repository:',
    '`docs/scorecard/dataset/scorecard.json`, `scorecard.schema.json` and `scorecard.csv`. Both are made from the',
    'stored reports alone (`npx tsx scripts/scorecard.ts --from-reports` writes them again, byte for byte);',
    '`datasetVersion` changes when a field changes meaning. Cite it as "candor scorecard dataset", with the',
    '`measured` date it carries.',
    '',
  ];
}

/**
 * The scorecard page.
 *
 * @example
 * ```ts
 * writeFileSync('docs/scorecard/index.md', scorecardPage(await storedReports(), readJudgements(), readRun()));
 * ```
 */
export function scorecardPage(
  reports: readonly StoredReport[],
  judgements: readonly Judgement[],
  run: RunRecord | undefined,
  fixed: readonly FixedFinding[] = [],
  figures: readonly Figures[] = [],
): string {
  const rows = precision(reports, judgements);
  const percent = (row: (typeof rows)[number]) =>
    row.findings === 0 ? '—' : `${((100 * row.right) / row.findings).toFixed(1)}%`;
  return [
    '# The honesty scorecard',
    '',
    '<!-- Generated by scripts/scorecard.ts from docs/scorecard/reports/ and docs/scorecard/judgements.json: edit those, then run `npx tsx scripts/scorecard.ts --from-reports`. -->',
    '',
    'Widely used MCP servers from npm, each pinned to an exact version (the list is `docs/scorecard/servers.txt`),',
    'scanned with [`candor scan`](../check/scan.md): installed in the sandbox, started once, every tool linted and',
    'called on a generated workdir, and what it did compared with the hints it declares.',
    '',
    'The servers are chosen by a rule anyone can run again (`scripts/scorecard-select.ts` over a snapshot of',
    'npm: packages whose name or summary says MCP server, less the pieces for building or connecting MCP',
    'software, ranked by downloads a month; the first 140, plus the reference servers and the earlier',
    "scorecard's); the rows it took are `docs/scorecard/selection.tsv`.",
    '',
    'Each server gets the [service doubles](../check/observe.md) it needs, named on its list line',
    '(`--service mysql`) or in its `server.json` (`_meta["dev.candor/services"]`): a seeded PostgreSQL,',
    'MariaDB, Redis or SQLite for a database server, a recording TLS double of its API for a SaaS server',
    '(`https-api=HOST`), a local site for a browser server. A server that will not start without an argument',
    'or a variable is started from a `server.json` in `docs/scorecard/servers/`: the workdir as its folder or',
    'file, the system Chromium for a browser, and placeholder credentials (never a real one; the sandbox has',
    'no network but its doubles). A tool that still fails is listed as not exercised, with the reason; lint',
    'still covers its definition.',
    '',
    'Error-level findings (a lint error, or an observed contradiction) are judged by hand against the',
    "server's published code and recorded as right or wrong, with the line that decides it",
    '(`docs/scorecard/judgements.json`); when there are more than one review can judge, a stated uniform',
    'random sample of them (see Precision).',
    '',
    'Made by:',
    '',
    '```sh',
    'npx tsx scripts/scorecard.ts                 # scans the list (candor scan --list … --jobs 2) and writes this page',
    'npx tsx scripts/scorecard.ts --from-reports  # this page again from the stored reports, without scanning',
    '```',
    '',
    '## Measured',
    '',
    ...headline(figures),
    ...measurements(reports, run),
    '',
    ...byCategory(figures),
    '## Precision',
    '',
    ...sampleLines(reports, judgements),
    '| Error-level findings | Found | Right | Wrong | Precision |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row.kind} | ${row.findings} | ${row.right} | ${row.wrong} | ${percent(row)} |`),
    '',
    ...(fixed.length > 0
      ? [
          'Wrong findings the scorecard turned up, each now avoided by a rule that holds for every server (with a',
          'regression test), the server scanned again:',
          '',
          ...fixed.map(
            (f) =>
              `- \`${f.rule}\` on \`${f.tool ?? '(server)'}\` of ${f.server} (\`${f.source}\`): ${cell(f.why)} Fix: ${cell(f.fix)}`,
          ),
          '',
        ]
      : []),
    '## Servers',
    '',
    '| Server | Tools | Declared hints | Lint errors | Lint warnings | Observe contradictions | Not exercised | Verdict |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...reports.map(summaryRow),
    '',
    ...reports.map((report) => serverSection(report, judgements)),
  ].join('\n');
}
