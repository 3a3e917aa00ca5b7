/**
 * Rules about the four behaviour hints as they stand: missing, of the wrong type,
 * contradicting each other, or meaningless.
 */
import { hintsFromEffects } from '../../tool/effects.js';
import { explainEffects } from '../../tool/infer.js';
import { STATEMENT_VERBS } from '../../tool/infer-lexicon.js';
import type { ToolAnnotations } from '../../tool/types.js';
import { declaredHint, toolLabel } from '../manifest.js';
import type { LintRule, LintTool } from '../types.js';

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
type Hint = (typeof HINTS)[number];

/** `"readOnlyHint": true, "openWorldHint": false` — the JSON a fix should add. */
export function annotationJson(patch: Partial<ToolAnnotations>): string {
  return Object.entries(patch)
    .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(', ');
}

/**
 * The hints the name suggests, for fixes: explicit values a reviewer can check. A read
 * the name cannot vouch for (`query`: any statement) is suggested as
 * the worst case, never `readOnlyHint: true` (mcp-sqlite's `query` runs any SQL).
 */
function suggestedHints(tool: LintTool) {
  const inferred = explainEffects(tool.name, tool.description);
  const doubtfulRead = inferred.effect === 'read' && STATEMENT_VERBS.has(inferred.basis?.word ?? '');
  return {
    inferred,
    doubtfulRead,
    hints: hintsFromEffects(doubtfulRead ? 'destructive' : inferred.effect, inferred.world, inferred.idempotent),
  };
}

/** The hints that matter for this tool: destructive/idempotent only when it is not read-only (spec). */
function applicableHints(tool: LintTool): Hint[] {
  return declaredHint(tool, 'readOnlyHint') === true
    ? ['readOnlyHint', 'openWorldHint']
    : ['readOnlyHint', 'destructiveHint', 'openWorldHint'];
}

export const hintsMissing: LintRule = {
  id: 'hints-missing',
  severity: 'warning',
  summary: 'Every tool states readOnlyHint, openWorldHint and (unless read-only) destructiveHint.',
  explanation:
    'The spec gives absent hints their worst-case values, but only in prose: the JSON Schema has no defaults, and hosts differ. An absent readOnlyHint means the tool may modify its environment (spec default false), so there is no read-only fast path; an absent destructiveHint means every host must treat it as destructive (spec default true), while hosts that read absent as false treat it as harmless; an absent idempotentHint means repeating it may have additional effects (spec default false); an absent openWorldHint means it may reach an open world (spec default true). A candor server sends all four hints and fills the ones a tool did not declare from those defaults, marking them in _meta; lint counts those as missing. VS Code and Codex skip confirmation only on an explicit readOnlyHint, Claude Code runs only read-only tools in parallel and in plan mode, ChatGPT app review rejects tools without explicit hints, and some libraries read an absent hint as false. Absent is not false: say what the tool does.',
  *check({ tools }) {
    for (const tool of tools) {
      const missing = applicableHints(tool).filter((h) => declaredHint(tool, h) === undefined);
      if (missing.length === 0) continue;
      const { inferred, hints, doubtfulRead } = suggestedHints(tool);
      const patch: Partial<ToolAnnotations> = {};
      for (const h of missing) patch[h] = hints[h];
      if (hints.readOnlyHint && missing.includes('readOnlyHint')) delete patch.destructiveHint;
      const candorDefault = missing.filter((h) => tool.defaulted.has(h));
      const what = !tool.hasAnnotations
        ? 'has no annotations, so hosts must assume the worst'
        : candorDefault.length === missing.length
          ? `leaves ${missing.join(', ')} to the spec defaults candor filled in`
          : `does not set ${missing.join(', ')}`;
      yield {
        tool: toolLabel(tool),
        message: `${toolLabel(tool)} ${what}.`,
        fix:
          `Add "annotations": { ${annotationJson(patch)} }` +
          (inferred.confidence === 'low'
            ? ' (worst case: the name does not say what the tool does; use milder values only if they are true).'
            : doubtfulRead
              ? ` (worst case: "${inferred.basis?.word ?? tool.name}" may only read, but can run whatever its arguments say; set "readOnlyHint": true only if the server enforces read-only execution).`
              : ` (what the name suggests: ${inferred.effect}, ${inferred.world} world; check before copying).`),
        patch,
      };
    }
  },
};

export const hintsExplicit: LintRule = {
  id: 'hints-explicit',
  severity: 'off',
  summary: 'readOnlyHint, destructiveHint and openWorldHint are set explicitly on every tool, even read-only ones.',
  explanation:
    "ChatGPT's app review rejects tools that do not set readOnlyHint, destructiveHint and openWorldHint explicitly, read-only tools included (OpenAI Apps SDK guidelines). On in the openai profile.",
  *check({ tools }) {
    for (const tool of tools) {
      const absent = (['readOnlyHint', 'destructiveHint', 'openWorldHint'] as const).filter(
        (h) => typeof tool.annotations[h] !== 'boolean',
      );
      if (absent.length === 0) continue;
      const { hints } = suggestedHints(tool);
      const patch: Partial<ToolAnnotations> = {};
      for (const h of absent) patch[h] = hints[h];
      yield {
        tool: toolLabel(tool),
        message: `${toolLabel(tool)} does not set ${absent.join(', ')} explicitly.`,
        fix: `Add "annotations": { ${annotationJson(patch)} } (check the values).`,
        patch,
      };
    }
  },
};

export const hintsType: LintRule = {
  id: 'hints-type',
  severity: 'error',
  summary: 'Hints are booleans and annotations.title is a string.',
  explanation:
    'The schema types every hint as boolean. A string "true" or a number is either rejected by a strict client (the tool disappears) or silently read as absent, which makes the tool look worse or, with hosts that coerce, better than it is.',
  *check({ tools }) {
    for (const tool of tools) {
      if (tool.raw.annotations !== undefined && !tool.hasAnnotations) {
        yield { tool: toolLabel(tool), message: `${toolLabel(tool)}: annotations must be an object.` };
        continue;
      }
      for (const h of HINTS) {
        const v = tool.annotations[h];
        if (v !== undefined && typeof v !== 'boolean') {
          yield {
            tool: toolLabel(tool),
            message: `${toolLabel(tool)}: annotations.${h} is ${JSON.stringify(v)}, not a boolean.`,
            fix: `Use a JSON boolean: "${h}": ${v === 'true' || v === 1 ? 'true' : v === 'false' || v === 0 ? 'false' : 'true | false'}.`,
          };
        }
      }
      const title = tool.annotations.title;
      if (title !== undefined && typeof title !== 'string') {
        yield { tool: toolLabel(tool), message: `${toolLabel(tool)}: annotations.title must be a string.` };
      }
    }
  },
};

export const hintsContradiction: LintRule = {
  id: 'hints-contradiction',
  severity: 'error',
  summary: 'A tool is not both read-only and destructive.',
  explanation:
    'readOnlyHint true says the tool does not modify its environment; destructiveHint true says it may destroy things. Hosts resolve the conflict differently (some skip confirmation on readOnlyHint, Codex always confirms destructiveHint), so the user gets whichever behaviour the host picked.',
  *check({ tools }) {
    for (const tool of tools) {
      if (tool.annotations.readOnlyHint === true && tool.annotations.destructiveHint === true) {
        const { inferred } = suggestedHints(tool);
        const patch: Partial<ToolAnnotations> =
          inferred.effect === 'read' ? { readOnlyHint: true } : { readOnlyHint: false, destructiveHint: true };
        yield {
          tool: toolLabel(tool),
          message: `${toolLabel(tool)} sets readOnlyHint and destructiveHint both true.`,
          fix:
            inferred.effect === 'read'
              ? 'The name suggests it only reads: remove destructiveHint.'
              : 'The name suggests it writes: set "readOnlyHint": false and keep "destructiveHint": true.',
          patch,
        };
      }
    }
  },
};

export const hintsReadOnlyExtras: LintRule = {
  id: 'hints-read-only-extras',
  severity: 'warning',
  summary: 'A read-only tool does not set idempotentHint: false.',
  explanation:
    'The spec says destructiveHint and idempotentHint are meaningful only when readOnlyHint is false, yet some hosts still read them. On a read-only tool the consistent values (destructiveHint false, idempotentHint true) are harmless, and ChatGPT review wants destructiveHint explicit everywhere, so they are not reported; idempotentHint false says repeating the call has an effect, which contradicts read-only. (destructiveHint true with readOnlyHint true is hints-contradiction.)',
  *check({ tools }) {
    for (const tool of tools) {
      if (tool.annotations.readOnlyHint !== true || tool.annotations.idempotentHint !== false) continue;
      yield {
        tool: toolLabel(tool),
        message: `${toolLabel(tool)} is read-only but sets idempotentHint: false.`,
        fix: 'Remove idempotentHint (or set "idempotentHint": true); if the tool does change something, set "readOnlyHint": false.',
        patch: { idempotentHint: true },
      };
    }
  },
};

export const hintsInferred: LintRule = {
  id: 'hints-inferred',
  severity: 'info',
  summary: "A candor tool's hints were inferred from its name rather than declared.",
  explanation:
    'candor can fill in an undeclared tool from the words of its name (`infer: true`); that is a guess, marked as such in `_meta`. Declaring `effect` and `world` makes it a statement.',
  *check({ tools }) {
    for (const tool of tools) {
      if (tool.declaration !== 'inferred') continue;
      const { inferred } = suggestedHints(tool);
      yield {
        tool: toolLabel(tool),
        message: `${toolLabel(tool)}'s hints were inferred from its name (${inferred.confidence} confidence), not declared.`,
        fix: `Declare it: effect: '${inferred.effect}', world: '${inferred.world}' (check both).`,
      };
    }
  },
};

export const hintRules: readonly LintRule[] = [
  hintsMissing,
  hintsExplicit,
  hintsType,
  hintsContradiction,
  hintsReadOnlyExtras,
  hintsInferred,
];
