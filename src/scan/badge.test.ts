import { describe, expect, it } from 'vitest';
import { badgeSvg, badgeText } from './badge.js';

const verdict = (kind: 'consistent' | 'partial' | 'contradictions' | 'failed' | 'not verified', exercised: number) => ({
  verdict: kind,
  exercised,
  total: 12,
});

describe('the scan badge', () => {
  it('says the coverage wherever it is not the whole server, and never "consistent" alone', () => {
    expect(badgeText(verdict('consistent', 12))).toBe('consistent 12/12');
    expect(badgeText(verdict('partial', 5))).toBe('consistent 5/12 exercised');
    expect(badgeText(verdict('not verified', 0))).toBe('not verified 0/12');
    expect(badgeText(verdict('contradictions', 7))).toBe('contradictions');
    expect(badgeText(verdict('failed', 0))).toBe('failed');
    expect(badgeText('could not scan')).toBe('could not scan');
  });

  it('is green only for a whole consistent run', () => {
    const fill = (svg: string) =>
      /<rect x="\d+" width="\d+" height="20" rx="3" fill="(#[0-9a-f]{6})"\/>/.exec(svg)?.[1];
    expect(fill(badgeSvg(verdict('consistent', 12)))).toBe('#2e7d32');
    for (const other of [verdict('partial', 5), verdict('not verified', 0), verdict('contradictions', 3)])
      expect(fill(badgeSvg(other))).not.toBe('#2e7d32');
  });

  it('is a self-contained SVG: an accessible name, no script, no external reference, widths that grow with the text', () => {
    const svg = badgeSvg(verdict('partial', 5));
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="\d+" height="20" role="img"/);
    expect(svg).toContain('aria-label="candor: consistent 5/12 exercised"');
    expect(svg).not.toMatch(/<script|href=|url\(/i);
    const width = (s: string) => Number(/width="(\d+)"/.exec(s)![1]);
    expect(width(svg)).toBeGreaterThan(width(badgeSvg(verdict('failed', 0))));
  });
});
