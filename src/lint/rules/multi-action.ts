/**
 * Multi-action tools: one tool whose `action` (or `operation`, `mode`, `command`, …)
 * argument picks between reading and writing. Hints describe the tool, not the call, so
 * such a tool can only honestly advertise its worst action (the spec's ToolAnnotations
 * describe the tool, 2025-11-25 server/tools).
 */
import { type EffectExplanation, explainEffects } from '../../tool/infer.js';
import type { Effect } from '../../tool/types.js';
import { isRecord } from '../../util/is-record.js';
import { declaredHint, toolLabel } from '../manifest.js';
import type { LintRule, LintTool } from '../types.js';

/** Argument names that select what a multi-action tool does. */
const SELECTORS = ['action', 'actions', 'operation', 'op', 'mode', 'command', 'cmd', 'method', 'verb', 'task'];

const ORDER: Record<Effect, number> = { read: 0, additive: 1, destructive: 2 };

/** The literal values a property schema allows (`enum`, `const`, `oneOf`/`anyOf` of consts, array items). */
function literals(schema: unknown): string[] {
  if (!isRecord(schema)) return [];
  const out: string[] = [];
  if (Array.isArray(schema.enum)) out.push(...schema.enum.filter((v): v is string => typeof v === 'string'));
  if (typeof schema.const === 'string') out.push(schema.const);
  for (const key of ['oneOf', 'anyOf'] as const) {
    const variants = schema[key];
    if (Array.isArray(variants)) for (const v of variants) out.push(...literals(v));
  }
  if (schema.items !== undefined) out.push(...literals(schema.items));
  return out;
}

/**
 * A property described as a field of something else ("The request's HTTP method.") is
 * data the tool stores or sends on, not what the tool does: a tool that saves a request
 * whose method is DELETE deletes nothing.
 */
const FIELD_OF_ANOTHER = /^\s*(?:the|an?)\s+(?:[\w-]+\s+){0,3}?[\w-]+['\u2019]s\s/i;

/** Every selector value in an input schema: its own properties and those of `oneOf`/`anyOf` variants. */
export function actionValues(inputSchema: Record<string, unknown> | undefined): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const visit = (schema: unknown, depth: number): void => {
    if (!isRecord(schema) || depth > 3) return;
    const props = isRecord(schema.properties) ? schema.properties : {};
    for (const key of Object.keys(props)) {
      if (!SELECTORS.includes(key.toLowerCase())) continue;
      const description = isRecord(props[key]) ? props[key].description : undefined;
      if (typeof description === 'string' && FIELD_OF_ANOTHER.test(description)) continue;
      const values = literals(props[key]);
      if (values.length > 0) found.set(key, [...new Set([...(found.get(key) ?? []), ...values])]);
    }
    for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
      const variants = schema[key];
      if (Array.isArray(variants)) for (const v of variants) visit(v, depth + 1);
    }
  };
  visit(inputSchema, 0);
  return found;
}

interface Classified {
  value: string;
  inference: EffectExplanation;
}

function classify(tool: LintTool): { key: string; actions: Classified[] } | undefined {
  for (const [key, values] of actionValues(tool.inputSchema)) {
    // Only values that read as verbs we know count: `"json"` or `"fast"` say nothing.
    const actions = values
      .map((value) => ({ value, inference: explainEffects(value) }))
      .filter((a) => a.inference.confidence !== 'low');
    if (actions.length >= 2) return { key, actions };
  }
  return undefined;
}

export const multiActionHints: LintRule = {
  id: 'multi-action-hints',
  severity: 'error',
  summary: 'A tool whose action argument mixes reads and writes advertises its worst action.',
  explanation:
    'Hints describe the tool, not one call: a host that sees readOnlyHint true (or destructiveHint false) on a tool with `action: "list" | "delete"` skips confirmation for the delete too. Either split the tool into one tool per effect (best: each gets honest hints) or advertise the worst case. When every write action is led by a read verb whose object only names a change ("getUploadUrl", "describeCreateResult"), the finding is a warning: such an action most likely reads.',
  *check({ tools }) {
    for (const tool of tools) {
      const found = classify(tool);
      if (!found) continue;
      const { key, actions } = found;
      const worst = actions.reduce((a, b) => (ORDER[b.inference.effect] > ORDER[a.inference.effect] ? b : a));
      const writes = actions.filter((a) => a.inference.effect !== 'read').map((a) => a.value);
      const erasing = actions.filter((a) => a.inference.basis?.family === 'erase').map((a) => a.value);
      const destructive = actions.filter((a) => a.inference.effect === 'destructive').map((a) => a.value);
      const label = toolLabel(tool);
      if (writes.length > 0 && declaredHint(tool, 'readOnlyHint') === true) {
        // An action led by a read verb whose object only names a change ("getUploadUrl", "describeCreateResult")
        // is most likely a read: when every write action is such a mix, the finding is one level lower.
        const mixedOnly = actions
          .filter((a) => a.inference.effect !== 'read')
          .every((a) => a.inference.confidence === 'medium' && explainEffects(firstWord(a.value)).effect === 'read');
        yield {
          tool: label,
          message: `${label} claims readOnlyHint: true, but its "${key}" argument also allows ${quoted(writes)}.`,
          fix: `Split it into a read-only tool and a write tool, or set "readOnlyHint": false, "destructiveHint": ${worst.inference.effect === 'destructive'}.`,
          patch: { readOnlyHint: false, destructiveHint: worst.inference.effect === 'destructive' },
          ...(mixedOnly ? { certainty: 'likely' as const } : {}),
        };
        continue;
      }
      if (destructive.length > 0 && declaredHint(tool, 'destructiveHint') === false) {
        yield {
          tool: label,
          message: `${label} claims destructiveHint: false, but its "${key}" argument allows ${quoted(destructive)}.`,
          fix: 'Split the destructive actions into their own tool, or set "destructiveHint": true.',
          patch: { destructiveHint: true },
          certainty: erasing.length > 0 ? 'firm' : 'likely',
        };
        continue;
      }
      const repeatable = actions.filter((a) => a.inference.effect !== 'read' && !a.inference.idempotent);
      if (repeatable.length > 0 && declaredHint(tool, 'idempotentHint') === true) {
        yield {
          tool: label,
          message: `${label} claims idempotentHint: true, but its "${key}" argument allows ${quoted(repeatable.map((a) => a.value))}, which are not safe to repeat.`,
          fix: 'Set "idempotentHint": false, or split the tool.',
          patch: { idempotentHint: false },
          certainty: 'likely',
        };
      }
    }
  },
};

/** The first word of an action's name (`getUploadUrl` → `get`, `get_upload_url` → `get`). */
function firstWord(value: string): string {
  return /^[a-z]+|^[A-Z][a-z]*|^[A-Z]+(?![a-z])/.exec(value.replace(/^[^A-Za-z]+/, ''))?.[0] ?? value;
}

function quoted(values: string[]): string {
  return values.map((v) => `"${v}"`).join(', ');
}
