/**
 * Framework steps as host batches (issue 23). Agent frameworks run every tool
 * call of a model step at once, writes included, each through its own
 * `execute`. The step batcher gathers the calls started together (before the
 * event loop turns: the frameworks start a step's calls from one tick and a
 * chain of promises) into one `host.run` batch, so reads overlap and writes run
 * one at a time, in the order the model gave them.
 *
 * Batches never overlap: calls that arrive while a batch runs wait for it and
 * form the next one, so a write of a late call cannot run beside an earlier
 * batch's write either.
 */
import type { CallOutcome, RunOptions, ToolCall } from './types.js';

/** The part of a host the batcher needs. */
export interface BatchRunner {
  run(calls: readonly ToolCall[], options?: RunOptions): Promise<CallOutcome[]>;
}

/** Options of one gathered call. */
export interface StepCallOptions {
  /** The framework's abort signal for the call; calls are batched with others that share it. */
  signal?: AbortSignal;
}

/** Gathers calls into batches. */
export interface StepBatcher {
  /** Run one call as part of the batch being gathered; resolves with its outcome. */
  call(call: ToolCall, options?: StepCallOptions): Promise<CallOutcome>;
}

/** Options of `createStepBatcher`. */
export interface StepBatcherOptions {
  /** Run options for every batch (concurrency, timeout, `_meta`). */
  run?: Omit<RunOptions, 'signal'>;
}

interface Pending {
  call: ToolCall;
  signal: AbortSignal | undefined;
  resolve(outcome: CallOutcome): void;
  reject(error: unknown): void;
}

/**
 * Make a step batcher over a host.
 *
 * @example
 * ```ts
 * const step = createStepBatcher(host);
 * // Started together, as a framework starts a step's tool calls:
 * const [a, b] = await Promise.all([
 *   step.call({ tool: 'fs__read_file', args: { path: 'a' } }),
 *   step.call({ tool: 'fs__read_file', args: { path: 'b' } }),
 * ]); // one host.run batch: the two reads overlap
 * ```
 */
export function createStepBatcher(host: BatchRunner, options: StepBatcherOptions = {}): StepBatcher {
  let pending: Pending[] = [];
  let scheduled = false;
  let busy = false;

  const runGroup = async (group: Pending[]): Promise<void> => {
    const signal = group[0]!.signal;
    try {
      const outcomes = await host.run(
        group.map((p) => p.call),
        signal ? { ...options.run, signal } : options.run,
      );
      group.forEach((p, i) => {
        p.resolve(outcomes[i]!);
      });
    } catch (error) {
      for (const p of group) p.reject(error);
    }
  };

  const schedule = () => {
    if (scheduled || busy || pending.length === 0) return;
    scheduled = true;
    // setImmediate runs after every pending microtask: a step's calls, started through promise
    // chains of any length from one tick, are all gathered by then.
    setImmediate(flush);
  };

  const flush = async () => {
    scheduled = false;
    busy = true;
    const gathered = pending;
    pending = [];
    // Consecutive calls that share a signal form one batch; batches run one after another.
    const groups: Pending[][] = [];
    for (const p of gathered) {
      const last = groups.at(-1);
      if (last && last[0]!.signal === p.signal) last.push(p);
      else groups.push([p]);
    }
    for (const group of groups) await runGroup(group);
    busy = false;
    // Calls that arrived meanwhile have been gathering: they are the next batch.
    schedule();
  };

  return {
    call(call, callOptions = {}) {
      return new Promise<CallOutcome>((resolve, reject) => {
        pending.push({ call, signal: callOptions.signal, resolve, reject });
        schedule();
      });
    },
  };
}
