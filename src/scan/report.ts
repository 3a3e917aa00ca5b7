/**
 * A scan report as text: pretty (terminal), Markdown, JSON, SARIF (lint's
 * reporter, with lint's and observe's rules) and a one-page HTML card.
 */
import { formatSarif } from '../lint/reporters/sarif.js';
import { lintResultOf } from '../lint/result.js';
import { RULES } from '../lint/rules/index.js';
import { coverageLine, sarifWithVerdict } from '../observe/server-verdict.js';
import { OBSERVE_RULES } from '../observe/verdicts.js';
import type { ServerReport } from '../targets/lint-targets.js';
import { wrapText } from '../util/wrap.js';
import type { ScanReport } from './types.js';

/** The formats a scan report is written in. */
export const SCAN_FORMATS = ['pretty', 'json', 'sarif', 'markdown', 'html'] as const;
/** One of {@link SCAN_FORMATS}. */
export type ScanFormat = (typeof SCAN_FORMATS)[number];

function hints(declared: Record<string, boolean>): string {
  const set = Object.entries(declared).map(([k, v]) => `${k.replace('Hint', '')}=${v}`);
  return set.length > 0 ? set.join(' ') : 'none declared';
}

/** Every finding with the check that made it, lint first; door findings are lint's own, not repeated. */
function allFindings(
  report: ScanReport,
): Array<{ check: string; ruleId: string; severity: string; tool?: string; message: string; evidence: string[] }> {
  return [
    ...report.lint.map((f) => ({ check: 'lint', ...f, evidence: [] as string[] })),
    ...report.observe.findings.filter((f) => f.severity !== 'info').map((f) => ({ check: 'observe', ...f })),
  ];
}

/** A finding's words with its tool named once: lint's messages start with the tool's name already. */
function withTool(f: { tool?: string; message: string }): string {
  const named = (prefix: string) => f.message.startsWith(prefix);
  if (f.tool !== undefined && [`${f.tool}: `, `${f.tool} `, `${f.tool}'s `].some(named)) return f.message;
  return `${f.tool ?? '(server)'}: ${f.message}`;
}

function headline(report: ScanReport): string {
  const pkg = report.package ? `${report.package.name}@${report.package.version}` : report.target;
  const counts = (v: string) => report.tools.filter((t) => t.verdict === v).length;
  return `${pkg}: ${report.label} — ${coverageLine(report)}: ${counts('consistent')} consistent, ${counts('contradicts')} contradict, ${counts('not exercised')} not exercised (${report.seconds} s${report.protocolVersion ? `, protocol ${report.protocolVersion}` : ''})`;
}

/** Where the server came from and what it lacked: the server.json entry, the remote URL, missing inputs. */
function origin(report: ScanReport): string[] {
  const lines: string[] = [];
  const sj = report.serverJson;
  if (sj) lines.push(`from ${sj.file} (${sj.name} ${sj.version}), ${sj.entry}`);
  if (report.remote) lines.push(`remote ${report.remote.url} (${report.remote.transport})`);
  if (report.needs?.length) lines.push(`not given: ${report.needs.join(', ')} (required by server.json)`);
  return lines;
}

function pretty(report: ScanReport): string {
  const lines = [headline(report), ...origin(report)];
  if (report.package?.integrity) lines.push(`integrity ${report.package.integrity}`);
  lines.push('');
  for (const tool of report.tools) {
    lines.push(
      `${tool.verdict.padEnd(13)} ${tool.name}  [${hints(tool.declared)}]${tool.effects.length ? `  effects: ${tool.effects.join(', ')}` : ''}`,
    );
    // The reason whole, wrapped under the tool: its real cause is often at the end.
    if (tool.reason) lines.push(wrapText(tool.reason, { first: '              ', indent: '              ' }));
  }
  for (const f of allFindings(report)) {
    lines.push('', `${f.severity}  ${f.check}/${f.ruleId}  ${withTool(f)}`);
    for (const e of f.evidence.slice(0, 5)) lines.push(`    ${e}`);
  }
  if (report.observe.failure)
    lines.push(
      '',
      `observing stopped (${report.observe.failure.kind}) at ${report.observe.failure.tool}`,
      ...report.observe.failure.stderr.map((l) => `  ${l}`),
    );
  for (const w of report.observe.warnings) lines.push(`warning: ${w}`);
  return `${lines.join('\n')}\n`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function markdown(report: ScanReport): string {
  const lines = [`## ${cell(headline(report))}`, ''];
  for (const line of origin(report)) lines.push(`${cell(line)}  `, '');
  if (report.package?.integrity) lines.push(`Integrity: \`${report.package.integrity}\``, '');
  lines.push('| Tool | Declared hints | Effects seen | Verdict |', '| --- | --- | --- | --- |');
  for (const t of report.tools)
    lines.push(
      `| ${cell(t.name)} | ${hints(t.declared)} | ${cell(t.effects.join(', ') || '—')} | ${t.verdict}${t.reason ? `: ${cell(t.reason)}` : ''} |`,
    );
  const findings = allFindings(report);
  if (findings.length > 0) {
    lines.push('', '| Severity | Rule | Tool | Message |', '| --- | --- | --- | --- |');
    for (const f of findings)
      lines.push(`| ${f.severity} | ${f.check}/${f.ruleId} | ${cell(f.tool ?? '(server)')} | ${cell(f.message)} |`);
  }
  return `${lines.join('\n')}\n`;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function html(report: ScanReport): string {
  const rows = report.tools.map((t) => {
    const evidence = report.observe.findings
      .filter((f) => f.tool === t.name && f.severity !== 'info')
      .flatMap((f) => [`${f.ruleId}: ${f.message}`, ...f.evidence.slice(0, 5)]);
    return `<tr class="${t.verdict.replace(' ', '-')}"><td>${escapeHtml(t.name)}</td><td>${escapeHtml(hints(t.declared))}</td><td>${escapeHtml(t.effects.join(', ') || '—')}</td><td>${escapeHtml(t.verdict)}${t.reason ? `<br><small>${escapeHtml(t.reason)}</small>` : ''}</td><td>${evidence.map((e) => `<div>${escapeHtml(e)}</div>`).join('')}</td></tr>`;
  });
  const lintRows = report.lint.map((f) => `<li>${escapeHtml(`${f.severity} ${f.ruleId} ${withTool(f)}`)}</li>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(headline(report))}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:4px 6px;vertical-align:top;text-align:left}.contradicts td:nth-child(4){color:#b00020;font-weight:bold}.consistent td:nth-child(4){color:#1b5e20}.not-exercised td:nth-child(4){color:#666}</style></head>
<body><h1 id="verdict" data-verdict="${report.verdict}">${escapeHtml(headline(report))}</h1>
${origin(report)
  .map((line) => `<p>${escapeHtml(line)}</p>`)
  .join('')}
${report.package?.integrity ? `<p>Integrity <code>${escapeHtml(report.package.integrity)}</code></p>` : ''}
<table><thead><tr><th>Tool</th><th>Declared hints</th><th>Observed effects</th><th>Verdict</th><th>Evidence</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>
<h2>Lint</h2><ul>${lintRows.join('') || '<li>no findings</li>'}</ul>
<p><small>candor ${escapeHtml(report.candorVersion)}, ${escapeHtml(report.date)}</small></p></body></html>
`;
}

function sarif(report: ScanReport): string {
  const findings = allFindings(report).map(({ check: _, evidence, ...f }) => ({
    ...f,
    severity: f.severity as 'error' | 'warning' | 'info',
    message: evidence.length > 0 ? `${f.message} Evidence: ${evidence.join('; ')}` : f.message,
  }));
  const server: ServerReport = {
    label: report.target,
    target: { kind: 'stdio', label: report.target, command: report.target, args: [] },
    status: 'ok',
    durationMs: report.seconds * 1000,
    result: lintResultOf(findings, [], report.tools.length),
  } as ServerReport;
  return sarifWithVerdict(
    formatSarif([server], { version: report.candorVersion, rules: [...RULES, ...OBSERVE_RULES] }),
    report,
  );
}

/**
 * A scan report in one format.
 *
 * @example
 * ```ts
 * process.stdout.write(formatScan(report, 'markdown'));
 * ```
 */
export function formatScan(report: ScanReport, format: ScanFormat): string {
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  if (format === 'markdown') return markdown(report);
  if (format === 'html') return html(report);
  if (format === 'sarif') return sarif(report);
  return pretty(report);
}
