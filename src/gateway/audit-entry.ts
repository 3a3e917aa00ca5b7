/**
 * One audit record per proxied call: what was decided, by whom (preset, rule, pin,
 * visibility, a person, a remembered approval) and how it ended. Arguments are
 * shortened by `auditArgs`; results are never recorded.
 */
import type { Policy } from '../host/policy.js';
import type { CallOutcome, CatalogTool } from '../host/types.js';
import type { ToolContext } from '../tool/types.js';
import type { CallScope } from './ask.js';
import { type AuditEntry, auditArgs } from './audit-log.js';

/** How a taint refusal's reason begins (host/taint.ts). */
const TAINT_REASON_START = 'This session holds untrusted content';

/** The audit record of one call. */
export function auditEntry(
  tool: CatalogTool,
  args: Record<string, unknown>,
  ctx: ToolContext,
  scope: CallScope,
  outcome: CallOutcome,
  durationMs: number,
  policy: Policy,
): AuditEntry {
  const verdict = policy.decide({ tool });
  const byRule = verdict.by === 'rule';
  let decision: AuditEntry['decision'];
  let decidedBy: string;
  if (scope.asked) {
    decision = 'ask';
    decidedBy = scope.asked.answer === 'no-elicitation' ? 'no-elicitation' : 'person';
  } else if (outcome.status === 'denied') {
    decision = 'deny';
    const message = outcome.message ?? '';
    decidedBy = /pinned|renamed from|new since/.test(message)
      ? 'pin'
      : /visible only to apps|may not be called by an app/.test(message)
        ? 'visibility'
        : byRule
          ? 'rule'
          : `preset:${policy.preset}`;
  } else if (outcome.status === 'error' && !outcome.result) {
    decision = 'error';
    decidedBy = 'gateway';
  } else {
    decision = 'allow';
    // Allowed without asking: either the verdict allowed, or allow-always was remembered for this pin hash.
    decidedBy =
      verdict.decision === 'allow'
        ? byRule
          ? 'rule'
          : `preset:${policy.preset}`
        : scope.unconfirmed
          ? 'rules:call_unconfirmed'
          : 'remembered';
  }
  const entry: AuditEntry = {
    time: new Date().toISOString(),
    tool: tool.name,
    server: tool.server,
    decision,
    decidedBy,
    pin: tool.pin.status,
    durationMs: Math.round(durationMs * 1000) / 1000,
    outcome: outcome.status === 'error' && outcome.result ? 'error' : outcome.status,
    args: auditArgs(args),
  };
  if (ctx.session) entry.session = ctx.session.id;
  const principal = ctx.auth?.subject ?? ctx.auth?.clientId;
  if (principal !== undefined) entry.principal = principal;
  if (scope.asked && scope.asked.answer !== 'no-elicitation') entry.answer = scope.asked.answer;
  const taint = scope.asked?.request.taint;
  if (taint) entry.taint = taint.map((source) => source.tool);
  else if (outcome.status === 'denied' && outcome.message?.startsWith(TAINT_REASON_START)) decidedBy = 'taint';
  if (decidedBy !== entry.decidedBy) entry.decidedBy = decidedBy;
  return entry;
}
