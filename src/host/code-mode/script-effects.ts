/**
 * The effects of a stored script, derived from the tools it calls: the union of
 * their hints. Read-only only if every call is, idempotent only if every call is,
 * destructive if any call is, open world if any call is. The calls come from the
 * script's text (script-plan.ts reads `tools.x` and `tools["x"]`); when the text
 * reaches tools by computed names, or could (any use of `tools` other than a
 * literal name), the calls cannot be known and the script is the worst it could
 * be: destructive, open world, not idempotent.
 *
 * A derivation is only as good as what the script can reach, so the run of a
 * stored script offers exactly the tools derived here (a script whose calls
 * were read has no other tool in its `tools`, however it spells the name); a
 * dynamic script is offered every tool, matching its worst-case hints.
 */
import type { ResolvedHints } from '../../tool/types.js';
import { toolReferences } from './script-plan.js';

/** One tool a stored script calls, with its hints now. */
export interface DerivedCall {
  tool: string;
  hints: ResolvedHints;
}

/** What a stored script may do, derived from its text and the tools offered. */
export interface ScriptEffects {
  hints: ResolvedHints;
  /** The tools the script names that are offered, in order of first mention. */
  calls: DerivedCall[];
  /** Names the script uses that no offered tool has (their calls fail: they are not in its `tools`). */
  missing: string[];
  /** The script reaches tools by computed names: its calls are unknown, its hints the worst case. */
  dynamic: boolean;
}

/** The hints of a script that may do anything. */
export const WORST_CASE_HINTS: Readonly<ResolvedHints> = Object.freeze({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
});

/**
 * Derive a stored script's effects from the hints of the tools it may call.
 *
 * @example
 * ```ts
 * scriptEffects('return tools.notes__read({});', (name) => host.tool(name)?.hints);
 * // { hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }, … }
 * ```
 */
export function scriptEffects(code: string, hintsOf: (name: string) => ResolvedHints | undefined): ScriptEffects {
  const references = toolReferences(code);
  const calls: DerivedCall[] = [];
  const missing: string[] = [];
  for (const name of references.names) {
    const hints = hintsOf(name);
    if (hints === undefined) missing.push(name);
    else calls.push({ tool: name, hints: { ...hints } });
  }
  if (references.dynamic) return { hints: { ...WORST_CASE_HINTS }, calls, missing, dynamic: true };
  const hints: ResolvedHints = {
    readOnlyHint: calls.every((c) => c.hints.readOnlyHint),
    destructiveHint: calls.some((c) => !c.hints.readOnlyHint && c.hints.destructiveHint),
    idempotentHint: calls.every((c) => c.hints.readOnlyHint || c.hints.idempotentHint),
    openWorldHint: calls.some((c) => c.hints.openWorldHint),
  };
  return { hints, calls, missing, dynamic: false };
}
