/**
 * A badge a server author can put in a README: a small SVG that says candor's verdict
 * and how much of the server it covers, in the two-part style READMEs already carry
 * ("candor | consistent 12/12"). Its words come from the verdict alone, so a badge
 * never claims more than the report: a partial run shows its count, a run where no tool
 * ran says "not verified". Text is escaped, and the SVG has no script or external
 * reference, so it is safe to serve from anywhere.
 */
import type { ServerVerdict, VerdictKind } from '../observe/server-verdict.js';

/** The right-hand colour of each verdict: green only when every tool ran and agreed. */
const COLOUR: Readonly<Record<VerdictKind | 'could not scan', string>> = {
  consistent: '#2e7d32',
  partial: '#8a6d00',
  contradictions: '#c62828',
  failed: '#6d4c41',
  'not verified': '#616161',
  'could not scan': '#616161',
};

/**
 * Approximate advance widths (px) of 11px Verdana, the badge font, by character class:
 * enough to size the box; a renderer with another font still fits the text because
 * `textLength` stretches or squeezes it to the box.
 */
function textWidth(text: string): number {
  let width = 0;
  for (const c of text) {
    if (/[iljtf.,:;'|!() ]/.test(c)) width += 4;
    else if (/[mwMW]/.test(c)) width += 10;
    else if (/[A-Z0-9]/.test(c)) width += 7.5;
    else width += 6.5;
  }
  return Math.ceil(width);
}

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/** The badge's right-hand words for a verdict: short, with the coverage where it is not whole. */
export function badgeText(verdict: Pick<ServerVerdict, 'verdict' | 'exercised' | 'total'> | 'could not scan'): string {
  if (verdict === 'could not scan') return 'could not scan';
  const coverage = `${verdict.exercised}/${verdict.total}`;
  switch (verdict.verdict) {
    case 'consistent':
      return `consistent ${coverage}`;
    case 'partial':
      return `consistent ${coverage} exercised`;
    case 'contradictions':
      return 'contradictions';
    case 'failed':
      return 'failed';
    case 'not verified':
      return `not verified 0/${verdict.total}`;
  }
}

/**
 * The badge of a scan's verdict, as SVG text.
 *
 * @example
 * ```ts
 * await writeFile('candor.svg', badgeSvg(report)); // "candor | consistent 12/12", green
 * ```
 */
export function badgeSvg(verdict: Pick<ServerVerdict, 'verdict' | 'exercised' | 'total'> | 'could not scan'): string {
  const left = 'candor';
  const right = badgeText(verdict);
  const colour = COLOUR[verdict === 'could not scan' ? verdict : verdict.verdict];
  const pad = 6;
  const leftWidth = textWidth(left) + 2 * pad;
  const rightWidth = textWidth(right) + 2 * pad;
  const width = leftWidth + rightWidth;
  const label = escapeXml(`candor: ${right}`);
  const text = (x: number, words: string, w: number) =>
    `<text x="${x}" y="14" textLength="${w - 2 * pad}" lengthAdjust="spacingAndGlyphs">${escapeXml(words)}</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${label}">`,
    `<title>${label}</title>`,
    `<rect width="${leftWidth}" height="20" rx="3" fill="#424242"/>`,
    `<rect x="${leftWidth}" width="${rightWidth}" height="20" rx="3" fill="${colour}"/>`,
    `<rect x="${leftWidth}" width="4" height="20" fill="${colour}"/>`,
    '<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">',
    text(pad, left, leftWidth),
    text(leftWidth + pad, right, rightWidth),
    '</g>',
    '</svg>',
    '',
  ].join('\n');
}
