/**
 * How a guarded result is labelled for the client. The tool-annotations interest
 * group's trust-annotations extension (labels such as `untrusted` and `sensitive` on
 * a result) had no published shape candor could follow, so the labels sit under
 * candor's own `_meta` key; this is the one module to change once the extension's
 * shape is settled.
 */
import type { ResultFindingKind } from './types.js';

/** The `_meta` key under which the gateway labels a guarded result. */
export const RESULT_LABELS_KEY = 'dev.candor/result-guard';

/** The labels for the kinds found and acted on: injection makes a result untrusted, a secret sensitive. */
export function resultLabels(kinds: readonly ResultFindingKind[], rules: readonly string[]): Record<string, unknown> {
  const labels: string[] = [];
  if (kinds.includes('injection')) labels.push('untrusted');
  if (kinds.includes('secret')) labels.push('sensitive');
  return { labels, evidence: [...new Set(rules)] };
}
