/**
 * Suggested hints that agree with what the same scan saw. Lint suggests hints
 * from a tool's name (`get_report`: read-only, closed world); observe may have
 * seen that tool reach the network or write a file. A report that shows the
 * network and suggests `openWorldHint: false` contradicts itself, so where observe
 * saw an effect, the suggestion follows the effect: the network makes the world
 * open, a write makes the tool not read-only, a deletion makes it destructive.
 * Effects of every call count, a failed one's too: a download that failed still
 * shows the tool reaches out.
 */
import { annotationJson } from '../lint/rules/hints.js';
import type { Finding } from '../lint/types.js';
import type { ToolAnnotations } from '../tool/types.js';

/** What a tool was seen doing, in observe's effect classes (`wrote`, `deleted`, `network`, …). */
export type SeenEffects = ReadonlyMap<string, readonly string[]>;

/** The hints an effect class rules out, and the value it calls for instead. */
const CALLED_FOR: ReadonlyArray<readonly [string, keyof ToolAnnotations, boolean, string]> = [
  ['network', 'openWorldHint', true, 'reach the network'],
  ['API read', 'openWorldHint', true, 'send requests to a remote API'],
  ['API write', 'openWorldHint', true, 'send requests to a remote API'],
  ['API request (read or write?)', 'openWorldHint', true, 'send requests to a remote API'],
  ['API write', 'readOnlyHint', false, 'send requests that write'],
  ['database write', 'readOnlyHint', false, 'write to a database'],
  ['wrote', 'readOnlyHint', false, 'write files'],
  ['deleted', 'readOnlyHint', false, 'delete or overwrite data'],
  ['deleted', 'destructiveHint', true, 'delete or overwrite data'],
];

/**
 * The patch a finding suggests, changed where it contradicts what was seen; `undefined`
 * when nothing had to change.
 */
function agreeing(
  patch: Partial<ToolAnnotations>,
  effects: readonly string[],
): { patch: Partial<ToolAnnotations>; saw: string[] } | undefined {
  const out: Partial<ToolAnnotations> = { ...patch };
  const saw = new Set<string>();
  for (const [effect, hint, value, words] of CALLED_FOR) {
    if (!effects.includes(effect)) continue;
    // A hint the patch sets against the effect is turned; destructiveHint is added once read-only is gone.
    if ((hint in out && out[hint] !== value) || (hint === 'destructiveHint' && patch.readOnlyHint === true)) {
      (out as Record<string, boolean>)[hint] = value;
      saw.add(words);
    }
  }
  return saw.size === 0 ? undefined : { patch: out, saw: [...saw] };
}

/**
 * Lint's (and the door's) findings with each suggested patch and fix made to agree with
 * the effects observe saw of the same tool.
 *
 * @example
 * ```ts
 * agreeWithObserved(lintFindings, new Map([['fetch_page', ['network']]]));
 * // hints-missing's patch for fetch_page now says "openWorldHint": true
 * ```
 */
export function agreeWithObserved<F extends Finding>(findings: readonly F[], seen: SeenEffects): F[] {
  return findings.map((finding) => {
    const effects = finding.tool === undefined ? undefined : seen.get(finding.tool);
    if (!finding.patch || !effects || effects.length === 0) return finding;
    const changed = agreeing(finding.patch, effects);
    if (!changed) return finding;
    const before = annotationJson(finding.patch);
    const after = annotationJson(changed.patch);
    const because = `this scan saw ${finding.tool} ${changed.saw.join(' and ')}, so the suggested hints follow what it did`;
    const fix =
      finding.fix?.includes(before) === true
        ? `${finding.fix.replace(before, after)} (${because}.)`
        : `${finding.fix ? `${finding.fix} ` : ''}Set ${after}: ${because}.`;
    return { ...finding, patch: changed.patch, fix };
  });
}
