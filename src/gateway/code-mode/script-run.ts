/**
 * One run of a script: the sandbox on one side, the gateway's call path on the
 * other. Each call the script makes is the tool's own proxied call (its handler:
 * Cedar rules, hooks, the host's policy on tightened hints, pins, quarantine,
 * result guards), wrapped in the gateway's shared middleware (server rate
 * limits, quotas), on a context of its own that says it comes from this script.
 * When the policy would ask a person about a call, the script asks once, showing
 * its plan; the answer holds for the rest of the run, except for a call the taint
 * rule asks about because untrusted content arrived after the answer: that is asked
 * again, naming the content (host/code-mode/script-taint.ts). One audit record
 * covers the run, with each call in it.
 */
import { InputRequiredError } from '../../engine/modern/call-context.js';
import { scriptValue, textOf } from '../../host/code-mode/host-script.js';
import { runScript } from '../../host/code-mode/sandbox.js';
import { HaltScript, ScriptError } from '../../host/code-mode/script-error.js';
import { plannedCall, planText, ScriptLedger } from '../../host/code-mode/script-plan.js';
import { TaintSinceAllow } from '../../host/code-mode/script-taint.js';
import type { PlannedCall, ScriptLimits, ScriptOutcome } from '../../host/code-mode/types.js';
import type { ConfirmAnswer, ConfirmRequest, TaintSource } from '../../host/types.js';
import type { CallContext, Middleware, ToolSource } from '../../pipeline/types.js';
import type { CallToolResult, ToolContext, ToolDefinition } from '../../tool/types.js';
import { type CallScope, decisionQuestion } from '../ask.js';
import { type AuditEntry, auditArgs } from '../audit-log.js';
import { GATEWAY_META_KEY } from '../proxy-tool.js';
import { SCRIPT_CALL, type ScriptCall } from '../upstream-call.js';
import type { CallTracer } from './script-tracing.js';

/** What a run needs from the endpoint it runs on. */
export interface ScriptRunOptions {
  code: string;
  /** The `run_script` call's context: questions go to its client. */
  ctx: ToolContext;
  /** The tools the script may call: the endpoint's (profile, the person's rules), the gateway's own left out. */
  tools: ToolSource;
  /** The tool names offered to the script. */
  names: readonly string[];
  /** The gateway's shared middleware (server rate limits, quotas), composed. */
  middleware: Middleware;
  limits?: ScriptLimits | undefined;
  /** Where the run's audit record goes. */
  record?: ((entry: AuditEntry) => void) | undefined;
  /** A span per call, inside the run's span (when OpenTelemetry is on). */
  tracer?: CallTracer | undefined;
}

/**
 * Run a script against the gateway's tools.
 *
 * @example
 * ```ts
 * const out = await runGatewayScript({ code, ctx, tools: view, names, middleware: compose(shared) });
 * ```
 */
export async function runGatewayScript(options: ScriptRunOptions): Promise<ScriptOutcome> {
  const { ctx, tools } = options;
  const started = performance.now();
  const ledger = new ScriptLedger(options.code, (name) => tools.get(name)?.hints);
  const made = ledger.made;
  const entries: AuditEntry[] = [];
  let hold: (() => () => void) | undefined;
  let question: Promise<boolean> | undefined;
  let allowed = false;
  let denial: ScriptError | undefined;
  let asked: AuditEntry['answer'] | undefined;
  // Set once the question went out as input_required: whatever else ended the run, that is the answer.
  let inputRequired: InputRequiredError | undefined;

  const since = new TaintSinceAllow();
  const ask = async (
    request: ConfirmRequest,
    scope: CallScope,
    next: PlannedCall,
    untrusted: TaintSource[] = [],
  ): Promise<boolean> => {
    const release = hold?.();
    const plan = ledger.plan(next, request.args);
    try {
      const answer = await scope.ctx.elicit(
        decisionQuestion(planText(plan, request.reason, untrusted), 'Run this script?', [
          { const: 'allow-script', title: 'Allow this script' },
          { const: 'deny', title: 'Deny' },
        ]),
      );
      const yes = answer.action === 'accept' && answer.content?.decision === 'allow-script';
      asked = yes ? 'allow-once' : answer.action === 'accept' ? 'deny' : answer.action;
      if (!yes) denial = new ScriptError('stopped', `The person denied this script at ${next.tool}; it stopped there.`);
      return yes;
    } catch (error) {
      if (error instanceof InputRequiredError) {
        // 2026-07-28: the question goes out as input_required; the client retries the whole run with the answer.
        scope.inputRequired = error;
        inputRequired = error;
        throw error;
      }
      denial = new ScriptError(
        'stopped',
        `The script needs a person's approval to call ${next.tool}, and none could be asked (${(error as Error).message}); it stopped there.`,
      );
      return false;
    } finally {
      release?.();
    }
  };

  const offered = new Set(options.names);
  const call = async (name: string, args: unknown, signal: AbortSignal): Promise<unknown> => {
    const tool = offered.has(name) ? tools.callable(name) : undefined;
    if (tool === undefined) throw new Error(`Unknown tool: ${name}.`);
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      throw new Error(`${name} takes one object of arguments.`);
    const next = plannedCall(name, tool.hints);
    const script: ScriptCall = {
      record: (entry) => entries.push(entry),
      confirm: async (request, scope): Promise<ConfirmAnswer> => {
        // The person's allow came before this untrusted content: it cannot cover it.
        const untrusted = allowed ? since.arrivedSince(request.taint) : [];
        // One question per run (calls that need an answer while it is open wait for it), and
        // one more each time untrusted content arrived after an allow.
        if ((!allowed || untrusted.length > 0) && denial === undefined) {
          try {
            if (untrusted.length > 0) question = ask(request, scope, next, untrusted);
            else question ??= ask(request, scope, next);
            allowed = await question;
            if (allowed) since.allowed();
          } catch {
            return 'deny';
          }
        }
        scope.asked = {
          request,
          answer: allowed ? 'allow-once' : 'deny',
          detail:
            untrusted.length > 0
              ? 'the script was asked again: untrusted content arrived after it was allowed'
              : 'the script was asked about',
        };
        return allowed ? 'allow-once' : 'deny';
      },
    };
    const nested = nestedContext(ctx, tool, args as Record<string, unknown>, script, signal);
    let result: CallToolResult;
    try {
      const run = () => options.middleware(nested, async () => (await tool.handler(args, nested)) as CallToolResult);
      result = options.tracer ? await options.tracer(tool, run) : await run();
    } catch (error) {
      if (error instanceof InputRequiredError) throw new HaltScript(error);
      since.called(catalogName(tool));
      made.push({ ...next, outcome: 'failed' });
      throw error;
    }
    since.called(catalogName(tool));
    if (denial !== undefined) {
      made.push({ ...next, outcome: 'denied' });
      throw new HaltScript(denial);
    }
    made.push({ ...next, outcome: result.isError ? 'error' : 'ok' });
    if (result.isError) throw new Error(textOf(result) || `${name} failed.`);
    return scriptValue(result, tool.wire.outputSchema !== undefined);
  };

  let outcome: ScriptOutcome | undefined;
  let failure: unknown;
  try {
    outcome = await runScript({
      code: options.code,
      names: options.names,
      call,
      limits: options.limits,
      signal: ctx.signal,
      onClock: (clock) => {
        hold = () => clock.hold();
      },
    });
    return outcome;
  } catch (error) {
    failure = inputRequired ?? error;
    throw failure;
  } finally {
    // An input_required round is not a run: the client retries, and that run is recorded.
    if (options.record && !(failure instanceof InputRequiredError)) {
      options.record(runEntry(ctx, options.code, performance.now() - started, entries, asked, failure));
    }
  }
}

/** The host catalog's name of a proxied tool (taint sources name tools so, whatever the prefix setting). */
function catalogName(tool: ToolDefinition): string {
  const meta = tool.meta?.[GATEWAY_META_KEY] as { server?: string; tool?: string } | undefined;
  return meta?.server !== undefined && meta.tool !== undefined ? `${meta.server}__${meta.tool}` : tool.name;
}

function runEntry(
  ctx: ToolContext,
  code: string,
  durationMs: number,
  calls: AuditEntry[],
  answer: AuditEntry['answer'],
  failure: unknown,
): AuditEntry {
  const entry: AuditEntry = {
    time: new Date().toISOString(),
    tool: ctx.tool.name,
    decision: answer === undefined ? 'allow' : 'ask',
    decidedBy: answer === undefined ? 'gateway' : 'person',
    pin: 'none',
    durationMs: Math.round(durationMs * 1000) / 1000,
    outcome:
      failure === undefined ? 'ok' : failure instanceof ScriptError && failure.kind === 'stopped' ? 'denied' : 'error',
    args: auditArgs({ code }),
    calls,
  };
  if (answer !== undefined) entry.answer = answer;
  if (failure instanceof ScriptError) entry.failure = failure.kind;
  if (ctx.session) entry.session = ctx.session.id;
  const principal = ctx.auth?.subject ?? ctx.auth?.clientId;
  if (principal !== undefined) entry.principal = principal;
  return entry;
}

/**
 * The context of one call a script makes: the script's request (its client, its
 * person, its questions) with the called tool in it, cancelled with the request or
 * when the run ends. Progress of nested calls is not passed on: each upstream counts
 * its own, and the client's token must only go up.
 */
function nestedContext(
  parent: ToolContext,
  tool: ToolDefinition,
  args: Record<string, unknown>,
  script: ScriptCall,
  ended: AbortSignal,
): CallContext & { [SCRIPT_CALL]: ScriptCall } {
  const local = new AbortController();
  let signal: AbortSignal | undefined;
  const state = new Map<string, unknown>();
  return {
    [SCRIPT_CALL]: script,
    tool,
    args,
    get signal() {
      signal ??= AbortSignal.any([parent.signal, ended, local.signal]);
      return signal;
    },
    onAbort(listener) {
      let done = false;
      const once = (reason: unknown) => {
        if (done) return;
        done = true;
        listener(reason);
      };
      const stopParent = parent.onAbort(once);
      const onEnded = () => once(ended.reason);
      ended.addEventListener('abort', onEnded, { once: true });
      if (ended.aborted) onEnded();
      return () => {
        stopParent();
        ended.removeEventListener('abort', onEnded);
      };
    },
    abort: (reason) => local.abort(reason),
    requestId: parent.requestId,
    era: parent.era,
    ...(parent.auth ? { auth: parent.auth } : {}),
    ...(parent.session ? { session: parent.session } : {}),
    ...(parent.http ? { http: parent.http } : {}),
    state,
    clientCapabilities: parent.clientCapabilities,
    progress: async () => {},
    log: (level, data, logger) => parent.log(level, data, logger),
    elicit: (params, options) => parent.elicit(params, options),
    elicitationComplete: (id) => parent.elicitationComplete(id),
    confirm: (message, options) => parent.confirm(message, options),
    sample: (params, options) => parent.sample(params, options),
    listRoots: (options) => parent.listRoots(options),
    becomeTask: async () => {},
  };
}
