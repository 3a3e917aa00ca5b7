/**
 * Bounded cost for every result. The guard first runs on the gateway's own thread for a
 * short slice (an ordinary result, even of a megabyte, takes about a millisecond); if the
 * slice is spent, or a part of the text is too long to search in one step, the work moves
 * to a worker thread with what is left of the result's budget, and the worker is
 * terminated at the deadline. A result whose checks cannot finish in its budget is
 * withheld when it comes from outside, and passed on labelled `unchecked` otherwise; in
 * both cases the reason is stated. No result holds the event loop for more than the slice.
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { CallToolResult } from '../../tool/types.js';
import { Budget, GuardBudgetExceeded, UNBOUNDED } from './budget.js';
import type { GuardJob } from './guard-worker.js';
import { type GuardedTool, guardResult, withheld } from './inspect.js';
import { RESULT_LABELS_KEY } from './labels.js';
import type { GuardedResult, ResultGuardSettings } from './types.js';

/** The default budget per result, in milliseconds. */
export const DEFAULT_BUDGET_MS = 1000;
// On the gateway's thread: this long at most, and parts of at most this many characters per step.
const SLICE_MS = 8;
const MAX_INLINE_SPAN = 32 * 1024;
const MAX_WORKERS = 2;
// How long a result waits for a worker thread to load before it counts as over budget.
const WORKER_LOAD_MS = 15_000;

/** A guarded result, and whether the guard ran out of time on it. */
export type BoundedResult = GuardedResult<CallToolResult> & { overBudget?: boolean };

interface PoolWorker {
  worker: Worker;
  ready: Promise<void>;
  busy: boolean;
}

const idle: PoolWorker[] = [];
// Results waiting for a worker while every one is busy, longest-waiting first.
const waiting: Array<(pooled: PoolWorker) => void> = [];
let live = 0;
let jobs = 0;

/** A free worker goes to the result waiting longest, else back to the idle ones. */
function release(pooled: PoolWorker): void {
  const next = waiting.shift();
  if (next) next(pooled);
  else idle.push(pooled);
}

/** A free worker, within `ms`: at once when one is idle or another may start, else the next one freed. */
function takeWorker(ms: number): Promise<PoolWorker | undefined> {
  const pooled = idle.pop() ?? (live < MAX_WORKERS ? spawn() : undefined);
  if (pooled !== undefined) return Promise.resolve(pooled);
  // Every worker is busy (a hostile result may hold one until its deadline): wait for one,
  // within this result's own budget, instead of withholding the result at once.
  return new Promise((resolve) => {
    const handoff = (freed: PoolWorker) => {
      clearTimeout(timer);
      resolve(freed);
    };
    const timer = setTimeout(() => {
      const at = waiting.indexOf(handoff);
      if (at !== -1) waiting.splice(at, 1);
      resolve(undefined);
    }, ms);
    waiting.push(handoff);
  });
}

function workerUrl(): { url: URL; execArgv?: string[] } {
  // From the sources (tests, tsx) the worker is the built one when there is a build: a worker
  // thread started under vitest does not get tsx's loader (ERR_UNKNOWN_FILE_EXTENSION), and a
  // worker that cannot load withholds every result that needs it.
  if (import.meta.url.endsWith('.ts')) {
    const built = new URL('../../../dist/src/gateway/results/guard-worker.js', import.meta.url);
    if (existsSync(built)) return { url: built };
    return { url: new URL('./guard-worker.ts', import.meta.url), execArgv: ['--import', 'tsx'] };
  }
  return { url: new URL('./guard-worker.js', import.meta.url) };
}

function spawn(): PoolWorker {
  const { url, execArgv } = workerUrl();
  const worker = new Worker(url, execArgv ? { execArgv } : {});
  // A guard worker never keeps the gateway alive on its own.
  worker.unref();
  live++;
  const ready = new Promise<void>((resolve, reject) => {
    const onMessage = (message: { ready?: boolean }) => {
      if (message.ready) {
        worker.off('message', onMessage);
        resolve();
      }
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });
  ready.catch(() => {});
  worker.once('exit', () => {
    live--;
    // A worker stopped at a deadline is replaced for whoever waits for one.
    if (waiting.length > 0) release(spawn());
  });
  return { worker, ready, busy: false };
}

/** Start a worker ahead of need, so a hostile result does not wait for one to load. */
export function warmGuardWorker(): void {
  if (idle.length === 0 && live < MAX_WORKERS) release(spawn());
}

/** Run the guard in a worker; undefined when it did not finish within `ms` (waiting for a free worker included). */
async function inWorker(
  result: CallToolResult,
  tool: GuardedTool,
  settings: ResultGuardSettings,
  ms: number,
): Promise<GuardedResult<CallToolResult> | undefined> {
  const asked = performance.now();
  const pooled = await takeWorker(ms);
  if (pooled === undefined) return undefined;
  // The wait for a free worker counts against the budget; its loading (below) does not.
  const left = ms - (performance.now() - asked);
  if (left <= 0) {
    release(pooled);
    return undefined;
  }
  const id = ++jobs;
  // A worker still loading (the first hostile result after start, on a busy machine) is waited
  // for, up to WORKER_LOAD_MS: its loading holds no thread of the gateway, and counting it would
  // withhold an ordinary large result only because the machine was slow to start a thread.
  let loaded: boolean;
  try {
    loaded = await Promise.race([
      pooled.ready.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), WORKER_LOAD_MS).unref()),
    ]);
  } catch {
    void pooled.worker.terminate();
    return undefined;
  }
  if (!loaded) {
    release(pooled);
    return undefined;
  }
  // The check's own time counts from here.
  const deadline = performance.now() + left;
  return new Promise((resolve) => {
    const timer = setTimeout(
      () => {
        pooled.worker.off('message', onMessage);
        // Stopped where it is, whatever it was doing; a fresh one is started for the next.
        void pooled.worker.terminate();
        warmGuardWorker();
        resolve(undefined);
      },
      Math.max(0, deadline - performance.now()),
    );
    const onMessage = (message: { id?: number; guarded?: GuardedResult<CallToolResult>; error?: string }) => {
      if (message.id !== id) return;
      clearTimeout(timer);
      pooled.worker.off('message', onMessage);
      release(pooled);
      resolve(message.guarded);
    };
    pooled.worker.on('message', onMessage);
    pooled.worker.postMessage({ id, result, tool, settings } satisfies GuardJob);
  });
}

let warmed: Promise<void> | undefined;

/** The guard's one-time set-up, run once per process on a small result, without a budget. */
function warmGuard(): Promise<void> {
  warmed ??= guardResult(
    { content: [{ type: 'text', text: 'password=example <!-- warm-up --> eyJhbGciOiJIUzI1NiJ9' }] },
    { name: 'warm-up', openWorld: true, trusted: false },
    { secrets: 'redact', injection: 'annotate' },
    UNBOUNDED,
  ).then(
    () => undefined,
    () => undefined,
  );
  return warmed;
}

/**
 * Guard a result within its budget (`settings.budgetMs`, default 1000 ms).
 *
 * @example
 * ```ts
 * const { result, overBudget } = await guardWithinBudget(upstreamResult, { name: 'web__fetch', openWorld: true, trusted: false });
 * ```
 */
export async function guardWithinBudget(
  result: CallToolResult,
  tool: GuardedTool,
  settings: ResultGuardSettings = {},
): Promise<BoundedResult> {
  const budgetMs = settings.budgetMs ?? DEFAULT_BUDGET_MS;
  // What the first result would pay once (rules loaded, plans built, WebAssembly compiled) is
  // not the result's cost: paid before its clock starts, it no longer sends a small result to a
  // worker still loading, where a busy machine could withhold it.
  await warmGuard();
  const started = performance.now();
  try {
    return await guardResult(result, tool, settings, new Budget(Math.min(SLICE_MS, budgetMs), MAX_INLINE_SPAN));
  } catch (error) {
    if (!(error instanceof GuardBudgetExceeded)) throw error;
  }
  const left = budgetMs - (performance.now() - started);
  const guarded = left > 0 ? await inWorker(result, tool, settings, left) : undefined;
  if (guarded !== undefined) return guarded;
  const why = `the gateway could not finish checking it for secrets and injected instructions within ${budgetMs} ms`;
  const finding = { kind: 'injection' as const, rule: 'guard-budget-exceeded' };
  if (tool.openWorld || !tool.trusted)
    return {
      result: withheld(tool.name, why, { blocked: ['unchecked'], labels: ['unchecked'], evidence: [finding.rule] }),
      findings: [finding],
      actions: { injection: 'block' },
      overBudget: true,
    };
  return {
    result: {
      ...result,
      _meta: { ...result._meta, [RESULT_LABELS_KEY]: { labels: ['unchecked'], evidence: [finding.rule] } },
    },
    findings: [finding],
    actions: { injection: 'annotate' },
    overBudget: true,
  };
}
