/**
 * Framework steps as host batches. Agent frameworks run every tool
 * call of a model step at once, writes included, each through its own
 * `execute`. The step batcher gathers the calls started together (before the
 * event loop turns: most frameworks start a step's calls from one tick and a
 * chain of promises) into one `host.run` batch, so reads overlap and writes run
 * one at a time, in the order the model gave them.
 *
 * Some frameworks start a step's calls a few event-loop turns apart (LangGraph
 * runs each call as its own task). So batches queue in arrival order: a batch
 * the host would run entirely side by side (vouched reads, per `host.decide`)
 * may start while other such batches run; any other batch waits until nothing
 * runs, and holds back the batches behind it until it is done. Writes of
 * different batches therefore never overlap each other or a read.
 */
import type { CallDecision, CallOutcome, RunOptions, ToolCall } from './types.js';

/** The part of a host the batcher needs. */
export interface BatchRunner {
  run(calls: readonly ToolCall[], options?: RunOptions): Promise<CallOutcome[]>;
  /** With it, batches of reads the host runs side by side may overlap other such batches. */
  decide?(tool: string, args?: Record<string, unknown>): Promise<Pick<CallDecision, 'parallel'>>;
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

interface Batch {
  calls: Pending[];
  /** Every call is one the host runs side by side: the batch may overlap other shared batches. */
  shared: boolean;
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
  let gathering = false;
  /** Batches in arrival order, waiting for their turn. */
  const queue: Batch[] = [];
  let sharedRunning = 0;
  let exclusiveRunning = false;
  /** Keeps batches in arrival order while their calls are being decided. */
  let arrivals: Promise<void> = Promise.resolve();

  const execute = async (batch: Batch): Promise<void> => {
    const signal = batch.calls[0]!.signal;
    try {
      const outcomes = await host.run(
        batch.calls.map((p) => p.call),
        signal ? { ...options.run, signal } : options.run,
      );
      batch.calls.forEach((p, i) => {
        p.resolve(outcomes[i]!);
      });
    } catch (error) {
      for (const p of batch.calls) p.reject(error);
    }
  };

  const pump = (): void => {
    while (queue.length > 0 && !exclusiveRunning) {
      const batch = queue[0]!;
      if (!batch.shared && sharedRunning > 0) return;
      queue.shift();
      if (batch.shared) sharedRunning++;
      else exclusiveRunning = true;
      void execute(batch).then(() => {
        if (batch.shared) sharedRunning--;
        else exclusiveRunning = false;
        pump();
      });
    }
  };

  const shareable = async (call: ToolCall): Promise<boolean> => {
    if (!host.decide || call === null || typeof call !== 'object' || typeof call.tool !== 'string') return false;
    try {
      return (await host.decide(call.tool, call.args)).parallel === true;
    } catch {
      return false;
    }
  };

  const flush = (): void => {
    gathering = false;
    const gathered = pending;
    pending = [];
    // Consecutive calls that share a signal form one batch.
    const groups: Pending[][] = [];
    for (const p of gathered) {
      const last = groups.at(-1);
      if (last && last[0]!.signal === p.signal) last.push(p);
      else groups.push([p]);
    }
    arrivals = arrivals.then(async () => {
      for (const calls of groups) {
        const shared = (await Promise.all(calls.map((p) => shareable(p.call)))).every(Boolean);
        queue.push({ calls, shared });
      }
      pump();
    });
  };

  return {
    call(call, callOptions = {}) {
      return new Promise<CallOutcome>((resolve, reject) => {
        pending.push({ call, signal: callOptions.signal, resolve, reject });
        if (gathering) return;
        gathering = true;
        // setImmediate runs after every pending microtask: a step's calls, started through promise
        // chains of any length from one tick, are all gathered by then.
        setImmediate(flush);
      });
    },
  };
}
