/**
 * What a script will do, read before and while it runs: the tools its text
 * names (`tools.x(…)`, `tools["x"](…)`), whether it also reaches tools by
 * computed names, and the plan a person reads when the script first wants to
 * change something. The reading is one pass over the text (no parser to
 * backtrack); it may name a tool the script never calls (a comment), which
 * only makes the plan longer, and says "dynamic" when it cannot see them all.
 */

import { describeSources } from '../taint.js';
import type { TaintSource } from '../types.js';
import { effectText } from './typed-api.js';
import type { PlannedCall, ScriptPlan } from './types.js';

/** The tools a script's text names, in order of first mention. */
export interface ToolReferences {
  names: string[];
  /** `tools` is used other than by a literal name (`tools[x]`, `Object.keys(tools)`, `const t = tools`). */
  dynamic: boolean;
}

const WORD = /[A-Za-z0-9_$]/;

/**
 * Read the tool references of a script.
 *
 * @example
 * ```ts
 * toolReferences('const a = await tools.notes__search({}); await tools["notes__delete"]({ id: a[0].id });');
 * // { names: ['notes__search', 'notes__delete'], dynamic: false }
 * ```
 */
export function toolReferences(code: string): ToolReferences {
  const names: string[] = [];
  let dynamic = false;
  let from = 0;
  for (;;) {
    const at = code.indexOf('tools', from);
    if (at < 0) break;
    from = at + 5;
    if ((at > 0 && WORD.test(code[at - 1]!)) || code[at - 1] === '.' || WORD.test(code[from] ?? '')) continue;
    const i = skipSpace(code, from);
    let name: string | undefined;
    // `tools.x`, `tools?.x`: a name follows the dot.
    const dot = code[i] === '.' ? 1 : code[i] === '?' && code[i + 1] === '.' ? 2 : 0;
    if (dot > 0) {
      const start = skipSpace(code, i + dot);
      let end = start;
      while (end < code.length && WORD.test(code[end]!)) end++;
      if (end > start) name = code.slice(start, end);
    } else if (code[i] === '[') {
      const start = skipSpace(code, i + 1);
      const quote = code[start];
      if (quote === '"' || quote === "'" || quote === '`') {
        const end = code.indexOf(quote, start + 1);
        const text = end < 0 ? '' : code.slice(start + 1, end);
        if (end > 0 && !/[\\\n$]/.test(text) && code[skipSpace(code, end + 1)] === ']') name = text;
      }
    }
    if (name === undefined) dynamic = true;
    else if (!names.includes(name)) names.push(name);
  }
  return { names, dynamic };
}

function skipSpace(code: string, from: number): number {
  let i = from;
  while (i < code.length && (code[i] === ' ' || code[i] === '\t' || code[i] === '\n' || code[i] === '\r')) i++;
  return i;
}

/** A tool's effect class from its (tightened) hints. */
export function plannedCall(
  tool: string,
  hints: { readOnlyHint: boolean; destructiveHint: boolean; openWorldHint: boolean },
): PlannedCall {
  return {
    tool,
    effect: hints.readOnlyHint ? 'read' : hints.destructiveHint ? 'destructive' : 'additive',
    openWorld: hints.openWorldHint,
  };
}

/**
 * The calls of one run, kept as they happen, and the plan they make with the
 * script's text: what a person is shown when the script first needs an answer.
 *
 * @example
 * ```ts
 * const ledger = new ScriptLedger(code, (name) => host.tool(name)?.hints);
 * ledger.made.push({ ...plannedCall('a__read', hints), outcome: 'ok' });
 * planText(ledger.plan(plannedCall('a__delete', hints), { id: 7 }), reason);
 * ```
 */
export class ScriptLedger {
  readonly made: Array<PlannedCall & { outcome: string }> = [];
  readonly #references: ToolReferences;
  readonly #hintsOf: (name: string) => Parameters<typeof plannedCall>[1] | undefined;

  constructor(code: string, hintsOf: (name: string) => Parameters<typeof plannedCall>[1] | undefined) {
    this.#references = toolReferences(code);
    this.#hintsOf = hintsOf;
  }

  /** The plan with `next` waiting: the calls made, and those the text names and the run has not made. */
  plan(next: PlannedCall, args: Record<string, unknown>): ScriptPlan {
    return {
      made: [...this.made],
      next: { ...next, args },
      ahead: this.#references.names
        .filter((name) => name !== next.tool && !this.made.some((m) => m.tool === name))
        .flatMap((name) => {
          const hints = this.#hintsOf(name);
          return hints ? [plannedCall(name, hints)] : [];
        }),
      dynamic: this.#references.dynamic,
    };
  }
}

/**
 * The question a person reads: the call that needs an answer, the calls made
 * so far, the calls the script names and has not made, and what answering does.
 *
 * @example
 * ```ts
 * planText(plan, 'the tool may be destructive; destructive calls always ask.');
 * ```
 *
 * With `untrustedSince`, the script was allowed already and untrusted content came in
 * after: the question says so and names it (script-taint.ts).
 */
export function planText(plan: ScriptPlan, reason: string, untrustedSince?: readonly TaintSource[]): string {
  const line = (c: PlannedCall) =>
    `${c.tool} [${effectText({ readOnlyHint: c.effect === 'read', destructiveHint: c.effect === 'destructive', idempotentHint: false, openWorldHint: c.openWorld })}]`;
  const again = untrustedSince !== undefined && untrustedSince.length > 0;
  const lines = [
    again
      ? `candor: the script you allowed has since read untrusted content (${describeSources(untrustedSince)}) and now wants to run ${plan.next.tool}. Your allow was given before that content arrived, so you are asked again. Allow the rest of this script?`
      : `candor: a script wants to run ${plan.next.tool}. Allow this script?`,
    `Why asked: ${reason}`,
    `Next call: ${line(plan.next)} with ${argumentSummary(plan.next.args)}`,
    `Calls made so far (${plan.made.length}):${plan.made.length === 0 ? ' none' : ''}`,
    ...plan.made.slice(-20).map((c) => `  - ${line(c)}: ${c.outcome}`),
    `Calls ahead named in the script:${plan.ahead.length === 0 ? ' none' : ''}`,
    ...plan.ahead.slice(0, 20).map((c) => `  - ${line(c)}`),
  ];
  if (plan.dynamic) lines.push('The script also reaches tools by computed names: it may call others.');
  lines.push(
    again
      ? 'Allowing runs the rest of this script, asking again only if more untrusted content arrives; denying stops it here.'
      : 'Allowing runs the rest of this script without asking again (unless untrusted content arrives after this answer); denying stops it here.',
  );
  return lines.join('\n');
}

/**
 * Arguments in one line, values cut short (a confirmation, not a dump).
 *
 * @example
 * ```ts
 * argumentSummary({ path: 'a.txt', n: 2 }); // 'path="a.txt", n=2'
 * ```
 */
export function argumentSummary(args: Record<string, unknown>): string {
  const parts = Object.entries(args).map(([key, value]) => {
    let text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
    if (text.length > 80) text = `${text.slice(0, 77)}…`;
    return `${key}=${text}`;
  });
  const joined = parts.join(', ');
  return joined.length === 0 ? '(none)' : joined.length > 400 ? `${joined.slice(0, 397)}…` : joined;
}
