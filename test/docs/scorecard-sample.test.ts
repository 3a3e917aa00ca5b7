/**
 * Judging a sample of the scorecard's findings: the draw is uniform, of the stated
 * size, the same for the same seed whatever order the findings come in, and the
 * interval is the 95% Wilson score interval (checked against values worked out by hand).
 */
import { describe, expect, it } from 'vitest';
import type { ErrorFinding } from '../../scripts/scorecard-data.js';
import { sampleOf, samplePrecision, wilson } from '../../scripts/scorecard-sample.js';

const finding = (i: number): ErrorFinding => ({
  server: `s${String(i).padStart(3, '0')}@1.0.0`,
  kind: 'observe',
  finding: { ruleId: 'observe/read-only-wrote', severity: 'error', tool: `t${i}`, message: 'm' },
});
const found = Array.from({ length: 200 }, (_, i) => finding(i));

describe('the judged sample', () => {
  it('takes every finding when there are no more than the sample size', () => {
    expect(sampleOf(found.slice(0, 30), { size: 60, seed: 45 })).toHaveLength(30);
    expect(sampleOf(found, undefined)).toHaveLength(200);
  });

  it('draws the stated size, the same for the same seed in any input order, another for another seed', () => {
    const one = sampleOf(found, { size: 60, seed: 45 });
    expect(one).toHaveLength(60);
    expect(new Set(one.map((f) => f.server)).size).toBe(60);
    expect(sampleOf([...found].reverse(), { size: 60, seed: 45 })).toEqual(one);
    expect(sampleOf(found, { size: 60, seed: 46 })).not.toEqual(one);
  });

  it('is uniform: over many seeds each finding is drawn about size/n of the time', () => {
    const small = found.slice(0, 20);
    const counts = new Map<string, number>();
    for (let seed = 1; seed <= 2000; seed++)
      for (const f of sampleOf(small, { size: 5, seed })) counts.set(f.server, (counts.get(f.server) ?? 0) + 1);
    // Expected 500 each (2000 × 5/20); a binomial's 5 standard deviations is about 97.
    for (const f of small) expect(Math.abs((counts.get(f.server) ?? 0) - 500)).toBeLessThan(100);
  });

  it('gives the 95% Wilson score interval', () => {
    const { low, high } = wilson(59, 60);
    expect(low).toBeCloseTo(0.91145, 4);
    expect(high).toBeCloseTo(0.99705, 4);
    expect(wilson(60, 60).low).toBeCloseTo(0.93983, 4);
    expect(wilson(0, 10)).toEqual({ low: 0, high: expect.closeTo(0.27754, 4) });
  });

  it('counts the drawn findings right, wrong and not judged yet', () => {
    const drawn = sampleOf(found, { size: 3, seed: 7 });
    const judged = drawn.slice(0, 2).map((f, i) => ({
      server: f.server,
      tool: f.finding.tool,
      rule: f.finding.ruleId,
      finding: 'm',
      verdict: i === 0 ? ('right' as const) : ('wrong' as const),
      source: 'dist/index.js:1',
      why: 'a reason long enough',
    }));
    expect(samplePrecision(found, judged, { size: 3, seed: 7 })).toMatchObject({
      found: 200,
      drawn: 3,
      right: 1,
      wrong: 1,
      unjudged: 1,
    });
  });
});
