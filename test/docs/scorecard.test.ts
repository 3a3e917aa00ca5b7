/**
 * The scorecard cannot drift: the README's precision table and docs/scorecard/index.md
 * are what scripts/scorecard.ts generates from the stored reports and the judgements,
 * every error-level finding of the reports is judged, and every judgement names a
 * finding that is there, the source line that decides it and why.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  errorFindings,
  judgementOf,
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
} from '../../scripts/scorecard-data.js';
import { scorecardPage } from '../../scripts/scorecard-page.js';

const REGENERATE = 'run npx tsx scripts/scorecard.ts --from-reports';

describe('the scorecard', () => {
  it('lists at least 40 servers, each pinned to an exact version and with its stored report', async () => {
    const targets = await scorecardTargets();
    expect(targets.length).toBeGreaterThanOrEqual(40);
    for (const { listed } of targets) {
      // A server.json names its package's exact version itself (the scan refuses one that does not).
      if (!listed.endsWith('server.json'))
        expect(listed, 'an exact version').toMatch(/^(@[^/@]+\/)?[^@]+@\d+\.\d+\.\d+$/);
      const report = storedReport(listed);
      expect(report, `the report of ${listed}`).toBeDefined();
      if (report && 'package' in report) expect(report.package?.version).toMatch(/^\d+\.\d+\.\d+/);
    }
  });

  it("has the README's precision table generated from the reports and the judgements", async () => {
    const readme = readFileSync(README_FILE, 'utf8');
    expect(readmeRegion(readme), REGENERATE).toBe(readmeTable(await storedReports(), readJudgements(), readFixed()));
  });

  it('has the page generated from the reports, the judgements and the run record', async () => {
    const page = readFileSync(path.join(SCORECARD_DIR, 'index.md'), 'utf8');
    expect(page, REGENERATE).toBe(scorecardPage(await storedReports(), readJudgements(), readRun(), readFixed()));
  });

  it('has a judgement for every error-level finding of the reports', async () => {
    const judgements = readJudgements();
    const unjudged = (await storedReports())
      .flatMap(errorFindings)
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
});
