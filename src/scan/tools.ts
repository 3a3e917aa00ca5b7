/**
 * A scan's per-tool lines and verdict, from one listing of the server's tools
 * and (for a server observe could start) what observe saw. The scan at the
 * door, lint and the pin hashes read the same listing.
 */
import { scanAtTheDoor } from '../host/door-scan.js';
import { pinHash } from '../host/pins/pin-hash.js';
import { lint } from '../lint/lint.js';
import type { ObserveReport } from '../observe/observe.js';
import { failureSentence, type ServerVerdict, serverVerdict } from '../observe/server-verdict.js';
import type { WireToolLike } from '../tool/annotations.js';
import { agreeWithObserved } from './suggestions.js';
import { CALL_ERROR_LIMIT, type ScanCall, type ScanReport, type ScanTool } from './types.js';

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** What the checks say about one listing. */
export interface ToolsInput {
  listed: WireToolLike[];
  /** observe's report; absent for a server observe cannot start (a remote one). */
  observed?: ObserveReport;
  /** Why no tool was observed, when `observed` is absent. */
  unobserved?: string;
  /** Required inputs (environment variables, arguments) the server was started without. */
  needs?: readonly string[];
  progress?: (line: string) => void;
}

/**
 * Why a tool was not exercised: a tool every call of which failed while a required
 * input was missing needs that input (the one its error names, else all of them).
 */
function reasonFor(notExercised: string | undefined, needs: readonly string[]): string | undefined {
  if (notExercised === undefined || needs.length === 0 || !notExercised.startsWith('every call failed')) {
    return notExercised;
  }
  const named = needs.filter((name) => notExercised.includes(name));
  return `needs ${(named.length > 0 ? named : needs).join(', ')} (${notExercised})`;
}

/** A call as the report keeps it beside a finding: what was sent, and whether it did its work. */
function callOf(call: ObserveReport['tools'][number]['calls'][number]): ScanCall {
  const error = call.error === undefined ? undefined : call.error.slice(0, CALL_ERROR_LIMIT);
  return { arguments: call.args, ok: call.ok, ...(error === undefined ? {} : { error }) };
}

/**
 * The report's tools, door and lint findings, and verdict.
 *
 * @example
 * ```ts
 * const { tools, verdict } = scanTools({ listed: report.listed ?? [], observed: report });
 * ```
 */
export function scanTools(
  input: ToolsInput,
): Pick<ScanReport, 'tools' | 'door' | 'lint' | 'observe' | keyof ServerVerdict> {
  const { listed, observed } = input;
  // Suggested hints follow what observe saw of the same tool (the network opens the world, a write ends read-only).
  const seen = new Map((observed?.tools ?? []).map((t) => [t.name, t.effects]));
  const door = agreeWithObserved(
    [...scanAtTheDoor(listed).findings.values()].flat().map(({ accepted: _, ...finding }) => finding),
    seen,
  );
  const linted = agreeWithObserved(lint(listed).findings, seen);
  const tools: ScanTool[] = listed.map((wire) => {
    const seen = observed?.tools.find((t) => t.name === wire.name);
    const annotations = (wire.annotations ?? {}) as Record<string, unknown>;
    const declared = Object.fromEntries(
      HINTS.filter((hint) => typeof annotations[hint] === 'boolean').map((hint) => [
        hint,
        annotations[hint] as boolean,
      ]),
    );
    const contradicts = observed?.findings.some((f) => f.tool === wire.name && f.severity === 'error') ?? false;
    const reason = !observed
      ? (input.unobserved ?? 'not observed')
      : seen === undefined
        ? 'left out (--skip)'
        : reasonFor(seen.notExercised, input.needs ?? []);
    const verdict = reason ? 'not exercised' : contradicts ? 'contradicts' : 'consistent';
    input.progress?.(`  ${wire.name}: ${verdict}`);
    const found = observed?.findings.some((f) => f.tool === wire.name && f.severity !== 'info') ?? false;
    return {
      name: wire.name,
      declared,
      effects: seen?.effects ?? [],
      verdict,
      ...(reason ? { reason } : {}),
      pin: pinHash(wire),
      ...(found && seen ? { calls: seen.calls.map(callOf) } : {}),
    };
  });
  const errors = [...linted, ...(observed?.findings ?? [])].filter((f) => f.severity === 'error');
  const verdict = serverVerdict({
    listed: tools.map((t) => t.name),
    tools: tools.map((t) => ({ name: t.name, notExercised: t.reason })),
    contradictions: errors.length > 0,
    failure: observed?.failure ? failureSentence(observed.failure) : undefined,
  });
  return {
    tools,
    door,
    lint: linted,
    observe: {
      findings: observed?.findings ?? [],
      warnings: observed?.warnings ?? [],
      ...(observed?.failure ? { failure: observed.failure } : {}),
    },
    ...verdict,
  };
}
