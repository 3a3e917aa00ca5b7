/**
 * A lint result from its findings: the counts every reporter reads, computed in one
 * place (lint itself, observe's and scan's SARIF output).
 */
import type { Finding, LintResult, SuppressedFinding } from './types.js';

/**
 * The {@link LintResult} of `findings` over `toolCount` tools.
 *
 * @example
 * ```ts
 * lintResultOf(findings, [], tools.length).errorCount; // 2
 * ```
 */
export function lintResultOf(findings: Finding[], suppressed: SuppressedFinding[], toolCount: number): LintResult {
  return {
    findings,
    suppressed,
    toolCount,
    errorCount: findings.filter((f) => f.severity === 'error').length,
    warningCount: findings.filter((f) => f.severity === 'warning').length,
    infoCount: findings.filter((f) => f.severity === 'info').length,
  };
}
