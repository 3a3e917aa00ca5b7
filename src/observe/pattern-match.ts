/**
 * Whether a string matches a schema `pattern`, without letting a pathological
 * pattern (nested quantifiers, back-references) stall the observer: those run in
 * a separate V8 context with a time budget.
 */
import { type Context, createContext, Script } from 'node:vm';

/**
 * Whether `text` matches a schema pattern (ECMA-262, unanchored); a pattern JS
 * cannot compile matches nothing. The pattern comes from the server under
 * observation: one whose quantifiers nest or that refers back (`(a+)+`,
 * `(x|y)*\1`) can backtrack for minutes, so such a pattern is tested under a
 * time budget (node:vm interrupts a running RegExp) and counts as no match
 * when it runs out — the tool is then reported as not exercised, never hung.
 */
export function patternMatches(pattern: string, text: string): boolean {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'u');
  } catch {
    return false;
  }
  if (!RISKY_PATTERN.test(pattern)) return re.test(text);
  guard ??= { script: new Script('re.test(text)'), context: createContext({}) };
  guard.context.re = re;
  guard.context.text = text;
  try {
    return guard.script.runInContext(guard.context, { timeout: PATTERN_BUDGET_MS }) === true;
  } catch {
    return false;
  }
}

/** A group with a quantifier inside that is itself quantified, or a back-reference. */
const RISKY_PATTERN = /\([^)]*[+*}][^)]*\)[+*{?]|\\[1-9]|\\k</;
const PATTERN_BUDGET_MS = 100;
let guard: { script: Script; context: Context } | undefined;
