/** Totals across servers, shared by the reporters and the exit code. */
import type { ServerReport } from '../../targets/lint-targets.js';

export interface LintSummary {
  servers: number;
  failedServers: number;
  tools: number;
  errors: number;
  warnings: number;
  infos: number;
  suppressed: number;
}

/**
 * Add up the findings of every server report.
 *
 * @example
 * ```ts
 * summarise(reports).errors; // 3
 * ```
 */
export function summarise(reports: readonly ServerReport[]): LintSummary {
  const summary: LintSummary = {
    servers: reports.length,
    failedServers: 0,
    tools: 0,
    errors: 0,
    warnings: 0,
    infos: 0,
    suppressed: 0,
  };
  for (const r of reports) {
    if (r.status === 'failed') {
      summary.failedServers++;
      continue;
    }
    summary.tools += r.result.toolCount;
    summary.errors += r.result.errorCount;
    summary.warnings += r.result.warningCount;
    summary.infos += r.result.infoCount;
    summary.suppressed += r.result.suppressed.length;
  }
  return summary;
}

/**
 * The exit code eslint would give: 1 when errors remain, a server failed, or warnings
 * exceed `maxWarnings` (when set, ≥ 0); 0 otherwise.
 *
 * @example
 * ```ts
 * exitCode(summarise(reports), { maxWarnings: 0 }); // 1 if any warning
 * ```
 */
export function exitCode(summary: LintSummary, options: { maxWarnings?: number } = {}): 0 | 1 {
  if (summary.errors > 0 || summary.failedServers > 0) return 1;
  if (options.maxWarnings !== undefined && options.maxWarnings >= 0 && summary.warnings > options.maxWarnings) return 1;
  return 0;
}

/** "1 error, 2 warnings" with the plurals right. */
export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
