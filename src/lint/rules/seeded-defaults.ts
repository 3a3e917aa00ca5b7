/**
 * Hints a library seeded, not hints a person declared. Some libraries
 * fill every tool's annotations with the spec's worst case (mcp-go's `NewTool`:
 * readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint
 * true), so a server that never thought about hints sends them all, explicitly,
 * on every tool. They are as uninformative as absent hints, but look declared:
 * hosts confirm every read as destructive, and reviewers take them as a statement.
 */
import { explainEffects } from '../../tool/infer.js';
import { toolLabel } from '../manifest.js';
import type { LintRule, LintTool } from '../types.js';

const SEEDED = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true } as const;

function seeded(tool: LintTool): boolean {
  return (Object.keys(SEEDED) as Array<keyof typeof SEEDED>).every(
    (hint) => tool.annotations[hint] === SEEDED[hint] && !tool.defaulted.has(hint),
  );
}

export const hintsSeededDefaults: LintRule = {
  id: 'hints-seeded-defaults',
  severity: 'warning',
  summary: 'Every tool sends the same worst-case hints, reads included: defaults a library seeded, not declarations.',
  explanation:
    'mcp-go (and libraries like it) fill each tool with readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true unless the author overrides them. When every tool of a server carries exactly those values, tools whose names say they only read included, the hints say nothing: hosts confirm every call as destructive, and nobody can tell a real declaration from the default. Set the hints per tool (mcp-go: mcp.WithReadOnlyHintAnnotation, WithDestructiveHintAnnotation, WithOpenWorldHintAnnotation).',
  *check({ tools }) {
    if (tools.length < 3 || !tools.every(seeded)) return;
    const reads = tools.filter((tool) => {
      const inferred = explainEffects(tool.name, tool.description);
      return inferred.effect === 'read' && inferred.confidence === 'high';
    });
    if (reads.length === 0) return;
    const named = reads.slice(0, 5).map(toolLabel);
    yield {
      message: `All ${tools.length} tools send the worst-case hints a library seeds, even ${reads.length === 1 ? 'a read' : `${reads.length} reads`} (${named.join(', ')}${reads.length > named.length ? ', …' : ''}).`,
      fix: 'Declare each tool\'s hints: "readOnlyHint": true on the reads, "destructiveHint": false on the additive writes, "openWorldHint": false on tools that touch only local files.',
    };
  },
};
