/**
 * The scorecard: scan the checked-in list of npm servers with the built CLI
 * (`candor scan --list … --jobs 2 --out DIR`), keep each server's raw JSON report
 * in docs/scorecard/reports/, and write docs/scorecard/index.md and the README's
 * precision table from the reports and docs/scorecard/judgements.json.
 *
 *   npx tsx scripts/scorecard.ts                   scan (resumes in --out), then write
 *   npx tsx scripts/scorecard.ts --force           scan every server again
 *   npx tsx scripts/scorecard.ts --from-run DIR    take the reports of a batch run before into DIR
 *   npx tsx scripts/scorecard.ts --from-reports    only write the page and the table again
 *
 * Options: --jobs N (2), --budget SECONDS per server (120), --timeout MS per call (10000), --out DIR (a folder under the OS temp dir),
 * --cli FILE (the built CLI to run; default dist/src/cli/main.js, so `npm run build` first).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { slugFor } from '../src/scan/batch.js';
import {
  errorFindings,
  judgementOf,
  LIST_FILE,
  README_FILE,
  REPORTS_DIR,
  type RescanPass,
  RUN_FILE,
  type RunRecord,
  readFixed,
  readJudgements,
  readmeTable,
  readmeWithTable,
  readRun,
  SCORECARD_DIR,
  scorecardTargets,
  storedReports,
  storedReportsByTarget,
} from './scorecard-data.js';
import { categoriesOf, DATASET_DIR, datasetCsv, scorecardDataset } from './scorecard-dataset.js';
import { DATASET_SCHEMA } from './scorecard-dataset-schema.js';
import { scorecardPage } from './scorecard-page.js';
import { readSampleRule, sampleOf } from './scorecard-sample.js';
import { SERVER_PAGES_DIR, serverBadge, serverPage, serverPageSlug } from './scorecard-server-page.js';

const ROOT = path.join(import.meta.dirname, '..');

const { values } = parseArgs({
  options: {
    'from-reports': { type: 'boolean', default: false },
    'from-run': { type: 'string' },
    force: { type: 'boolean', default: false },
    jobs: { type: 'string', default: '2' },
    budget: { type: 'string', default: '120' },
    timeout: { type: 'string', default: '10000' },
    // Why a resumed batch scans the servers it scans (kept in the run record and shown on the page).
    reason: { type: 'string' },
    out: { type: 'string', default: path.join(os.tmpdir(), 'candor-scorecard') },
    // Another build of the CLI (a copy, so rebuilding the checkout during a long batch does not change it).
    cli: { type: 'string', default: path.join(ROOT, 'dist', 'src', 'cli', 'main.js') },
  },
});
const CLI = path.resolve(values.cli);

/** Run the batch with the built CLI and record how long it took and how loaded the machine was. */
async function runBatch(out: string): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  mkdirSync(out, { recursive: true });
  const jobs = Number(values.jobs);
  const budgetSeconds = Number(values.budget);
  const timeoutMs = Number(values.timeout);
  const args = [CLI, 'scan', '--list', LIST_FILE, '--jobs', String(jobs), '--out', out];
  args.push('--budget', String(budgetSeconds), '--timeout', String(timeoutMs));
  if (values.force) args.push('--force');
  // A batch resumed in the same folder scans only the servers without a report: it is recorded as a second pass.
  const runFile = path.join(out, 'run.json');
  const earlier =
    !values.force && existsSync(runFile) ? (JSON.parse(readFileSync(runFile, 'utf8')) as RunRecord) : undefined;
  const missing = (await scorecardTargets()).filter((t) => !existsSync(path.join(out, `${slugFor(t.scanned)}.json`)));
  const start = { time: performance.now(), load: os.loadavg() };
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', resolve);
  });
  // Exit 1 (contradictions) and 2 (a server could not be scanned) are results, not failures of the batch.
  if (code === null || code > 2) throw new Error(`candor scan --list exited with ${code}`);
  const wallSeconds = Math.round((performance.now() - start.time) / 100) / 10;
  if (earlier) {
    const pass: RescanPass = {
      targets: missing.map((t) => t.listed),
      wallSeconds,
      budgetSeconds,
      timeoutMs,
      ...(values.reason ? { reason: values.reason } : {}),
    };
    const rescanned = [...(earlier.rescanned ?? []), pass];
    writeFileSync(runFile, `${JSON.stringify({ ...earlier, rescanned }, null, 2)}\n`);
    return;
  }
  const run: RunRecord = {
    date: new Date().toISOString(),
    jobs,
    budgetSeconds,
    timeoutMs,
    wallSeconds,
    cores: os.availableParallelism(),
    loadAverage: { start: start.load, end: os.loadavg() },
    node: process.versions.node,
  };
  writeFileSync(path.join(out, 'run.json'), `${JSON.stringify(run, null, 2)}\n`);
}

/**
 * Copy each listed server's JSON report (and the run record) from a batch folder into
 * the docs, named and labelled by the target as the list writes it.
 */
async function keepReports(out: string): Promise<void> {
  mkdirSync(REPORTS_DIR, { recursive: true });
  let kept = 0;
  for (const { listed, scanned } of await scorecardTargets()) {
    const from = path.join(out, `${slugFor(scanned)}.json`);
    if (!existsSync(from)) {
      console.log(`no report for ${listed} in ${out}`);
      continue;
    }
    const report = JSON.parse(readFileSync(from, 'utf8'));
    report.target = listed;
    // A stored report copied back into a resumed folder already names its server.json relative to the scorecard.
    if (report.serverJson && path.isAbsolute(report.serverJson.file))
      report.serverJson.file = path.relative(SCORECARD_DIR, report.serverJson.file);
    // The reports name the sandbox's folders under HOME; the checked-in copy says ~ instead.
    const text = JSON.stringify(report, null, 2).replaceAll(os.homedir(), '~');
    writeFileSync(path.join(REPORTS_DIR, `${slugFor(listed)}.json`), `${text}\n`);
    kept++;
  }
  // A server no longer on the list (or now named by a server.json) leaves no stale report behind.
  const names = new Set([...(await scorecardTargets()).map((t) => `${slugFor(t.listed)}.json`), 'run.json']);
  for (const name of readdirSync(REPORTS_DIR)) if (!names.has(name)) rmSync(path.join(REPORTS_DIR, name));
  if (existsSync(path.join(out, 'run.json'))) copyFileSync(path.join(out, 'run.json'), RUN_FILE);
  console.log(`kept ${kept} reports in ${path.relative(ROOT, REPORTS_DIR)}`);
}

if (!values['from-reports']) {
  const out = path.resolve(values['from-run'] ?? values.out);
  if (!values['from-run']) await runBatch(out);
  await keepReports(out);
}

const reports = await storedReports();
const judgements = readJudgements();
const fixed = readFixed();
const data = scorecardDataset(await scorecardTargets(), await storedReportsByTarget(), judgements);
mkdirSync(DATASET_DIR, { recursive: true });
writeFileSync(path.join(DATASET_DIR, 'scorecard.json'), `${JSON.stringify(data, null, 2)}\n`);
writeFileSync(path.join(DATASET_DIR, 'scorecard.schema.json'), `${JSON.stringify(DATASET_SCHEMA, null, 2)}\n`);
writeFileSync(path.join(DATASET_DIR, 'scorecard.csv'), datasetCsv(data));
writeFileSync(path.join(SCORECARD_DIR, 'index.md'), scorecardPage(reports, judgements, readRun(), fixed, data.figures));
// One page and badge per server, and no page left behind for a server no longer listed.
const categories = categoriesOf(readFileSync(LIST_FILE, 'utf8'));
const byTarget = await storedReportsByTarget();
mkdirSync(SERVER_PAGES_DIR, { recursive: true });
const pageNames = new Set<string>();
for (const { listed } of await scorecardTargets()) {
  const report = byTarget.get(listed);
  if (!report) continue;
  const slug = serverPageSlug(listed);
  writeFileSync(
    path.join(SERVER_PAGES_DIR, `${slug}.md`),
    serverPage(listed, categories.get(listed) ?? 'uncategorised', report, judgements),
  );
  writeFileSync(path.join(SERVER_PAGES_DIR, `${slug}.svg`), serverBadge(report));
  pageNames.add(`${slug}.md`).add(`${slug}.svg`);
}
for (const name of readdirSync(SERVER_PAGES_DIR)) if (!pageNames.has(name)) rmSync(path.join(SERVER_PAGES_DIR, name));
writeFileSync(README_FILE, readmeWithTable(readFileSync(README_FILE, 'utf8'), readmeTable(reports, judgements, fixed)));
console.log(`wrote docs/scorecard/index.md, the dataset and the README's table (${reports.length} servers)`);

const unjudged = sampleOf(reports.flatMap(errorFindings), readSampleRule()).filter((f) => !judgementOf(f, judgements));
if (unjudged.length > 0) {
  console.log(
    `\n${unjudged.length} error-level findings to judge have no judgement in docs/scorecard/judgements.json:`,
  );
  for (const f of unjudged)
    console.log(`  ${f.server} ${f.finding.tool ?? '(server)'} ${f.finding.ruleId}: ${f.finding.message}`);
}
