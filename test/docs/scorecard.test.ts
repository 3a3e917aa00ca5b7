/**
 * The scorecard cannot drift: the README's precision table and docs/scorecard/index.md
 * are what scripts/scorecard.ts generates from the stored reports and the judgements,
 * every error-level finding of the reports is judged, and every judgement names a
 * finding that is there, the source line that decides it and why.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  errorFindings,
  judgementOf,
  LIST_FILE,
  README_FILE,
  readFixed,
  readJudgements,
  readmeRegion,
  readmeTable,
  readRun,
  SCORECARD_DIR,
  scorecardTargets,
  storedReport,
  storedReports,
  storedReportsByTarget,
} from '../../scripts/scorecard-data.js';
import { categoriesOf, DATASET_DIR, datasetCsv, scorecardDataset } from '../../scripts/scorecard-dataset.js';
import { DATASET_SCHEMA } from '../../scripts/scorecard-dataset-schema.js';
import { scorecardPage } from '../../scripts/scorecard-page.js';
import { readSampleRule, sampleOf } from '../../scripts/scorecard-sample.js';
import { SERVER_PAGES_DIR, serverBadge, serverPage, serverPageSlug } from '../../scripts/scorecard-server-page.js';
import { parseListEntry } from '../../src/scan/list-entry.js';

const REGENERATE = 'run npx tsx scripts/scorecard.ts --from-reports';

describe('the scorecard', () => {
  it('lists at least 40 servers, each pinned to an exact version and with its stored report', async () => {
    const targets = await scorecardTargets();
    expect(targets.length).toBeGreaterThanOrEqual(40);
    for (const { listed } of targets) {
      // A server.json names its package's exact version itself (the scan refuses one that does not);
      // a line may name its doubles after the target.
      const { target } = parseListEntry(listed);
      if (!target.endsWith('server.json'))
        expect(target, 'an exact version').toMatch(/^(@[^/@]+\/)?[^@]+@\d+\.\d+\.\d+(-[\w.]+)?$/);
      const report = storedReport(listed);
      expect(report, `the report of ${listed}`).toBeDefined();
      if (report && 'package' in report) expect(report.package?.version).toMatch(/^\d+\.\d+\.\d+/);
    }
  });

  it('has a page and a badge for every server, generated from its report, linked from the scorecard page', async () => {
    const categories = categoriesOf(readFileSync(LIST_FILE, 'utf8'));
    const reports = await storedReportsByTarget();
    const index = readFileSync(path.join(SCORECARD_DIR, 'index.md'), 'utf8');
    for (const { listed } of await scorecardTargets()) {
      const report = reports.get(listed)!;
      const slug = serverPageSlug(listed);
      const page = readFileSync(path.join(SERVER_PAGES_DIR, `${slug}.md`), 'utf8');
      expect(page, REGENERATE).toBe(
        serverPage(listed, categories.get(listed) ?? 'uncategorised', report, readJudgements()),
      );
      expect(readFileSync(path.join(SERVER_PAGES_DIR, `${slug}.svg`), 'utf8'), REGENERATE).toBe(serverBadge(report));
      expect(index).toContain(`](by-server/${slug}.md)`);
    }
  });

  it("has the README's precision table generated from the reports and the judgements", async () => {
    const readme = readFileSync(README_FILE, 'utf8');
    expect(readmeRegion(readme), REGENERATE).toBe(readmeTable(await storedReports(), readJudgements(), readFixed()));
  });

  it('has the page generated from the reports, the judgements and the run record', async () => {
    const page = readFileSync(path.join(SCORECARD_DIR, 'index.md'), 'utf8');
    const { figures } = scorecardDataset(await scorecardTargets(), await storedReportsByTarget(), readJudgements());
    expect(page, REGENERATE).toBe(
      scorecardPage(await storedReports(), readJudgements(), readRun(), readFixed(), figures),
    );
  });

  it('has a judgement for every error-level finding of the reports, or of the stated sample of them', async () => {
    const judgements = readJudgements();
    const unjudged = sampleOf((await storedReports()).flatMap(errorFindings), readSampleRule())
      .filter((found) => !judgementOf(found, judgements))
      .map((found) => `${found.server} ${found.finding.tool ?? ''} ${found.finding.ruleId}`);
    expect(unjudged).toEqual([]);
  });

  it('has only judgements of findings that are in the reports, each with its source line and reason', async () => {
    const found = (await storedReports()).flatMap(errorFindings);
    for (const judgement of readJudgements()) {
      const label = `${judgement.server} ${judgement.tool ?? ''} ${judgement.rule}`;
      expect(
        found.some((f) => judgementOf(f, [judgement])),
        `${label} is a finding of the reports`,
      ).toBe(true);
      expect(['right', 'wrong'], label).toContain(judgement.verdict);
      expect(judgement.source, `${label}: file:line`).toMatch(/^[^\s:]+:\d+$/);
      expect(judgement.why.trim().length, `${label}: why`).toBeGreaterThan(10);
    }
  });

  it('no longer has, in the reports scanned again, the wrong findings a rule now avoids', async () => {
    const found = (await storedReports()).flatMap(errorFindings);
    for (const fixed of readFixed()) {
      const label = `${fixed.server} ${fixed.tool ?? ''} ${fixed.rule}`;
      expect(storedReport(fixed.server), `${label}: the server's report`).toBeDefined();
      expect(
        found.some((f) => judgementOf(f, [{ ...fixed, verdict: 'wrong' }])),
        `${label} is still reported`,
      ).toBe(false);
      expect(fixed.source, `${label}: file:line`).toMatch(/^[^\s:]+:\d+$/);
    }
  });

  it('has the dataset (JSON, its schema, CSV) made again byte for byte from the stored reports', async () => {
    const data = scorecardDataset(await scorecardTargets(), await storedReportsByTarget(), readJudgements());
    const stored = (name: string) => readFileSync(path.join(DATASET_DIR, name), 'utf8');
    expect(stored('scorecard.json'), REGENERATE).toBe(`${JSON.stringify(data, null, 2)}\n`);
    expect(stored('scorecard.schema.json'), REGENERATE).toBe(`${JSON.stringify(DATASET_SCHEMA, null, 2)}\n`);
    expect(stored('scorecard.csv'), REGENERATE).toBe(datasetCsv(data));
  });

  it('has a dataset that validates against its schema, with every tool of every report and figures that add up', async () => {
    const data = JSON.parse(readFileSync(path.join(DATASET_DIR, 'scorecard.json'), 'utf8'));
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(DATASET_SCHEMA);
    expect(validate(data), JSON.stringify(validate.errors)).toBe(true);
    const reports = await storedReports();
    expect(data.servers).toHaveLength(reports.length);
    const tools = reports.reduce((n, r) => n + ('tools' in r ? r.tools.length : 0), 0);
    const all = data.figures.at(-1);
    expect(all).toMatchObject({ category: 'all', servers: reports.length, tools });
    for (const key of ['servers', 'scanned', 'tools', 'withHints', 'exercised', 'contradicting'] as const)
      expect(
        data.figures.slice(0, -1).reduce((n: number, f: Record<string, number>) => n + f[key]!, 0),
        key,
      ).toBe(all[key]);
    // Every error-level finding in the dataset carries its judgement when it has one (every one of the sample does).
    const errors = data.servers.flatMap((s: { tools: Array<{ findings: Array<{ severity: string }> }> }) =>
      s.tools.flatMap((t) => t.findings.filter((f) => f.severity === 'error')),
    );
    const judged = reports.flatMap(errorFindings).filter((f) => f.finding.tool && judgementOf(f, readJudgements()));
    expect(errors.filter((f: { judgement?: string }) => f.judgement)).toHaveLength(judged.length);
    // One CSV row per tool, plus one per server that could not be scanned, plus the header.
    const rows = readFileSync(path.join(DATASET_DIR, 'scorecard.csv'), 'utf8').trimEnd().split('\r\n');
    expect(rows).toHaveLength(1 + tools + reports.filter((r) => 'error' in r).length);
  });
});
