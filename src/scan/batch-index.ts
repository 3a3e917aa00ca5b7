/**
 * The index of a batch: one line per server (version, tools, how many agree,
 * contradict or were not exercised, lint errors and warnings, verdict), as JSON,
 * Markdown and an HTML page linking each server's own reports.
 */
import type { ScanReport } from './types.js';

/** One server's line in the index. */
export interface BatchEntry {
  target: string;
  /** The file name stem of its reports in the output folder. */
  slug: string;
  verdict: ScanReport['verdict'] | 'could not scan';
  /** The verdict in words, with its coverage. */
  label?: string;
  version?: string;
  tools?: number;
  /** Tools exercised (of `tools`). */
  exercised?: number;
  consistent?: number;
  contradicts?: number;
  notExercised?: number;
  lintErrors?: number;
  lintWarnings?: number;
  seconds?: number;
  /** Why it could not be scanned. */
  error?: string;
}

/**
 * A server's index line from its report (or the error that stopped its scan).
 *
 * @example
 * ```ts
 * entryFor('memory', 'memory-1a2b', report).verdict; // 'consistent'
 * ```
 */
export function entryFor(target: string, slug: string, result: ScanReport | { error: string }): BatchEntry {
  if ('error' in result) return { target, slug, verdict: 'could not scan', error: result.error };
  const count = (verdict: string) => result.tools.filter((t) => t.verdict === verdict).length;
  return {
    target,
    slug,
    verdict: result.verdict,
    label: result.label,
    ...(result.package ? { version: result.package.version } : {}),
    tools: result.tools.length,
    exercised: result.exercised,
    consistent: count('consistent'),
    contradicts: count('contradicts'),
    notExercised: count('not exercised'),
    lintErrors: result.lint.filter((f) => f.severity === 'error').length,
    lintWarnings: result.lint.filter((f) => f.severity === 'warning').length,
    seconds: result.seconds,
  };
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const num = (n: number | undefined) => (n === undefined ? '—' : String(n));

/** The columns, in order, with how each entry fills them. */
const COLUMNS: Array<[string, (e: BatchEntry) => string]> = [
  ['Server', (e) => e.target],
  ['Version', (e) => e.version ?? '—'],
  ['Tools', (e) => num(e.tools)],
  ['Exercised', (e) => num(e.exercised)],
  ['Consistent', (e) => num(e.consistent)],
  ['Contradict', (e) => num(e.contradicts)],
  ['Not exercised', (e) => num(e.notExercised)],
  ['Lint errors', (e) => num(e.lintErrors)],
  ['Lint warnings', (e) => num(e.lintWarnings)],
  ['Verdict', (e) => (e.error ? `could not scan: ${e.error.split('\n')[0]}` : (e.label ?? e.verdict))],
];

/**
 * The index in one format.
 *
 * @example
 * ```ts
 * await writeFile('out/index.md', formatIndex(entries, 'markdown'));
 * ```
 */
export function formatIndex(entries: readonly BatchEntry[], format: 'json' | 'markdown' | 'html'): string {
  if (format === 'json') return `${JSON.stringify(entries, null, 2)}\n`;
  if (format === 'markdown') {
    const lines = [
      `| ${COLUMNS.map(([name]) => name).join(' | ')} |`,
      `| ${COLUMNS.map(() => '---').join(' | ')} |`,
      ...entries.map(
        (e) =>
          `| ${COLUMNS.map(([, value], i) => (i === 0 && !e.error ? `[${cell(value(e))}](${e.slug}.md)` : cell(value(e)))).join(' | ')} |`,
      ),
    ];
    return `# candor scan\n\n${lines.join('\n')}\n`;
  }
  const rows = entries.map(
    (e) =>
      `<tr data-verdict="${escapeHtml(e.verdict)}">${COLUMNS.map(([, value], i) =>
        i === 0 && !e.error
          ? `<td><a href="${encodeURIComponent(e.slug)}.html">${escapeHtml(value(e))}</a></td>`
          : `<td>${escapeHtml(value(e))}</td>`,
      ).join('')}</tr>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>candor scan</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>body{font:14px system-ui,sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 6px;text-align:left}tr[data-verdict=contradictions] td:last-child{color:#b00020;font-weight:bold}</style></head>
<body><h1>candor scan</h1>
<table><thead><tr>${COLUMNS.map(([name]) => `<th>${name}</th>`).join('')}</tr></thead><tbody>
${rows.join('\n')}
</tbody></table></body></html>
`;
}
