/** `--format json`: the reports as one JSON document, for scripts. */
import type { ServerReport } from '../../targets/lint-targets.js';
import { summarise } from './summary.js';

/**
 * Render reports as JSON (stable shape, version 1).
 *
 * @example
 * ```ts
 * JSON.parse(formatJson(reports)).summary.errors; // 0
 * ```
 */
export function formatJson(reports: readonly ServerReport[]): string {
  const servers = reports.map((r) =>
    r.status === 'failed'
      ? {
          server: r.label,
          status: r.status,
          error: r.error,
          ...(r.errorCode ? { errorCode: r.errorCode } : {}),
          durationMs: r.durationMs,
        }
      : {
          server: r.label,
          status: r.status,
          toolCount: r.result.toolCount,
          errorCount: r.result.errorCount,
          warningCount: r.result.warningCount,
          infoCount: r.result.infoCount,
          findings: r.result.findings,
          suppressed: r.result.suppressed,
          durationMs: r.durationMs,
        },
  );
  return `${JSON.stringify({ version: 1, servers, summary: summarise(reports) }, null, 2)}\n`;
}
