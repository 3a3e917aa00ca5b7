/**
 * Judging at scale: when the reports hold more error-level findings than one review can
 * judge against the source, a uniform random sample of a stated size is judged, drawn with
 * a fixed seed from the findings in a fixed order (so anyone draws the same sample from the
 * same reports), and precision is reported with its 95% Wilson score interval. With no
 * more findings than the sample size, every finding is judged.
 */
import { readFileSync } from 'node:fs';
import { random } from '../src/observe/arguments.js';
import { type ErrorFinding, JUDGEMENTS_FILE, type Judgement, judgementOf } from './scorecard-data.js';

/** The sample's size and seed, as judgements.json states them. */
export interface SampleRule {
  size: number;
  seed: number;
}

export function readSampleRule(): SampleRule | undefined {
  return (JSON.parse(readFileSync(JUDGEMENTS_FILE, 'utf8')) as { sample?: SampleRule }).sample;
}

const keyOf = (f: ErrorFinding) => `${f.server}\u0000${f.finding.tool ?? ''}\u0000${f.finding.ruleId}\u0000${f.kind}`;

/**
 * The findings to judge: all of them when there are no more than the sample's size,
 * else `size` of them drawn uniformly (a seeded Fisher–Yates shuffle of the findings
 * sorted by server, tool, rule and kind, then the first `size`), in that sorted order.
 *
 * @example
 * ```ts
 * sampleOf(found, { size: 60, seed: 45 }).length; // 60, or found.length when smaller
 * ```
 */
export function sampleOf(found: readonly ErrorFinding[], rule: SampleRule | undefined): ErrorFinding[] {
  const sorted = [...found].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  if (!rule || sorted.length <= rule.size) return sorted;
  const next = random(rule.seed);
  const order = sorted.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const chosen = new Set(order.slice(0, rule.size));
  return sorted.filter((_, i) => chosen.has(i));
}

/** The 95% Wilson score interval of a proportion `right` of `n`, as fractions. */
export function wilson(right: number, n: number, z = 1.96): { low: number; high: number } {
  if (n === 0) return { low: 0, high: 1 };
  const p = right / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** Precision over the judged sample. */
export interface SamplePrecision {
  /** Every error-level finding of the reports. */
  found: number;
  /** The findings drawn to be judged (all of them when `found` ≤ the sample size). */
  drawn: number;
  right: number;
  wrong: number;
  /** Drawn but without a judgement yet. */
  unjudged: number;
  low: number;
  high: number;
}

/**
 * Precision of the drawn findings and its 95% interval.
 *
 * @example
 * ```ts
 * samplePrecision(found, judgements, { size: 60, seed: 45 }); // { found: 212, drawn: 60, right: 59, … }
 * ```
 */
export function samplePrecision(
  found: readonly ErrorFinding[],
  judgements: readonly Judgement[],
  rule: SampleRule | undefined,
): SamplePrecision {
  const drawn = sampleOf(found, rule);
  const verdicts = drawn.map((f) => judgementOf(f, judgements)?.verdict);
  const right = verdicts.filter((v) => v === 'right').length;
  const wrong = verdicts.filter((v) => v === 'wrong').length;
  const { low, high } = wilson(right, right + wrong);
  return { found: found.length, drawn: drawn.length, right, wrong, unjudged: drawn.length - right - wrong, low, high };
}
