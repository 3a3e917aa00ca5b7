/**
 * Code mode for an agent built on `candor/host`: run the model's script in the
 * sandbox over the host's tools. Each call is decided by the host's policy
 * (`host.decide`, the same decision `host.call` makes) and run by `host.call`,
 * so pins, trust, plan mode and the command gate hold inside scripts. The first
 * call the policy would ask about pauses the script and asks `ask` once with the
 * plan; allowing runs the rest without asking, denying stops the script.
 */
import type { CallToolResult } from '../../tool/types.js';
import type { Host } from '../host-api.js';
import { checkScriptLimits } from './limits.js';
import { runScript } from './sandbox.js';
import { HaltScript, ScriptError } from './script-error.js';
import { plannedCall, planText, ScriptLedger } from './script-plan.js';
import { TaintSinceAllow } from './script-taint.js';
import type { ScriptLimits, ScriptOutcome, ScriptPlan } from './types.js';

/** What `ask` is shown: the question in words, and the plan as data. */
export interface ScriptQuestion {
  text: string;
  plan: ScriptPlan;
  /** Why the policy asks about the waiting call. */
  reason: string;
}

/** Options of {@link runHostScript}. */
export interface HostScriptOptions {
  /** The script: the body of an async function; tools are `tools.<name>(args)`. */
  code: string;
  /** Ask the person once; true runs the rest of the script. Without it, a call that needs a person stops the script. */
  ask?: (question: ScriptQuestion) => boolean | Promise<boolean>;
  limits?: ScriptLimits;
  signal?: AbortSignal;
}

/**
 * Run a script over a host's tools (those `host.tools()` offers the model).
 *
 * @example
 * ```ts
 * import { createHost, runHostScript } from 'candor/host';
 *
 * const host = await createHost({ servers: { notes: { command: 'notes-server' } } });
 * const out = await runHostScript(host, {
 *   code: 'const all = await tools.notes__list({}); return all.length;',
 *   ask: async ({ text }) => confirmWithUser(text),
 * });
 * out.json; // '12'
 * ```
 */
export async function runHostScript(host: Host, options: HostScriptOptions): Promise<ScriptOutcome> {
  const offered = new Map(host.tools().map((tool) => [tool.name, tool]));
  const ledger = new ScriptLedger(options.code, (name) => offered.get(name)?.hints);
  const limits = options.limits === undefined ? undefined : checkScriptLimits(options.limits, 'limits');
  const since = new TaintSinceAllow();
  let allowed = false;
  let question: Promise<boolean> | undefined;
  return runScript({
    code: options.code,
    names: [...offered.keys()],
    ...(limits ? { limits } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    call: async (name, args, signal) => {
      const tool = offered.get(name);
      if (tool === undefined) throw new Error(`Unknown tool: ${name}.`);
      if (typeof args !== 'object' || args === null || Array.isArray(args))
        throw new Error(`${name} takes one object of arguments.`);
      const next = plannedCall(name, tool.hints);
      const decision = await host.decide(name, args as Record<string, unknown>);
      if (decision.decision === 'deny') {
        ledger.made.push({ ...next, outcome: 'denied' });
        throw new Error(decision.reason);
      }
      const untrusted = decision.decision === 'ask' && allowed ? since.arrivedSince(decision.taint) : [];
      if (decision.decision === 'ask' && (!allowed || untrusted.length > 0)) {
        const ask = options.ask;
        if (ask === undefined) {
          throw new HaltScript(
            new ScriptError(
              'stopped',
              `The script needs a person's approval to call ${name}, and no one can be asked.`,
            ),
          );
        }
        const plan = ledger.plan(next, args as Record<string, unknown>);
        const text = planText(plan, decision.reason, untrusted);
        // One question per run, and one more each time untrusted content arrived after an allow.
        if (untrusted.length > 0) question = Promise.resolve(ask({ text, plan, reason: decision.reason }));
        else question ??= Promise.resolve(ask({ text, plan, reason: decision.reason }));
        allowed = (await question) === true;
        if (allowed) since.allowed();
        else {
          ledger.made.push({ ...next, outcome: 'denied' });
          throw new HaltScript(
            new ScriptError('stopped', `The person denied this script at ${name}; it stopped there.`),
          );
        }
      }
      const outcome = await host.call(name, args as Record<string, unknown>, {
        signal,
        ...(decision.decision === 'ask' && decision.pinHash !== undefined
          ? { approval: { pinHash: decision.pinHash } }
          : {}),
      });
      since.called(name);
      ledger.made.push({ ...next, outcome: outcome.status });
      if (outcome.status !== 'ok' || outcome.result === undefined)
        throw new Error((outcome.result && textOf(outcome.result)) || outcome.message || `${name} failed.`);
      return scriptValue(outcome.result, tool.outputSchema !== undefined);
    },
  });
}

/**
 * What a script receives from a call: the structured result of a tool with an
 * output schema, else the text blocks joined (other blocks named, not inlined).
 *
 * @example
 * ```ts
 * scriptValue({ content: [{ type: 'text', text: 'ok' }] }, false); // 'ok'
 * ```
 */
export function scriptValue(result: CallToolResult, structured: boolean): unknown {
  return structured ? (result.structuredContent ?? null) : textOf(result);
}

/** The text blocks of a result, joined. */
export function textOf(result: CallToolResult): string {
  return result.content
    .flatMap((block) => (block.type === 'text' ? [block.text] : [`[${block.type} omitted]`]))
    .join('\n');
}
