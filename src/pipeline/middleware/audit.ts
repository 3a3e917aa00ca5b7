/**
 * The audit hook: one event per call that reached it, with the tool, a summary
 * of the arguments (shapes and sizes only, never values: arguments may hold
 * secrets), the outcome and the duration.
 */
import type { ServerLogger } from '../../util/logger.js';
import type { CallContext, Middleware } from '../types.js';

/** What the audit hook receives. */
export interface AuditEvent {
  tool: string;
  requestId: string | number;
  sessionId?: string;
  /** `auth.subject` or `auth.clientId`, when the transport authenticated the caller. */
  caller?: string;
  /** Argument names mapped to their shape, e.g. `{ path: 'string(12)', lines: 'array(3)' }`. */
  args: Record<string, string>;
  /** `ok`; `error` for an isError result; `rejected` for a protocol error; `cancelled` when the call was aborted. */
  outcome: 'ok' | 'error' | 'rejected' | 'cancelled';
  durationMs: number;
  /** ISO time the call started. */
  startedAt: string;
}

/** Options of {@link audit}. */
export interface AuditOptions {
  /** Receives every event. Errors it throws are logged, never affect the call. */
  sink: (event: AuditEvent) => void | Promise<void>;
  logger?: ServerLogger;
}

/**
 * Report every call to an audit sink.
 *
 * @example
 * ```ts
 * const mw = audit({ sink: (event) => auditLog.write(JSON.stringify(event)) });
 * ```
 */
export function audit(options: AuditOptions): Middleware {
  const { sink, logger } = options;
  const emit = (event: AuditEvent) => {
    try {
      const pending = sink(event);
      if (pending instanceof Promise) pending.catch((error) => logger?.warn('audit sink failed', { error }));
    } catch (error) {
      logger?.warn('audit sink failed', { error });
    }
  };
  return async function auditMiddleware(ctx, next) {
    const started = performance.now();
    const startedAt = new Date().toISOString();
    const base = () => baseEvent(ctx, startedAt, started);
    try {
      const result = await next();
      emit({ ...base(), outcome: ctx.signal.aborted ? 'cancelled' : result.isError === true ? 'error' : 'ok' });
      return result;
    } catch (error) {
      emit({ ...base(), outcome: 'rejected' });
      throw error;
    }
  };
}

function baseEvent(ctx: CallContext, startedAt: string, started: number): Omit<AuditEvent, 'outcome'> {
  const event: Omit<AuditEvent, 'outcome'> = {
    tool: ctx.tool.name,
    requestId: ctx.requestId,
    args: summariseArgs(ctx.args),
    durationMs: Math.round((performance.now() - started) * 1000) / 1000,
    startedAt,
  };
  if (ctx.session) event.sessionId = ctx.session.id;
  const caller = ctx.auth?.subject ?? ctx.auth?.clientId;
  if (caller !== undefined) event.caller = caller;
  return event;
}

/**
 * Summarise arguments without their values: a value may be a password, a token
 * or personal data, so only its type and size are recorded.
 *
 * @example
 * ```ts
 * summariseArgs({ path: 'a.txt', force: true }); // { path: 'string(5)', force: 'boolean' }
 * ```
 */
export function summariseArgs(args: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof args !== 'object' || args === null) return out;
  for (const [key, value] of Object.entries(args)) out[key] = shapeOf(value);
  return out;
}

function shapeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array(${value.length})`;
  if (typeof value === 'string') return `string(${value.length})`;
  if (typeof value === 'object') return `object(${Object.keys(value).length} keys)`;
  return typeof value;
}
