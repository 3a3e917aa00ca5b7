/**
 * The audit record of a call a quota refused: denied by `quota:<name>` before
 * the upstream was asked, with the person, as the gateway records every call.
 */
import type { CallContext } from '../../pipeline/types.js';
import { type AuditEntry, auditArgs } from '../audit-log.js';
import { GATEWAY_META_KEY } from '../proxy-tool.js';

/**
 * @example
 * ```ts
 * record(quotaAuditEntry(ctx, '"deletes per hour"'));
 * ```
 */
export function quotaAuditEntry(ctx: CallContext, quota: string): AuditEntry {
  const meta = ctx.tool.meta?.[GATEWAY_META_KEY] as { server?: string; pin?: string } | undefined;
  const entry: AuditEntry = {
    time: new Date().toISOString(),
    tool: ctx.tool.name,
    ...(meta?.server === undefined ? {} : { server: meta.server }),
    decision: 'deny',
    decidedBy: `quota:${quota}`,
    pin: meta?.pin ?? 'unknown',
    durationMs: 0,
    outcome: 'denied',
    args: auditArgs(ctx.args),
  };
  if (ctx.session) entry.session = ctx.session.id;
  const principal = ctx.auth?.subject ?? ctx.auth?.clientId;
  if (principal !== undefined) entry.principal = principal;
  return entry;
}
