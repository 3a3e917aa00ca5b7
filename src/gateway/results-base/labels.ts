/**
 * How a guarded result is labelled under candor's own `_meta` key, for every client.
 * Clients that declared the tool-annotations interest group's trust-annotations
 * extension get its labels too (trust-annotations.ts); this key stays for the others
 * and says which rules fired and what was blocked.
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
