/**
 * The scan at the door: before a server's tools are offered (in the
 * gateway) or pinned (`candor pin`), lint's steering and naming rules run over
 * them — hidden or bidirectional characters, text aimed at the model or at other
 * tools, a name that shadows another server's tool. An error-level finding keeps
 * the tool out unless the person accepted that rule for that tool (an overrides
 * `accept`, or `candor pin --accept`). The rules are lint's own, not a copy.
 */
import { lint } from '../lint/lint.js';
import { RULES } from '../lint/rules/index.js';
import { namingRules } from '../lint/rules/naming.js';
import { steeringRules } from '../lint/rules/steering.js';
import type { Finding, RuleSetting } from '../lint/types.js';
import type { WireToolLike } from '../tool/annotations.js';

/** The lint rules run at the door. */
export const DOOR_RULES: readonly string[] = Object.freeze([...steeringRules, ...namingRules].map((rule) => rule.id));

const SETTINGS: Record<string, RuleSetting> = Object.fromEntries(
  RULES.filter((rule) => !DOOR_RULES.includes(rule.id)).map((rule) => [rule.id, 'off' as const]),
);

/** A finding at the door, and whether the person accepted its rule for the tool. */
export interface DoorFinding extends Finding {
  accepted: boolean;
}

/** What the door says about one server's tools. */
export interface DoorScan {
  /** Findings by tool name (the server's own names). */
  findings: Map<string, DoorFinding[]>;
  /** The error-level findings not accepted: they keep the tool out. */
  blocking(tool: string): DoorFinding[];
}

/**
 * Scan a server's tools at the door.
 *
 * @example
 * ```ts
 * const scan = scanAtTheDoor(tools, { otherServers: new Map([['files', ['read_file']]]) });
 * scan.blocking('read_file'); // [{ ruleId: 'name-shadows-tool', … }]
 * ```
 */
export function scanAtTheDoor(
  tools: readonly WireToolLike[],
  options: {
    /** Tool names of the other servers already approved, by server. */
    otherServers?: ReadonlyMap<string, readonly string[]>;
    /** Rule ids the person accepted for a tool. */
    accepted?: (tool: string) => readonly string[];
  } = {},
): DoorScan {
  const result = lint(tools, {
    rules: SETTINGS,
    ...(options.otherServers ? { otherServers: options.otherServers } : {}),
  });
  const findings = new Map<string, DoorFinding[]>();
  for (const finding of result.findings) {
    if (finding.tool === undefined) continue;
    const accepted = options.accepted?.(finding.tool).includes(finding.ruleId) ?? false;
    const list = findings.get(finding.tool) ?? [];
    list.push({ ...finding, accepted });
    findings.set(finding.tool, list);
  }
  return {
    findings,
    blocking: (tool) => (findings.get(tool) ?? []).filter((f) => f.severity === 'error' && !f.accepted),
  };
}
