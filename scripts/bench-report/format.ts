/** Number formats and table helpers for the benchmark report. */

export const int = (n: number | undefined | null) =>
  n === undefined || n === null || !Number.isFinite(n) ? 'n/a' : Math.round(n).toLocaleString('en');
export const fixed = (n: number | undefined | null, digits = 1) =>
  n === undefined || n === null || !Number.isFinite(n) ? 'n/a' : n.toFixed(digits);
export const ratio = (a: number | undefined, b: number | undefined) => (a && b ? a / b : undefined);
export const times = (r: number | undefined) =>
  r === undefined || !Number.isFinite(r) ? 'n/a' : `${r >= 10 ? r.toFixed(0) : r.toFixed(2)}×`;
export const pct = (r: number | undefined) =>
  r === undefined || !Number.isFinite(r) ? 'n/a' : `${(r * 100).toFixed(0)}%`;
/** ✓ or ✗ after a goal, nothing when the figure is missing. */
export const met = (ok: boolean | undefined) => (ok === undefined ? '' : ok ? ' ✓' : ' ✗');

/** A Markdown table. */
export function markdownTable(head: string[], rows: string[][]): string {
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

/** One benchmark's figures and the run they come from. */
export interface Figures {
  /** The run's file, relative to the repository. */
  file: string;
  date: string;
  cpu: string;
  load: { before: number[]; after: number[] };
  data: any;
}

/** "2026-11-28 08:24 UTC, load average 2.6 before / 3.1 after (1 min)" */
export function runNote(f: Figures): string {
  return `${f.date.slice(0, 16).replace('T', ' ')} UTC on ${f.cpu}, load average ${fixed(f.load.before[0], 2)} before and ${fixed(f.load.after[0], 2)} after (1 min), \`${f.file}\``;
}
