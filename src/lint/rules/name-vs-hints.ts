/**
 * The name or description says one thing, the hints another. Evidence comes only from
 * `explainEffects` (whole words, first verb wins, never substrings), so `forget_memory`
 * is a forgetting tool and `list_deleted_items` a listing one.
 */
import { type EffectExplanation, explainEffects } from '../../tool/infer.js';
import { declaredHint, toolLabel } from '../manifest.js';
import type { LintRule, LintTool, RuleFinding } from '../types.js';

const cache = new WeakMap<LintTool, EffectExplanation>();
/** The inference for a tool, computed once per lint run. */
function explain(tool: LintTool): EffectExplanation {
  let e = cache.get(tool);
  if (!e) {
    e = explainEffects(tool.name, tool.description);
    cache.set(tool, e);
  }
  return e;
}

function evidence(e: EffectExplanation): string {
  if (!e.basis) return 'its name';
  return e.basis.from === 'name' ? `its name ("${e.basis.word}")` : `its description ("${e.basis.word}")`;
}

/** Firm when the inference is high-confidence, likely (one level milder) when medium. */
function certainty(e: EffectExplanation): RuleFinding['certainty'] {
  return e.confidence === 'high' ? 'firm' : 'likely';
}

export const nameSaysWrites: LintRule = {
  id: 'name-says-writes',
  severity: 'error',
  summary: 'A tool whose name or description says it writes does not claim readOnlyHint: true.',
  explanation:
    'Hosts act on readOnlyHint without asking: VS Code and Codex skip the confirmation, Claude Code runs the tool in parallel and lets it through plan mode. Write tools marked read-only are a recurring advisory in the wild (a database server, a screenshot tool). The inference reads whole words only: the first verb of the name, the opening verb of the description.',
  *check({ tools }) {
    for (const tool of tools) {
      if (declaredHint(tool, 'readOnlyHint') !== true) continue;
      const e = explain(tool);
      if (e.effect === 'read' || e.confidence === 'low') continue;
      const destructive = e.effect === 'destructive';
      yield {
        tool: toolLabel(tool),
        message: `${toolLabel(tool)} claims readOnlyHint: true, but ${evidence(e)} says it ${destructive ? 'destroys or overwrites' : 'creates or sends'} things.`,
        fix: `If it writes, set "readOnlyHint": false, "destructiveHint": ${destructive}. If it truly only reads, rename it or reword the description.`,
        patch: { readOnlyHint: false, destructiveHint: destructive },
        certainty: certainty(e),
      };
    }
  },
};

export const readOnlyUnverifiable: LintRule = {
  id: 'read-only-unverifiable',
  severity: 'info',
  summary: 'A read-only claim on a tool whose name only says it runs something (execute, run, eval…).',
  explanation:
    '`execute_query` and `run_command` can do anything their argument says. Projects that guessed hints from name substrings marked `execute_query` read-only ("query"). A readOnlyHint on such a tool is only true if the server enforces it (a read-only transaction, an allow-list); the hint alone is what the host trusts.',
  *check({ tools }) {
    for (const tool of tools) {
      if (declaredHint(tool, 'readOnlyHint') !== true) continue;
      const e = explain(tool);
      if (e.basis?.family !== 'opaque') continue;
      yield {
        tool: toolLabel(tool),
        message: `${toolLabel(tool)} claims readOnlyHint: true, but "${e.basis.word}" can do anything its arguments say.`,
        fix: 'Keep readOnlyHint: true only if the server enforces read-only execution; say how in the description.',
      };
    }
  },
};

export const nameSaysDestructive: LintRule = {
  id: 'name-says-destructive',
  severity: 'error',
  summary: 'A tool that deletes, drops, kills or purges does not claim destructiveHint: false.',
  explanation:
    'destructiveHint false tells the host the tool "performs only additive updates" (spec), so hosts skip the extra confirmation they give destructive tools (Codex always confirms destructiveHint). A delete/remove/drop/purge/kill/revoke verb in the name, or "permanently"/"cannot be undone" in the description, says otherwise.',
  *check({ tools }) {
    for (const tool of tools) {
      if (declaredHint(tool, 'destructiveHint') !== false || declaredHint(tool, 'readOnlyHint') === true) continue;
      const e = explain(tool);
      if (e.effect !== 'destructive' || e.basis?.family !== 'erase' || e.confidence === 'low') continue;
      yield {
        tool: toolLabel(tool),
        message: `${toolLabel(tool)} claims destructiveHint: false, but ${evidence(e)} says it erases things.`,
        fix: 'Set "destructiveHint": true.',
        patch: { destructiveHint: true },
        certainty: certainty(e),
      };
    }
  },
};

export const nameSaysOverwrite: LintRule = {
  id: 'name-says-overwrite',
  severity: 'info',
  summary: 'A tool that sets, updates, moves or overwrites says whether the old value is lost.',
  explanation:
    'The spec defines destructiveHint false as "only additive updates". set/update/replace/move/write replace what was there; that is a destructive update unless the old value is kept (versioning, undo). Many servers mark such tools non-destructive; this rule asks you to decide on purpose.',
  *check({ tools }) {
    for (const tool of tools) {
      if (declaredHint(tool, 'destructiveHint') !== false || declaredHint(tool, 'readOnlyHint') === true) continue;
      const e = explain(tool);
      if (e.effect !== 'destructive' || e.basis?.family !== 'overwrite' || e.confidence === 'low') continue;
      yield {
        tool: toolLabel(tool),
        message: `${toolLabel(tool)} claims destructiveHint: false, but ${evidence(e)} suggests it replaces existing data.`,
        fix: 'Set "destructiveHint": true unless the previous value is kept (versions, undo).',
        patch: { destructiveHint: true },
        certainty: certainty(e),
      };
    }
  },
};

export const nameSaysOpenWorld: LintRule = {
  id: 'name-says-open-world',
  severity: 'warning',
  summary: 'A tool that mentions the web, email or a third-party service does not claim openWorldHint: false.',
  explanation:
    'openWorldHint true means the tool interacts with "an open world of external entities" (spec: web search is open, a memory tool is closed). Hosts and users weigh open-world tools differently: what they fetch can carry prompt injection, and what they send leaves the machine. A web/http/url/email/slack/github cue in the name, or in the description, says the world is open.',
  *check({ tools }) {
    for (const tool of tools) {
      if (declaredHint(tool, 'openWorldHint') !== false) continue;
      const e = explain(tool);
      if (e.openCues.length === 0) continue;
      const inName = e.openCues.filter((c) => c.from === 'name').map((c) => c.word);
      const inDescription = e.openCues.filter((c) => c.from === 'description').map((c) => c.word);
      const where =
        inName.length > 0
          ? `its name mentions "${inName.join('", "')}"`
          : `its description mentions "${inDescription.join('", "')}"`;
      yield {
        tool: toolLabel(tool),
        message: `${toolLabel(tool)} claims openWorldHint: false, but ${where}.`,
        fix: 'Set "openWorldHint": true if it reaches anything beyond its own data.',
        patch: { openWorldHint: true },
        certainty: inName.length > 0 ? 'firm' : 'likely',
      };
    }
  },
};

export const nameRules: readonly LintRule[] = [
  nameSaysWrites,
  readOnlyUnverifiable,
  nameSaysDestructive,
  nameSaysOverwrite,
  nameSaysOpenWorld,
];

export { explain as explainTool };
