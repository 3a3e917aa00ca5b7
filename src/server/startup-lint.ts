/**
 * A server lints what it is about to serve ("`candor serve` and
 * `createServer` run the rules at start-up in development and print the
 * findings"): errors and warnings one per line, infos counted, through the
 * server's logger (stderr, so a stdio server's stdout stays protocol-only).
 * Skipped when NODE_ENV is "production".
 */
import type { WireTool } from '../tool/types.js';

/**
 * The lines to print, or none when lint is skipped.
 *
 * @example
 * ```ts
 * for (const line of await startupLint(tools, process.env)) process.stderr.write(`${line}\n`);
 * ```
 */
export async function startupLint(
  tools: readonly Readonly<WireTool>[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<string[]> {
  if (env.NODE_ENV === 'production') return [];
  const { lint } = await import('../lint/lint.js');
  const result = lint(tools);
  const lines = [
    `candor lint: ${result.errorCount} errors, ${result.warningCount} warnings, ${result.infoCount} info (candor lint <target> explains each; NODE_ENV=production skips this)`,
  ];
  for (const finding of result.findings) {
    if (finding.severity === 'info') continue;
    lines.push(`  ${finding.severity} ${finding.tool ?? '(server)'}: ${finding.message} [${finding.ruleId}]`);
  }
  return lines;
}
