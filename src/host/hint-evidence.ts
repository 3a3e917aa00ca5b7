/**
 * Evidence against a server's own hints: lint's rules (name, description and
 * argument checks, e.g. `kubectl_context` claiming `readOnlyHint: true` while its
 * `operation` enum allows `set`) propose annotation patches; for an untrusted
 * server the host applies only the parts that make a hint stricter, never one
 * that relaxes it (spec 2025-11-25: annotations of untrusted servers are untrusted).
 */
import { lint } from '../lint/lint.js';
import type { WireToolLike } from '../tool/annotations.js';
import type { HintName, ResolvedHints } from '../tool/types.js';

/** One hint made stricter, with the lint rule that gave the evidence. */
export interface HintCorrection {
  hint: HintName;
  from: boolean;
  to: boolean;
  rule: string;
  reason: string;
}

/** The stricter value of each hint: read-only and idempotent are claims to doubt, destructive and open-world are the safe side. */
const STRICT: Readonly<ResolvedHints> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/**
 * Lint a server's tools and collect the tightening patches, by tool name.
 *
 * @example
 * ```ts
 * const evidence = lintEvidence(listedTools);
 * evidence.get('kubectl_context'); // [{ rule: 'multi-action-hints', patch: { readOnlyHint: false, … }, reason }]
 * ```
 */
export function lintEvidence(
  tools: readonly WireToolLike[],
): Map<string, Array<{ rule: string; patch: Partial<ResolvedHints>; reason: string }>> {
  const byTool = new Map<string, Array<{ rule: string; patch: Partial<ResolvedHints>; reason: string }>>();
  let findings: ReturnType<typeof lint>['findings'];
  try {
    findings = lint(tools as unknown[]).findings;
  } catch {
    return byTool;
  }
  for (const finding of findings) {
    if (finding.tool === undefined || finding.patch === undefined) continue;
    const patch: Partial<ResolvedHints> = {};
    for (const hint of Object.keys(STRICT) as HintName[]) {
      const value = finding.patch[hint];
      if (typeof value === 'boolean') patch[hint] = value;
    }
    if (Object.keys(patch).length === 0) continue;
    const list = byTool.get(finding.tool) ?? [];
    list.push({ rule: finding.ruleId, patch, reason: finding.message });
    byTool.set(finding.tool, list);
  }
  return byTool;
}

/**
 * Apply evidence to claimed hints: only changes toward the strict side are kept.
 *
 * @example
 * ```ts
 * tighten({ readOnlyHint: true, … }, [{ rule: 'name-says-writes', patch: { readOnlyHint: false }, reason }]);
 * // { hints: { readOnlyHint: false, … }, corrections: [{ hint: 'readOnlyHint', from: true, to: false, … }] }
 * ```
 */
export function tighten(
  claimed: ResolvedHints,
  evidence: ReadonlyArray<{ rule: string; patch: Partial<ResolvedHints>; reason: string }>,
): { hints: ResolvedHints; corrections: HintCorrection[] } {
  const hints = { ...claimed };
  const corrections: HintCorrection[] = [];
  for (const item of evidence) {
    for (const hint of Object.keys(item.patch) as HintName[]) {
      const to = item.patch[hint]!;
      if (to !== STRICT[hint] || hints[hint] === to) continue;
      corrections.push({ hint, from: hints[hint], to, rule: item.rule, reason: item.reason });
      hints[hint] = to;
      if (hint !== 'readOnlyHint') continue;
      // Under a read-only claim, destructiveHint and idempotentHint mean nothing (the spec gives
      // them meaning only for writes), whoever wrote them; with the claim gone they fall back to
      // the spec's defaults unless other evidence sets them.
      for (const implied of ['destructiveHint', 'idempotentHint'] as const) {
        if (hints[implied] === STRICT[implied]) continue;
        corrections.push({
          hint: implied,
          from: hints[implied],
          to: STRICT[implied],
          rule: item.rule,
          reason: `implied only by readOnlyHint, which the evidence contradicts: ${item.reason}`,
        });
        hints[implied] = STRICT[implied];
      }
    }
  }
  return { hints, corrections };
}
