/** The terminal report: grouped by server, then tool; colour only when asked (a TTY). */
import pc from 'picocolors';
import type { ServerReport } from '../../targets/lint-targets.js';
import type { Finding, Severity } from '../types.js';
import { plural, summarise } from './summary.js';

export interface PrettyOptions {
  /** Use ANSI colours (the CLI passes `stream.isTTY` and honours NO_COLOR / FORCE_COLOR). */
  color?: boolean;
  /** Show the fix under each finding (default true). */
  fixes?: boolean;
}

/**
 * Render reports for a terminal.
 *
 * @example
 * ```ts
 * process.stdout.write(formatPretty(reports, { color: process.stdout.isTTY }));
 * ```
 */
export function formatPretty(reports: readonly ServerReport[], options: PrettyOptions = {}): string {
  const c = pc.createColors(options.color ?? false);
  const mark: Record<Severity, string> = {
    error: c.red('error  '),
    warning: c.yellow('warning'),
    info: c.blue('info   '),
  };
  const lines: string[] = [];
  for (const report of reports) {
    if (report.status === 'failed') {
      lines.push(`${c.bold(report.label)}  ${c.red('✖ failed to start')}`);
      for (const line of report.error.split('\n')) lines.push(`  ${c.red(line)}`);
      lines.push('');
      continue;
    }
    const { result } = report;
    const counts = [
      plural(result.toolCount, 'tool'),
      plural(result.errorCount, 'error'),
      plural(result.warningCount, 'warning'),
      plural(result.infoCount, 'info'),
    ];
    if (result.suppressed.length > 0) counts.push(`${result.suppressed.length} ignored`);
    lines.push(`${c.bold(report.label)}  ${c.dim(counts.join(', '))}`);
    if (result.findings.length === 0) lines.push(`  ${c.green('✔ no problems')}`);
    for (const [tool, findings] of groupByTool(result.findings)) {
      lines.push(`  ${tool === undefined ? c.dim('(server)') : c.cyan(tool)}`);
      for (const f of findings) {
        lines.push(`    ${mark[f.severity]}  ${withoutToolPrefix(f)}  ${c.dim(f.ruleId)}`);
        if (f.fix && options.fixes !== false) lines.push(`             ${c.dim(`fix: ${f.fix}`)}`);
      }
    }
    lines.push('');
  }
  const s = summarise(reports);
  const problems = s.errors + s.warnings + s.infos;
  const totals = `${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}, ${plural(s.infos, 'info')} in ${plural(s.servers, 'server')}${s.failedServers > 0 ? ` (${s.failedServers} failed to start)` : ''}`;
  const good = s.errors === 0 && s.failedServers === 0;
  lines.push(good ? c.green(`${problems === 0 ? '✔' : '•'} ${totals}`) : c.red(c.bold(`✖ ${totals}`)));
  return `${lines.join('\n')}\n`;
}

function groupByTool(findings: readonly Finding[]): Map<string | undefined, Finding[]> {
  const groups = new Map<string | undefined, Finding[]>();
  for (const f of findings) {
    const list = groups.get(f.tool) ?? [];
    list.push(f);
    groups.set(f.tool, list);
  }
  return groups;
}

/** Messages name their tool so they stand alone in JSON/SARIF; under a tool heading that is noise. */
function withoutToolPrefix(f: Finding): string {
  if (f.tool === undefined) return f.message;
  for (const prefix of [`${f.tool}: `, `${f.tool}'s `, `${f.tool} `]) {
    if (f.message.startsWith(prefix)) {
      const rest = f.message.slice(prefix.length);
      return prefix.endsWith("'s ") ? `Its ${rest}` : rest.charAt(0).toUpperCase() + rest.slice(1);
    }
  }
  return f.message;
}
