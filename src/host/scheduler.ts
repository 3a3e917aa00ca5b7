/**
 * The batch scheduler: runs of consecutive
 * read-only calls go in parallel up to a cap; every other call is a barrier
 * and runs alone; outcomes come back in request order. A failing read does
 * not cancel its siblings; a failing write stops the rest of the batch, which
 * is reported as skipped. An aborted batch cancels what is in flight and
 * starts nothing more.
 */
import type { CallOutcome } from './types.js';

/** How one call of a batch is to be scheduled. */
export interface CallPlan {
  /** May run alongside neighbouring parallel calls (a vouched read-only call). */
  parallel: boolean;
  /** Changes something: when it fails, the rest of the batch is skipped. */
  write: boolean;
  /** For messages: `#2 fs__write_file`. */
  label: string;
}

/** What the scheduler needs from its host. */
export interface ScheduleHooks {
  /** Run one call; must resolve (never reject) with its outcome, honouring `signal`. */
  perform(index: number, signal: AbortSignal): Promise<CallOutcome>;
  /** The outcome of a call that never started because an earlier write failed. */
  skipped(index: number, message: string): CallOutcome;
  /** The outcome of a call that never started because the batch was aborted. */
  cancelled(index: number): CallOutcome;
}

/**
 * Run a batch.
 *
 * @example
 * ```ts
 * const outcomes = await schedule(plans, hooks, { concurrency: 4, signal });
 * ```
 */
export async function schedule(
  plans: readonly CallPlan[],
  hooks: ScheduleHooks,
  options: { concurrency: number; signal?: AbortSignal },
): Promise<CallOutcome[]> {
  const outcomes: CallOutcome[] = new Array(plans.length);
  const signal = options.signal ?? NEVER_ABORTED;
  const concurrency = Math.max(1, Math.floor(options.concurrency));

  let index = 0;
  while (index < plans.length) {
    if (signal.aborted) break;
    const plan = plans[index]!;
    if (!plan.parallel) {
      const outcome = await hooks.perform(index, signal);
      outcomes[index] = outcome;
      index++;
      if (plan.write && outcome.status !== 'ok') {
        const message = `skipped: ${plan.label} ended ${outcome.status}, and a failed write stops the rest of the batch.`;
        for (; index < plans.length; index++) outcomes[index] = hooks.skipped(index, message);
      }
      continue;
    }
    let end = index;
    while (end < plans.length && plans[end]!.parallel) end++;
    await runGroup(index, end, concurrency, signal, hooks, outcomes);
    index = end;
  }
  for (let i = 0; i < plans.length; i++) outcomes[i] ??= hooks.cancelled(i);
  return outcomes;
}

/** The signal of a batch nobody can abort (shared: no controller per batch). */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;

/** Run calls [start, end) with at most `concurrency` in flight; siblings' failures do not stop the others. */
async function runGroup(
  start: number,
  end: number,
  concurrency: number,
  signal: AbortSignal,
  hooks: ScheduleHooks,
  outcomes: CallOutcome[],
): Promise<void> {
  let next = start;
  const worker = async (): Promise<void> => {
    while (next < end && !signal.aborted) {
      const index = next++;
      outcomes[index] = await hooks.perform(index, signal);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, end - start) }, worker));
}
