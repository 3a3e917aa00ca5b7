/**
 * The result guard as one step of the gateway's call path: the settings for the
 * tool (its server's `tools` entries, its server's `results`, the gateway's, else the
 * tool's hints decide), then {@link guardResult}, then the audit's view of what was found.
 */
import type { CatalogTool } from '../../host/types.js';
import type { CallToolResult } from '../../tool/types.js';
import { guardWithinBudget, warmGuardWorker } from './guard-pool.js';
import { toolResultSettings } from './tool-settings.js';
import type { GuardedResult, ResultGuardSettings, ServerResultSettings } from './types.js';

/** One finding as the audit log keeps it. */
export interface AuditedFinding {
  kind: 'secret' | 'injection';
  rule: string;
  action: 'annotate' | 'redact' | 'block' | 'off';
}

/** The step: guard a tool's result and say what was found, for the audit. */
export type ResultGuardStep = (
  tool: CatalogTool,
  result: CallToolResult,
) => Promise<GuardedResult<CallToolResult> & { audited: AuditedFinding[]; outsideInput: boolean }>;

/**
 * Make the step from the gateway's and each server's settings.
 *
 * @example
 * ```ts
 * const guard = resultGuardStep({ gateway: { secrets: 'block' }, server: (name) => servers[name]?.results });
 * const { result, audited } = await guard(tool, upstreamResult);
 * ```
 */
export function resultGuardStep(options: {
  gateway?: ResultGuardSettings | undefined;
  server: (name: string) => ServerResultSettings | undefined;
}): ResultGuardStep {
  const settingsFor = toolResultSettings(options);
  // The worker a hostile result's checks move to, loaded before the first one comes.
  warmGuardWorker();
  return async (tool, result) => {
    const settings = settingsFor(tool);
    const guarded = await guardWithinBudget(
      result,
      { name: tool.name, openWorld: tool.hints.openWorldHint, trusted: tool.trust === 'trusted' },
      settings,
    );
    // The same rule as the injection default: an open world or an untrusted server makes it outside input.
    const outsideInput = tool.hints.openWorldHint || tool.trust !== 'trusted';
    const audited: AuditedFinding[] = [];
    const seen = new Set<string>();
    for (const f of guarded.findings) {
      const action = guarded.actions[f.kind];
      if (action === undefined || seen.has(`${f.kind} ${f.rule}`)) continue;
      seen.add(`${f.kind} ${f.rule}`);
      audited.push({ kind: f.kind, rule: f.rule, action });
    }
    return { ...guarded, audited, outsideInput };
  };
}
