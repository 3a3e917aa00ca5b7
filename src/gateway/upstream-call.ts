/**
 * The gateway's call path for one proxied tool: the Cedar rules (when configured),
 * then the host (policy on tightened hints, pins, confirmation asked downstream)
 * through the connection the call belongs to, then the audit, then the result the
 * downstream client gets.
 */
import { InputRequiredError } from '../engine/modern/call-context.js';
import type { Policy } from '../host/policy.js';
import { withSource } from '../host/taint.js';
import type { CallOutcome, CatalogTool, RoutedCalls, RoutedRunOptions, TaintMode } from '../host/types.js';
import { SPAN_ATTRIBUTES } from '../pipeline/middleware/tracing.js';
import { toolErrorResult } from '../pipeline/result.js';
import type { CallToolResult, ToolContext } from '../tool/types.js';
import type { CallScope } from './ask.js';
import { auditEntry } from './audit-entry.js';
import type { AuditEntry, UpstreamCredential } from './audit-log.js';
import { resultOf } from './call-result.js';
import type { DelegatedUpstreams } from './delegated-upstreams.js';
import type { CallHooks } from './hooks/call-hooks.js';
import type { PerUserSignIns } from './per-user.js';
import type { ResultGuardStep } from './results/guard-step.js';
import type { MessageGuard } from './results/message-guard.js';
import {
  declaresTrustAnnotations,
  TRUST_ANNOTATIONS,
  type TrustAnnotation,
  trustAnnotation,
} from './results/trust-annotations.js';
import type { GatewayRules } from './rules.js';
import { TAINT_MODE_STATE, type TaintSessions } from './taint-sessions.js';
import type { InFlight } from './upstream-requests.js';

// 2026-07-28 upstreams send log messages only when the request names a level (SEP-2575);
// the downstream engine filters by its own client's level.
const UPSTREAM_META = Object.freeze({ 'io.modelcontextprotocol/logLevel': 'debug' });

/**
 * A call a code-mode script makes: found on the nested call's context under
 * {@link SCRIPT_CALL}. Its question is the script's, and its audit record joins the run's.
 */
export interface ScriptCall {
  confirm: NonNullable<CallScope['script']>['confirm'];
  record(entry: AuditEntry): void;
}

/** The key of {@link ScriptCall} on a nested call's context. */
export const SCRIPT_CALL = Symbol.for('candor.gateway.script-call');

/** What the call path needs from the gateway around it. */
export interface UpstreamCallOptions {
  routed: RoutedCalls;
  inFlight: InFlight;
  policy: Policy;
  timeoutMs: number;
  rules?: GatewayRules | undefined;
  /** Where audit records go (the file sink and the metrics); nothing is built when there are none. */
  record?: ((entry: AuditEntry) => void) | undefined;
  /** The per-person sign-ins, once they exist (they need the downstream server's shared store). */
  perUser: () => PerUserSignIns | undefined;
  /** Upstreams called with a token made for the person (token exchange, enterprise grant). */
  delegated?: DelegatedUpstreams | undefined;
  /** How each upstream's calls are credentialed otherwise (per-person sign-in, shared, none). */
  credentialOf?: ((server: string) => UpstreamCredential) | undefined;
  /** True for an upstream reached by URL: its calls are cancelled with the downstream request. */
  remote: (server: string) => boolean;
  /** Secrets and injected instructions in results: found and acted on before the result goes on. */
  guard?: ResultGuardStep | undefined;
  /** The same for an upstream's progress messages and error messages. */
  messages?: MessageGuard | undefined;
  /** The outside services asked before a call goes upstream and before its result goes back. */
  hooks?: CallHooks | undefined;
  /** Each downstream conversation's taint (see taint-sessions.ts). */
  taint?: TaintSessions | undefined;
}

/**
 * The function every proxied tool's handler calls.
 *
 * @example
 * ```ts
 * const call = upstreamCall({ routed: routedCalls(host), inFlight, policy, timeoutMs, perUser: () => undefined, remote });
 * const result = await call(tool, { path: 'a.txt' }, ctx);
 * ```
 */
export function upstreamCall(options: UpstreamCallOptions) {
  const { routed, inFlight, policy, timeoutMs, rules } = options;
  return async (tool: CatalogTool, args: Record<string, unknown>, ctx: ToolContext): Promise<CallToolResult> => {
    const script = (ctx as { [SCRIPT_CALL]?: ScriptCall })[SCRIPT_CALL];
    const scope: CallScope = { ctx, server: tool.server, ...(script ? { script } : {}) };
    const record = script ? script.record : options.record;
    if (rules) {
      const principal = rules.principal(ctx.auth);
      // Defence in depth: the person's tool list already leaves out what the rules forbid.
      if (!rules.permits(principal, ctx.tool, 'call')) {
        return toolErrorResult(
          `candor gateway: ${ctx.tool.name} is not permitted to User::"${principal.id}" by the gateway's rules.`,
        );
      }
      scope.unconfirmed = rules.permits(principal, ctx.tool, 'call_unconfirmed');
    }
    const credential = options.delegated?.credentialOf(tool.server) ?? options.credentialOf?.(tool.server);
    if (credential) ctx.state.set(SPAN_ATTRIBUTES, spanAttributes(credential));
    const started = performance.now();
    const before = options.hooks ? await options.hooks.before(tool, args, ctx) : {};
    if (before.result) {
      // The hook answered in the call's place: the server is not called.
      if (record) {
        const refused = before.decision !== 'replace';
        const entry = auditEntry(
          tool,
          args,
          ctx,
          scope,
          hookOutcome(tool, refused ? 'denied' : 'ok', before.result),
          performance.now() - started,
          policy,
        );
        entry.decision = refused ? 'deny' : 'allow';
        if (credential) entry.credentials = credential;
        entry.decidedBy = 'hook:beforeCall';
        entry.hooks = { beforeCall: before.decision as string };
        record(entry);
      }
      return before.result;
    }
    // A progress message passes the guards too, in order.
    let progressed: Promise<unknown> = Promise.resolve();
    const progress = (_: number, p: { progress: number; total?: number; message?: string }) => {
      const guard = options.messages;
      if (guard === undefined || p.message === undefined) {
        void ctx.progress(p.progress, p.total, p.message);
        return;
      }
      progressed = progressed
        .then(() => guard(tool.server, 'progress', { message: p.message }))
        .then((g) =>
          ctx.progress(p.progress, p.total, g.message?.message ?? 'candor gateway: progress message withheld'),
        )
        .catch(() => {});
    };
    const run: RoutedRunOptions = {
      // The hook, not ctx.signal: no AbortSignal is made per proxied call.
      onAbort: (listener) => ctx.onAbort(listener),
      onProgress: progress,
      timeoutMs,
      meta: UPSTREAM_META,
      confirmContext: scope,
    };
    const taint = options.taint?.of(ctx);
    if (taint) {
      run.taint = taint;
      const mode = ctx.state.get(TAINT_MODE_STATE) as TaintMode | undefined;
      if (mode !== undefined) run.taintMode = mode;
    }
    const perUser = options.perUser();
    const delegated = options.delegated;
    if (delegated?.has(tool.server)) {
      // A token made for this person from the one they called with, obtained once the call is authorised.
      run.connection = (server) => delegated.connectionFor(server, ctx);
    } else if (perUser?.has(tool.server)) {
      // Each person's own sign-in and connection, asked for once the host has authorised the call.
      run.connection = async (server) => {
        try {
          return await perUser.connectionFor(server, ctx);
        } catch (error) {
          if (error instanceof InputRequiredError) scope.inputRequired = error;
          throw error;
        }
      };
    }
    let outcome = await inFlight.track(
      scope,
      () =>
        tool.visibility.includes('model')
          ? routed.call(tool.name, args, run)
          : routed.callFromApp({ server: tool.server, tool: tool.toolName, args }, run),
      options.remote(tool.server),
    );
    if (scope.inputRequired) throw scope.inputRequired;
    // An upstream's error message (a JSON-RPC error, a failure) goes into the result's text.
    if (options.messages && outcome.message !== undefined && outcome.status !== 'ok') {
      const guarded = await options.messages(tool.server, 'error', { message: outcome.message });
      outcome = {
        ...outcome,
        message: guarded.message?.message ?? `the upstream's error message was withheld: ${guarded.withheld}`,
      };
    }
    let audited: Awaited<ReturnType<ResultGuardStep>>['audited'] = [];
    let labels: TrustAnnotation | undefined;
    if (options.guard && outcome.result && (outcome.status === 'ok' || outcome.status === 'error')) {
      // Read before resultOf drops the protocol's own keys of the upstream hop.
      const upstreamLabels = outcome.result._meta?.[TRUST_ANNOTATIONS];
      const guarded = await options.guard(tool, outcome.result);
      outcome = { ...outcome, result: guarded.result };
      audited = guarded.audited;
      // Injected instructions found make the result untrusted whoever sent it (a trusted server can relay them).
      if (taint && audited.some((f) => f.kind === 'injection'))
        taint.state = withSource(taint.state, { tool: tool.name, server: tool.server, labels: ['untrusted'] });
      // A withheld result holds only the gateway's own words: nothing to label.
      if (declaresTrustAnnotations(ctx.clientCapabilities) && !audited.some((f) => f.action === 'block'))
        labels = trustAnnotation({
          server: tool.server,
          tool: tool.name,
          outsideInput: guarded.outsideInput,
          findings: audited,
          upstream: upstreamLabels,
        });
    }
    // After the result guards: a hook never sees what they redacted.
    const after = options.hooks
      ? await options.hooks.after(tool, args, ctx, resultOf(tool, outcome, scope))
      : { result: resultOf(tool, outcome, scope) };
    if (record) {
      const entry = auditEntry(tool, args, ctx, scope, outcome, performance.now() - started, policy);
      if (audited.length > 0) entry.results = audited;
      if (credential) entry.credentials = credential;
      if (before.decision !== undefined || after.decision !== undefined)
        entry.hooks = {
          ...(before.decision !== undefined ? { beforeCall: before.decision } : {}),
          ...(after.decision !== undefined ? { afterCall: after.decision } : {}),
        };
      record(entry);
    }
    // A result a hook replaced is the hook's, not the upstream's: the labels describe the upstream's.
    if (labels === undefined || after.decision === 'replace') return after.result;
    return { ...after.result, _meta: { ...after.result._meta, [TRUST_ANNOTATIONS]: labels } };
  };
}

/** The span's words for how the call reached the upstream (no token). */
function spanAttributes(credential: UpstreamCredential): Record<string, string> {
  return {
    'candor.upstream.credentials': credential.source,
    ...(credential.audience !== undefined ? { 'candor.upstream.audience': credential.audience } : {}),
  };
}

/** The outcome of a call a beforeCall hook answered in place of the server. */
function hookOutcome(tool: CatalogTool, status: 'denied' | 'ok', result: CallToolResult): CallOutcome {
  return {
    index: 0,
    tool: tool.name,
    server: tool.server,
    status,
    ...(status === 'ok' ? { result } : { message: 'refused by the beforeCall hook' }),
    untrustedContent: false,
    attempts: 0,
    parallel: false,
    warnings: [],
  };
}
