/**
 * One call's path through the host: resolve the tool, check the command gate,
 * decide (policy, pins), ask a person when needed, send, time out, retry
 * after transport failures when that is safe, and describe the outcome.
 */
import { backoffDelay, classifyFailure, type RetryOptions, sleep } from './call-failure.js';
import type { Catalog } from './catalog.js';
import { checkCommand, type GateVerdict } from './command-gate/gate.js';
import type { Confirmations } from './confirmations.js';
import { HookedAbort } from './hooked-abort.js';
import type { PinGuard } from './pins/pin-guard.js';
import type { Policy } from './policy.js';
import { type CallPlan, NEVER_ABORTED } from './scheduler.js';
import { afterResult, taintVerdict } from './taint.js';
import type {
  CallDecision,
  CallOutcome,
  CallStatus,
  CatalogTool,
  ConfirmRequest,
  ConnectionCallOptions,
  HostConnection,
  PolicyDecision,
  RoutedRunOptions,
  TaintMode,
  TaintSession,
  TaintSource,
  ToolCall,
} from './types.js';

/** Who makes the call: the model (through `run`) or an MCP App view (through `callFromApp`). */
export type CallOrigin = 'model' | 'app';

/** A call with its tool resolved and its command judged. */
export interface PreparedCall {
  index: number;
  call: ToolCall;
  origin: CallOrigin;
  tool?: CatalogTool;
  args: Record<string, unknown>;
  command?: { text: string; verdict: GateVerdict };
  /** Set when the call cannot even be attempted (unknown tool, bad arguments). */
  problem?: string;
}

/** What a runner needs from the host. */
export interface CallRunnerDeps {
  catalog: Catalog;
  policy: Policy;
  pins?: PinGuard;
  confirmations: Confirmations;
  connection(server: string): HostConnection | undefined;
  /** The argument holding the command line, for command-gated tools. */
  commandArgument(tool: CatalogTool): string | undefined;
  /** Called after allow-always re-approved a changed tool's pin. */
  onPinApproved(tool: CatalogTool): void;
  retry: RetryOptions;
  defaultTimeoutMs: number;
  /** The host's own session (calls that name none) and how taint is treated by default. */
  taint: { session: TaintSession; mode: TaintMode };
}

/** The session a call belongs to and how its taint is treated. */
interface TaintScope {
  session: TaintSession;
  mode: TaintMode;
}

/** A call's decision with what authorising it needs to know. */
interface Judgement {
  decision: PolicyDecision;
  reason: string;
  /** Shown to the person: whether allow-always counts. */
  canRemember: boolean;
  /** Whether the policy lets allow-always be remembered for the tool. */
  rememberable: boolean;
  /** Whether the question is (also) the pin's: approving re-pins the tool. */
  pinAsk: boolean;
  warnings: string[];
  /** The earlier results that make the call ask (or be refused). */
  taint?: TaintSource[];
}

/** Runs calls for the host. */
export class CallRunner {
  readonly #deps: CallRunnerDeps;

  constructor(deps: CallRunnerDeps) {
    this.#deps = deps;
  }

  /** Resolve a call's tool and, for a command-gated tool, judge its command. */
  async prepare(call: ToolCall, index: number, origin: CallOrigin): Promise<PreparedCall> {
    const prepared: PreparedCall = { index, call, origin, args: {} };
    if (call === null || typeof call !== 'object' || typeof call.tool !== 'string') {
      prepared.problem = 'each call needs a "tool" name (a string)';
      return prepared;
    }
    const tool = this.#deps.catalog.get(call.tool);
    if (!tool) {
      prepared.problem = `no tool named ${call.tool}; the host offers ${this.#deps.catalog.all().length} tools (see host.tools()).`;
      return prepared;
    }
    prepared.tool = tool;
    if (call.args !== undefined && (call.args === null || typeof call.args !== 'object' || Array.isArray(call.args))) {
      prepared.problem = `the arguments of ${tool.name} must be an object`;
      return prepared;
    }
    prepared.args = call.args ?? {};
    const argument = this.#deps.commandArgument(tool);
    if (argument !== undefined) {
      const text = prepared.args[argument];
      const verdict: GateVerdict =
        typeof text === 'string'
          ? await checkCommand(text)
          : { decision: 'ask', reasons: [`the "${argument}" argument is not a string`], commands: [] };
      prepared.command = { text: typeof text === 'string' ? text : String(text), verdict };
    }
    return prepared;
  }

  /** How the scheduler should treat a prepared call. */
  plan(prepared: PreparedCall): CallPlan {
    const { tool } = prepared;
    const label = `call #${prepared.index + 1} (${prepared.call?.tool ?? '?'})`;
    if (!tool) return { parallel: false, write: false, label };
    const readOnly = readOnlyCall(prepared);
    // Running side by side is a relaxation: only a vouched read earns it.
    const vouched = tool.trust === 'trusted' || prepared.command?.verdict.decision === 'allow';
    return { parallel: readOnly && vouched, write: !readOnly, label };
  }

  /** Authorise and run one prepared call; never rejects. */
  async perform(
    prepared: PreparedCall,
    signal: AbortSignal,
    parallel: boolean,
    run: Pick<
      RoutedRunOptions,
      'timeoutMs' | 'onProgress' | 'meta' | 'connection' | 'confirmContext' | 'onAbort' | 'taint' | 'taintMode'
    > = {},
  ): Promise<CallOutcome> {
    const outcome = this.#outcome(prepared, parallel);
    if (signal.aborted) return finish(outcome, 'cancelled', 'the batch was aborted before this call started.');
    if (prepared.problem || !prepared.tool) return finish(outcome, 'error', prepared.problem ?? 'unknown tool');
    // A caller's abort hook stands in for a batch signal it did not give (see hooked-abort.ts).
    const cancel = signal === NEVER_ABORTED && run.onAbort ? new HookedAbort(run.onAbort) : signal;
    const taint = this.#taintScope(run);
    const denied = await this.#authorize(prepared, cancel, outcome, run.confirmContext, taint);
    if (denied) return denied;
    const done = await this.#execute(prepared, prepared.tool, cancel, outcome, run);
    // Whatever the tool answered (an error's text too) is now in the conversation.
    if (done.result) taint.session.state = afterResult(taint.session.state, prepared.tool, done.result);
    return done;
  }

  #taintScope(run: { taint?: TaintSession | undefined; taintMode?: TaintMode | undefined }): TaintScope {
    return { session: run.taint ?? this.#deps.taint.session, mode: run.taintMode ?? this.#deps.taint.mode };
  }

  #outcome(prepared: PreparedCall, parallel: boolean): CallOutcome {
    const { tool } = prepared;
    const outcome: CallOutcome = {
      index: prepared.index,
      tool: tool?.name ?? String(prepared.call?.tool),
      status: 'ok',
      // Open-world results, and anything from a server whose word is not trusted, are data, not instructions.
      untrustedContent: tool ? tool.hints.openWorldHint || tool.trust !== 'trusted' : true,
      attempts: 0,
      parallel,
      warnings: [...(tool?.warnings ?? [])],
    };
    if (prepared.call?.id !== undefined) outcome.id = prepared.call.id;
    if (tool) outcome.server = tool.server;
    return outcome;
  }

  /**
   * What the host would do with a prepared call now: visibility, policy, pins,
   * remembered approvals and the command gate, in the order a call meets them.
   * Changes nothing (no question, no pin, no remembered answer).
   */
  decide(prepared: PreparedCall, run: { taint?: TaintSession; taintMode?: TaintMode } = {}): CallDecision {
    const judgement = this.#judge(prepared, this.#taintScope(run));
    const decision: CallDecision = {
      decision: judgement.decision,
      reason: judgement.reason,
      canRemember: judgement.canRemember,
      parallel: this.plan(prepared).parallel,
    };
    if (judgement.taint) decision.taint = judgement.taint;
    if (prepared.tool) {
      decision.pinHash = prepared.tool.hash;
      decision.tool = prepared.tool.name;
    }
    return decision;
  }

  #judge(prepared: PreparedCall, taint: TaintScope): Judgement {
    const tool = prepared.tool;
    const judgement = (decision: PolicyDecision, reason: string, extra: Partial<Judgement> = {}): Judgement => ({
      decision,
      reason,
      canRemember: false,
      rememberable: false,
      pinAsk: false,
      warnings: [],
      ...extra,
    });
    if (prepared.problem || !tool) return judgement('deny', prepared.problem ?? 'unknown tool');
    const { policy, pins, confirmations } = this.#deps;
    // MCP Apps: filter on "does not include", never "equals" (MCP Apps, `_meta.ui.visibility`).
    if (prepared.origin === 'model' && !tool.visibility.includes('model')) {
      return judgement('deny', `${tool.name} is visible only to apps (_meta.ui.visibility lacks "model").`);
    }
    if (prepared.origin === 'app' && !tool.visibility.includes('app')) {
      return judgement('deny', `${tool.name} may not be called by an app (_meta.ui.visibility lacks "app").`);
    }
    const verdict = policy.decide(prepared.command ? { tool, command: prepared.command.verdict } : { tool });
    const tainted = taintVerdict(taint.session.state, { tool, readOnly: readOnlyCall(prepared) }, taint.mode);
    if (verdict.decision === 'deny') {
      // Plan mode refuses the call anyway; the person still learns what else stood in its way.
      const also = tainted ? ` Also: ${tainted.reason}` : '';
      return judgement('deny', `${verdict.reason}${also}`, tainted ? { taint: tainted.sources } : {});
    }
    const pin = pins?.verdict(tool) ?? { decision: 'allow' as const };
    if (pin.decision === 'deny') return judgement('deny', pin.reason!);
    const warnings = pin.warning ? [pin.warning] : [];

    let decision = verdict.decision;
    let reason = verdict.reason;
    let pinAsk = false;
    if (pin.decision === 'ask') {
      if (policy.preset === 'yolo') warnings.push(pin.reason!);
      else {
        pinAsk = true;
        reason = decision === 'ask' ? `${pin.reason} Also: ${verdict.reason}` : pin.reason!;
        decision = 'ask';
      }
    }
    if (tainted) {
      // Before remembered answers: allow-always was given for content the person could see, not this.
      const why = `${capitalise(tainted.reason)}${decision === 'ask' ? ` Also: ${reason}` : ''}`;
      if (tainted.decision === 'deny')
        return judgement('deny', `${why} Taint is set to "deny", so the call is refused.`, { taint: tainted.sources });
      return judgement('ask', why, { pinAsk, warnings, taint: tainted.sources });
    }
    const rememberable = verdict.canRemember;
    if (decision === 'ask' && !pinAsk && rememberable && confirmations.remembered(tool)) {
      return judgement('allow', `${tool.name} was allowed always earlier (at this definition).`, {
        canRemember: true,
        rememberable,
        warnings,
      });
    }
    return judgement(decision, reason, { canRemember: rememberable || pinAsk, rememberable, pinAsk, warnings });
  }

  /** Returns a finished outcome when the call may not run, `undefined` when it may. */
  async #authorize(
    prepared: PreparedCall,
    cancel: Cancellation,
    outcome: CallOutcome,
    confirmContext: unknown,
    taint: TaintScope,
  ): Promise<CallOutcome | undefined> {
    const tool = prepared.tool!;
    const { pins, confirmations } = this.#deps;
    const judgement = this.#judge(prepared, taint);
    outcome.warnings.push(...judgement.warnings);
    if (judgement.decision === 'deny') return finish(outcome, 'denied', judgement.reason);
    if (judgement.decision === 'allow') return undefined;

    const grant = (always: boolean): undefined => {
      if (!always) return undefined;
      if (judgement.rememberable) confirmations.remember(tool);
      if (judgement.pinAsk && pins) {
        pins.approve(tool);
        this.#deps.onPinApproved(tool);
      }
      return undefined;
    };
    let { reason } = judgement;
    const { approval } = prepared.call;
    if (approval !== undefined) {
      // Bound to the definition the person saw: a tool that changed since must be asked about again.
      if (approval !== null && typeof approval === 'object' && approval.pinHash === tool.hash) {
        return grant(approval.always === true);
      }
      reason = `${tool.name} changed since the call was approved (the approval was for another definition), so it asks again. ${reason}`;
    }

    const request: ConfirmRequest = {
      tool: tool.name,
      server: tool.server,
      title: tool.title,
      args: prepared.args,
      hints: { ...tool.hints },
      trust: tool.trust,
      reason,
      canRemember: judgement.canRemember,
      pin: tool.pin,
    };
    if (prepared.command) request.command = { text: prepared.command.text, ...prepared.command.verdict };
    if (judgement.taint) request.taint = judgement.taint;
    const answer = await confirmations.ask(request, signalOf(cancel), confirmContext);
    switch (answer) {
      case 'allow-once':
        return undefined;
      case 'allow-always':
        return grant(true);
      case 'cancelled':
        return finish(outcome, 'cancelled', 'the batch was aborted while waiting for confirmation.');
      case 'no-handler':
        return finish(
          outcome,
          'denied',
          `${reason} Confirmation is needed and the host has no onConfirm, so it denies.`,
        );
      case 'timed-out':
        return finish(outcome, 'denied', `${reason} Nobody confirmed in time.`);
      case 'failed':
        return finish(outcome, 'denied', `${reason} onConfirm failed, so the call is denied.`);
      default:
        return finish(outcome, 'denied', 'the user denied this call.');
    }
  }

  async #execute(
    prepared: PreparedCall,
    tool: CatalogTool,
    signal: Cancellation,
    outcome: CallOutcome,
    run: Pick<RoutedRunOptions, 'timeoutMs' | 'onProgress' | 'meta' | 'connection'>,
  ): Promise<CallOutcome> {
    const { timeoutMs: batchTimeoutMs, onProgress, meta } = run;
    let connection: HostConnection | undefined;
    try {
      // A caller may name the connection (the gateway: one per person for "oauth-per-user" servers),
      // reached only now that the call is authorised.
      connection = run.connection ? await run.connection(tool.server) : this.#deps.connection(tool.server);
    } catch (error) {
      return finish(outcome, 'error', (error as Error)?.message ?? String(error));
    }
    if (!connection) return finish(outcome, 'error', `server ${tool.server} is not connected.`);
    const timeoutMs =
      prepared.call.timeoutMs ?? batchTimeoutMs ?? connection.config.timeoutMs ?? this.#deps.defaultTimeoutMs;
    const readOnly = readOnlyCall(prepared);
    const vouched = tool.trust === 'trusted' || prepared.command?.verdict.decision === 'allow';
    // Repeating is safe only for reads and idempotent tools, and only on a trusted word.
    const retryable = vouched && (readOnly || (tool.trust === 'trusted' && tool.hints.idempotentHint));
    const maxAttempts = retryable ? Math.max(1, this.#deps.retry.attempts ?? 3) : 1;

    for (let attempt = 1; ; attempt++) {
      if (signal.aborted) return finish(outcome, 'cancelled', 'the batch was aborted.');
      if (connection.needsReconnect) {
        try {
          await connection.connect();
        } catch (error) {
          // Nothing was sent on this attempt.
          if (attempt < maxAttempts && (await pause(attempt, this.#deps.retry, signalOf(signal)))) continue;
          if (signal.aborted) return finish(outcome, 'cancelled', 'the batch was aborted.');
          return finish(outcome, 'error', `cannot reach ${tool.server}: ${(error as Error).message}`);
        }
      }
      outcome.attempts = attempt;
      try {
        // The SDK times the call out itself (and tells the server to cancel). A batch signal is passed
        // only when the caller gave one: the SDK's handling of a signal costs tens of microseconds a call.
        const options: ConnectionCallOptions =
          signal === NEVER_ABORTED
            ? { timeoutMs }
            : signal instanceof HookedAbort
              ? { onAbort: signal.hook, timeoutMs }
              : { signal, timeoutMs };
        if (onProgress) options.onProgress = (progress) => onProgress(prepared.index, progress);
        if (meta) options.meta = meta;
        const result = await connection.callTool(tool.toolName, prepared.args, options);
        outcome.result = result;
        return result.isError ? finish(outcome, 'error', resultText(result) || 'the tool reported an error.') : outcome;
      } catch (error) {
        if (signal.aborted)
          return finish(outcome, 'cancelled', 'the batch was aborted; the server was told to cancel.');
        const kind = classifyFailure(error);
        const message = (error as Error)?.message ?? String(error);
        if (kind === 'timeout') {
          return finish(outcome, 'timeout', `no answer within ${timeoutMs} ms; the call was cancelled.`);
        }
        if (kind !== 'transport') return finish(outcome, 'error', message);
        if (attempt < maxAttempts && (await pause(attempt, this.#deps.retry, signalOf(signal)))) continue;
        if (signal.aborted) return finish(outcome, 'cancelled', 'the batch was aborted.');
        if (retryable) return finish(outcome, 'error', `transport failure after ${attempt} attempts: ${message}`);
        return finish(
          outcome,
          'unknown',
          `transport failure (${message}); the call may or may not have run, and it is not safe to repeat (not a read-only or idempotent tool of a trusted server).`,
        );
      }
    }
  }
}

/** Whether a call only reads: the gate's word for command-gated tools, the hints otherwise. */
function readOnlyCall(prepared: PreparedCall): boolean {
  if (prepared.command) return prepared.command.verdict.decision === 'allow';
  return prepared.tool?.hints.readOnlyHint ?? false;
}

/** Back off before a retry; false when the batch was aborted meanwhile. */
async function pause(attempt: number, retry: RetryOptions, signal: AbortSignal): Promise<boolean> {
  try {
    await sleep(backoffDelay(attempt, retry), signal);
    return true;
  } catch {
    return false;
  }
}

/** A call's cancellation: the batch's signal, or a caller's hook (read as `aborted`). */
type Cancellation = AbortSignal | HookedAbort;

function signalOf(cancel: Cancellation): AbortSignal {
  return cancel instanceof HookedAbort ? cancel.signal : cancel;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function finish(outcome: CallOutcome, status: CallStatus, message: string): CallOutcome {
  outcome.status = status;
  outcome.message = message;
  return outcome;
}

function resultText(result: { content?: unknown }): string {
  if (!Array.isArray(result.content)) return '';
  return result.content
    .filter(
      (block): block is { type: 'text'; text: string } => block?.type === 'text' && typeof block.text === 'string',
    )
    .map((block) => block.text)
    .join('\n');
}
