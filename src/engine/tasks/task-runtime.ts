/**
 * Tasks on one server instance: starts a tool call in the
 * background and records it in the {@link TaskStore}, renews the lease of the
 * tasks it runs, hears cancellations made on any instance sharing the store,
 * and fails tasks whose owner stopped renewing (the owner died; its work is
 * lost, but the task never hangs).
 *
 * Era-neutral: the 2025 methods (src/engine/methods/tasks.ts) and the
 * 2026-07-28 extension (src/engine/modern/tasks.ts) both drive it.
 */
import { CandorError, isProtocolError, ProtocolError } from '../../errors.js';
import type { CallToolResult } from '../../tool/types.js';
import type { ServerLogger } from '../../util/logger.js';
import { INTERNAL_ERROR } from '../jsonrpc.js';
import { MemoryTaskStore } from './memory-task-store.js';
import { TaskInputs } from './task-input.js';
import {
  InvalidTaskCursorError,
  isTerminalStatus,
  type TaskOutcome,
  type TaskPage,
  type TaskRecord,
  type TaskStatus,
  type TaskStore,
} from './task-store.js';

/** `createServer({ tasks })`: where tasks live and how long. */
export interface TasksOptions {
  /** Where task state and results live. Default: in memory (one process); share a Redis one across instances. */
  store?: TaskStore;
  /** Lifetime of a task whose request names no `ttl`. Default 1 hour. */
  defaultTtlMs?: number;
  /** Longest lifetime granted, whatever the request asks (2025-11-25 tasks: receivers MAY override). Default 24 hours. */
  maxTtlMs?: number;
  /** `pollInterval` suggested to clients. Default 1000 ms. */
  pollIntervalMs?: number;
  /**
   * How long a task survives its owner going silent: the owner renews every
   * third of it; after it lapses another instance marks the task failed.
   * Default 30 000 ms.
   */
  leaseMs?: number;
  /** Tasks per `tasks/list` page. Default 50. */
  pageSize?: number;
}

/** What the runtime needs from a call context: how to stop its handler, and where to say it is a task. */
export interface Abortable {
  abort(reason?: unknown): void;
  task?: { readonly taskId: string } | undefined;
}

/** How a task's tool call is started. */
export interface TaskStart {
  readonly name: string;
  readonly owningContext: string;
  /** The `ttl` the request asked for, if any (clamped). */
  readonly requestedTtlMs: unknown;
  /** The status a tool result with `isError: true` gives: 2025-11-25 says failed, the 2026 extension completed. */
  readonly isErrorStatus: 'failed' | 'completed';
  readonly ctx: Abortable;
  /** Runs the call; resolves with its result, or rejects with a ProtocolError. */
  readonly run: () => Promise<CallToolResult>;
  /** Called once with the task when it reaches a terminal status (status notifications). */
  readonly onSettled?: (task: TaskRecord) => void;
  /** Called when the call is over, whatever happened (ctx.finish). */
  readonly onDone?: () => void;
}

/** The status message of a task whose owner stopped renewing its lease. */
export const LOST_OWNER_MESSAGE =
  'The server instance running this task stopped before it finished (its lease lapsed); the work is lost. Run the tool again.';
const INPUT_REQUIRED_MESSAGE = 'Waiting for the client to answer a request (elicitation, sampling or roots).';
const SHUTDOWN_MESSAGE = 'The server shut down before the task finished; the work is lost. Run the tool again.';

interface LocalTask {
  readonly ctx: Abortable;
  readonly onSettled: ((task: TaskRecord) => void) | undefined;
  shutdown: boolean;
}

/** Aborts a task handler whose task was cancelled (the reason its `ctx.signal` carries). */
export class TaskCancelledError extends CandorError {
  override readonly name = 'TaskCancelledError';
  constructor(message: string) {
    super(message, { code: 'task_cancelled' });
  }
}

/**
 * One instance's view of the tasks in a store.
 *
 * @example
 * ```ts
 * const runtime = new TaskRuntime({ leaseMs: 10_000 }, logger);
 * const { task, done } = await runtime.start({ name, owningContext, requestedTtlMs, isErrorStatus: 'failed', ctx, run });
 * ```
 */
export class TaskRuntime {
  /** This instance's owner id (random per runtime). */
  readonly owner: string = globalThis.crypto.randomUUID();
  readonly store: TaskStore;
  readonly pageSize: number;
  /** Questions and answers of 2026-07-28 tasks waiting for the client. */
  readonly inputs: TaskInputs;
  readonly #defaultTtl: number;
  readonly #maxTtl: number;
  readonly #poll: number;
  readonly #lease: number;
  readonly #logger: ServerLogger;
  readonly #local = new Map<string, LocalTask>();
  readonly #stopListening: () => void;
  #heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(options: TasksOptions, logger: ServerLogger) {
    const {
      store = new MemoryTaskStore(),
      defaultTtlMs = 3_600_000,
      maxTtlMs = 86_400_000,
      pollIntervalMs = 1000,
      leaseMs = 30_000,
      pageSize = 50,
    } = options;
    this.store = store;
    this.pageSize = pageSize;
    this.inputs = new TaskInputs(store, Math.min(pollIntervalMs, 250));
    this.#maxTtl = maxTtlMs;
    this.#defaultTtl = Math.min(defaultTtlMs, maxTtlMs);
    this.#poll = pollIntervalMs;
    this.#lease = leaseMs;
    this.#logger = logger;
    this.#stopListening = store.onSettled((taskId, status) => this.#settledElsewhere(taskId, status));
  }

  /** Tasks this instance is running now. */
  get running(): number {
    return this.#local.size;
  }

  /**
   * Record a new task and start its call in the background. Resolves once the
   * task is durably created, with the task and the call's completion (for drain).
   */
  async start(spec: TaskStart): Promise<{ task: TaskRecord; done: Promise<void> }> {
    const now = Date.now();
    const task: TaskRecord = {
      taskId: globalThis.crypto.randomUUID(),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.#ttl(spec.requestedTtlMs),
      pollIntervalMs: this.#poll,
      owner: this.owner,
      leaseUntil: now + this.#lease,
      owningContext: spec.owningContext,
      method: 'tools/call',
      name: spec.name,
    };
    await unavailable(this.store.create(task));
    spec.ctx.task = { taskId: task.taskId };
    const local: LocalTask = { ctx: spec.ctx, onSettled: spec.onSettled, shutdown: false };
    this.#local.set(task.taskId, local);
    this.#beat();
    const done = this.#run(task, spec, local);
    return { task, done };
  }

  /** The task if `owningContext` may see it; fails it first when its owner's lease lapsed. */
  async read(taskId: string, owningContext: string): Promise<TaskRecord | undefined> {
    const task = await unavailable(this.store.get(taskId));
    if (task === undefined || task.owningContext !== owningContext) return undefined;
    return unavailable(this.#checkLease(task));
  }

  /**
   * Wait until the task is terminal (tasks/result blocks: 2025-11-25 tasks,
   * "Result Retrieval"). Undefined when it is unknown, expires, or `signal` aborts.
   */
  async waitTerminal(taskId: string, owningContext: string, signal?: AbortSignal): Promise<TaskRecord | undefined> {
    // Settlement is announced through the store; the timer catches a dead owner's lapsed lease.
    const every = Math.max(50, Math.min(this.#lease / 2, 5000));
    for (;;) {
      const task = await this.read(taskId, owningContext);
      if (task === undefined || isTerminalStatus(task.status) || signal?.aborted) return task;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(finish, every);
        const stop = this.store.onSettled((id) => {
          if (id === taskId) finish();
        });
        signal?.addEventListener('abort', finish, { once: true });
        function finish() {
          clearTimeout(timer);
          stop();
          signal?.removeEventListener('abort', finish);
          resolve();
        }
      });
    }
  }

  /**
   * Cancel a task: `cancelled` once the store agrees (first writer wins), and
   * the handler's signal aborts on whichever instance runs it.
   */
  async cancel(
    taskId: string,
    owningContext: string,
  ): Promise<{ cancelled: TaskRecord } | { terminal: TaskRecord } | undefined> {
    const task = await this.read(taskId, owningContext);
    if (task === undefined) return undefined;
    if (isTerminalStatus(task.status)) return { terminal: task };
    const cancelled = await unavailable(
      this.store.finish(taskId, {
        status: 'cancelled',
        statusMessage: 'The task was cancelled by request.',
        at: Date.now(),
      }),
    );
    if (cancelled === undefined) {
      // It ended (or expired) between the read and the cancel.
      const now = await unavailable(this.store.get(taskId));
      return now === undefined ? undefined : { terminal: now };
    }
    this.#settledElsewhere(taskId, 'cancelled', cancelled);
    return { cancelled };
  }

  /** A page of the tasks `owningContext` may see. */
  async list(owningContext: string, cursor: string | undefined): Promise<TaskPage> {
    const page = await unavailable(
      this.store.list(owningContext, { limit: this.pageSize, ...(cursor === undefined ? {} : { cursor }) }),
    );
    const tasks = await unavailable(Promise.all(page.tasks.map((task) => this.#checkLease(task))));
    return page.nextCursor === undefined ? { tasks } : { tasks, nextCursor: page.nextCursor };
  }

  /**
   * Show a running task as waiting for the client (`input_required`) or back
   * at work. Best effort: a store hiccup is logged, never fails the handler.
   */
  async markWaiting(taskId: string, waiting: boolean): Promise<void> {
    try {
      await this.store.transition(
        taskId,
        waiting
          ? { status: 'input_required', statusMessage: INPUT_REQUIRED_MESSAGE, at: Date.now() }
          : { status: 'working', at: Date.now() },
      );
    } catch (error) {
      this.#logger.warn('could not record a task status change', { taskId, error });
    }
  }

  /** Abort every task this instance runs: they end `failed`, saying the server shut down (drain's last step). */
  abortAll(reason: unknown): void {
    for (const local of this.#local.values()) {
      local.shutdown = true;
      local.ctx.abort(reason);
    }
  }

  /** Stop renewing and listening; running tasks are aborted and marked failed. Closes the store. */
  async close(): Promise<void> {
    this.abortAll(new Error(SHUTDOWN_MESSAGE));
    // Give the aborted handlers a moment to record their end before the store goes.
    const deadline = Date.now() + 2000;
    while (this.#local.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    this.#stopListening();
    if (this.#heartbeat !== undefined) clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
    await this.store.close();
  }

  #ttl(requested: unknown): number {
    if (typeof requested !== 'number' || !Number.isFinite(requested) || requested <= 0) return this.#defaultTtl;
    return Math.min(Math.ceil(requested), this.#maxTtl);
  }

  async #run(task: TaskRecord, spec: TaskStart, local: LocalTask): Promise<void> {
    let outcome: TaskOutcome;
    let status: 'completed' | 'failed';
    let statusMessage: string | undefined;
    try {
      const result = await spec.run();
      outcome = { result: result as unknown as { [key: string]: unknown } };
      status = result.isError === true ? spec.isErrorStatus : 'completed';
      if (status === 'failed') statusMessage = `Tool execution failed: ${firstText(result)}`;
    } catch (error) {
      const rpc = isProtocolError(error)
        ? { code: error.rpcCode, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) }
        : { code: INTERNAL_ERROR, message: `Internal error while running the task's ${task.method}.` };
      if (!isProtocolError(error)) this.#logger.error('task failed', { taskId: task.taskId, error });
      outcome = { error: rpc };
      status = 'failed';
      statusMessage = `Tool execution failed: ${rpc.message}`;
    }
    if (local.shutdown) {
      outcome = { error: { code: INTERNAL_ERROR, message: SHUTDOWN_MESSAGE } };
      status = 'failed';
      statusMessage = SHUTDOWN_MESSAGE;
    }
    try {
      const settled = await this.store.finish(task.taskId, {
        status,
        outcome,
        at: Date.now(),
        ...(statusMessage === undefined ? {} : { statusMessage }),
      });
      if (settled !== undefined) local.onSettled?.(settled);
    } catch (error) {
      // The store is away: the lease lapses and another instance fails the task (never hangs).
      this.#logger.error('could not record the end of a task', { taskId: task.taskId, error });
    } finally {
      this.#local.delete(task.taskId);
      spec.onDone?.();
      if (this.#local.size === 0 && this.#heartbeat !== undefined) {
        clearInterval(this.#heartbeat);
        this.#heartbeat = undefined;
      }
    }
  }

  /** Renew the leases of running tasks every third of the lease; one timer per instance, only while tasks run. */
  #beat(): void {
    if (this.#heartbeat !== undefined) return;
    this.#heartbeat = setInterval(
      () => {
        const ids = [...this.#local.keys()];
        if (ids.length === 0) return;
        this.store.renew(this.owner, ids, Date.now() + this.#lease).then(
          (gone) => {
            // Expired, or failed by another instance while this one could not renew: stop the work.
            for (const id of gone)
              this.#local.get(id)?.ctx.abort(new TaskCancelledError('The task is no longer running.'));
          },
          (error: unknown) => this.#logger.warn('could not renew task leases', { error }),
        );
      },
      Math.max(10, Math.floor(this.#lease / 3)),
    );
    this.#heartbeat.unref?.();
  }

  async #checkLease(task: TaskRecord): Promise<TaskRecord> {
    const now = Date.now();
    if (isTerminalStatus(task.status) || task.leaseUntil >= now) return task;
    const failed = await this.store.finish(task.taskId, {
      status: 'failed',
      statusMessage: LOST_OWNER_MESSAGE,
      outcome: { error: { code: INTERNAL_ERROR, message: LOST_OWNER_MESSAGE } },
      at: now,
      leaseExpiredBefore: now,
    });
    return failed ?? (await this.store.get(task.taskId)) ?? task;
  }

  /** A task reached a terminal status somewhere: stop its handler here if this instance runs it. */
  #settledElsewhere(taskId: string, status: TaskStatus, task?: TaskRecord): void {
    const local = this.#local.get(taskId);
    if (local === undefined || status !== 'cancelled') return;
    this.#local.delete(taskId);
    local.ctx.abort(new TaskCancelledError('The task was cancelled.'));
    if (local.onSettled === undefined) return;
    if (task !== undefined) local.onSettled(task);
    else
      this.store.get(taskId).then(
        (now) => now && local.onSettled?.(now),
        () => {},
      );
  }
}

/**
 * A store failure (e.g. Redis away) as the JSON-RPC internal error the client
 * gets, saying what is wrong; a forged list cursor stays what it is.
 */
async function unavailable<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation;
  } catch (error) {
    if (error instanceof InvalidTaskCursorError || isProtocolError(error)) throw error;
    throw new ProtocolError(
      INTERNAL_ERROR,
      `The task store is unavailable (${(error as Error)?.message ?? String(error)}); try again later, or call the tool without a task.`,
    );
  }
}

function firstText(result: CallToolResult): string {
  const block = result.content?.find((c) => c.type === 'text') as { text?: string } | undefined;
  const text = block?.text ?? 'the tool reported an error';
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
