import { CandorError } from '../../errors.js';
/**
 * The task store seam (MCP tasks): where task state, results and
 * time-to-live live. One process uses the in-memory default
 * (memory-task-store.ts); several instances share one Redis
 * (redis-task-store.ts), so a task started on instance A is polled, its result
 * read and cancelled on instance B.
 *
 * What the store must make atomic: the move of a task from a working status to
 * a terminal one (`finish`). The first writer wins — a cancel that lands
 * before the handler's result keeps the task `cancelled` (2025-11-25 tasks,
 * "Task Cancellation": once cancelled it MUST stay cancelled), and a lease
 * check fails a task only if its owner did not renew the lease meanwhile.
 */

/** A task's status (2025-11-25 and the 2026-07-28 tasks extension use the same five). */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The terminal statuses: a task in one of them never changes again. */
export function isTerminalStatus(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** How the underlying request ended: its result, or the JSON-RPC error it would have answered. */
export type TaskOutcome =
  | { readonly result: { [key: string]: unknown } }
  | { readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } };

/** One task as the store keeps it. Times are milliseconds since the epoch. */
export interface TaskRecord {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** Lifetime from creation; the store forgets the task after it. */
  readonly ttlMs: number;
  /** Suggested polling interval. */
  readonly pollIntervalMs: number;
  /** The instance running the handler (a random id per server). */
  readonly owner: string;
  /**
   * Until when the owner vouches for the task. It renews the lease while the
   * handler runs; once it lapses on a working task, any instance marks the
   * task `failed` (the owner died and its work is lost).
   */
  readonly leaseUntil: number;
  /** Who may see the task: the authorization context it is bound to (2025-11-25 tasks, "Security"). */
  readonly owningContext: string;
  /** The request the task wraps (`tools/call`) and the tool's name. */
  readonly method: string;
  readonly name: string;
  /** Present once the task is `completed` or `failed` with a result or error to return. */
  readonly outcome?: TaskOutcome;
  /**
   * 2026-07-28 tasks waiting for the client: JSON `{ requests, responses }` —
   * the outstanding input requests by key and the answers given so far (any
   * instance records answers; the owner picks them up).
   */
  readonly input?: string;
}

/** The terminal move {@link TaskStore.finish} makes. */
export interface TaskFinish {
  readonly status: 'completed' | 'failed' | 'cancelled';
  readonly statusMessage?: string;
  readonly outcome?: TaskOutcome;
  /** When it happened (becomes `lastUpdatedAt`). */
  readonly at: number;
  /** Only if the lease lapsed before this time (how another instance fails a dead owner's task). */
  readonly leaseExpiredBefore?: number;
}

/** A page of {@link TaskStore.list}. */
export interface TaskPage {
  readonly tasks: readonly TaskRecord[];
  readonly nextCursor?: string;
}

/** Told when a task reaches a terminal status, on whichever instance it happened. */
export type TaskSettledListener = (taskId: string, status: TaskStatus) => void;

/**
 * Where tasks live. Implementations: {@link MemoryTaskStore} (default) and
 * `createRedisTaskStore` (shared by several instances).
 *
 * @example
 * ```ts
 * const server = createServer({ name: 'jobs', version: '1.0.0', tools, tasks: { store: createRedisTaskStore(process.env.REDIS_URL!) } });
 * ```
 */
export interface TaskStore {
  /** Store a new task; resolves once a `get` anywhere would find it (the spec: durably created). */
  create(record: TaskRecord): Promise<void>;
  /** The task, or undefined when unknown or expired. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Move a task that is not terminal to a terminal status, atomically. Returns
   * the updated task, or undefined when the task is unknown, already terminal,
   * or (with `leaseExpiredBefore`) its lease is still current.
   */
  finish(taskId: string, change: TaskFinish): Promise<TaskRecord | undefined>;
  /**
   * Move a task that is not terminal between `working` and `input_required`
   * (a handler waiting for the client's answer). Returns the updated task, or
   * undefined when it is unknown or already terminal.
   */
  transition(
    taskId: string,
    change: { status: 'working' | 'input_required'; statusMessage?: string; at: number; input?: string },
  ): Promise<TaskRecord | undefined>;
  /**
   * Extend the lease of running tasks `owner` runs. Resolves with the ids that
   * are gone or no longer working (expired, cancelled elsewhere), so the owner
   * can stop their handlers.
   */
  renew(owner: string, taskIds: readonly string[], leaseUntil: number): Promise<string[]>;
  /** Tasks of one authorization context, oldest first; `cursor` is a previous page's `nextCursor`. */
  list(owningContext: string, page: { cursor?: string; limit: number }): Promise<TaskPage>;
  /** Listen for terminal moves (from every instance sharing the store); returns a function that stops. */
  onSettled(listener: TaskSettledListener): () => void;
  /** Release connections and timers. */
  close(): Promise<void>;
}

/** The error a store throws for a cursor it did not make (the engine answers -32602). */
export class InvalidTaskCursorError extends CandorError {
  override readonly name = 'InvalidTaskCursorError';
  constructor(message: string) {
    super(message, { code: 'invalid_cursor' });
  }
}

/** `cursor` ⇄ the (createdAt, taskId) position after which a page starts (opaque to clients). */
export function encodeTaskCursor(createdAt: number, taskId: string): string {
  return `${createdAt.toString(36)}.${taskId}`;
}

/** Decode a {@link encodeTaskCursor} cursor; throws {@link InvalidTaskCursorError}. */
export function decodeTaskCursor(cursor: string): { createdAt: number; taskId: string } {
  const match = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{1,128})$/.exec(cursor);
  if (match === null) {
    throw new InvalidTaskCursorError('Invalid params: the tasks/list cursor is not one this server gave out.');
  }
  return { createdAt: Number.parseInt(match[1]!, 36), taskId: match[2]! };
}

/** A page position: (createdAt, taskId) order, the order lists use. */
export function isAfter(record: { createdAt: number; taskId: string }, cursor: { createdAt: number; taskId: string }) {
  return (
    record.createdAt > cursor.createdAt || (record.createdAt === cursor.createdAt && record.taskId > cursor.taskId)
  );
}
