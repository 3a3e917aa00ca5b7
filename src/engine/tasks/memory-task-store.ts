/**
 * The in-memory {@link TaskStore}: the default for one process. Tasks are
 * forgotten `ttlMs` after creation (checked on access and by a sweep on
 * create), and a terminal move is atomic because it runs synchronously.
 */
import {
  decodeTaskCursor,
  encodeTaskCursor,
  isAfter,
  isTerminalStatus,
  type TaskFinish,
  type TaskPage,
  type TaskRecord,
  type TaskSettledListener,
  type TaskStore,
} from './task-store.js';

/**
 * Tasks in a Map, for one process.
 *
 * @example
 * ```ts
 * const server = createServer({ name: 'jobs', version: '1.0.0', tools, tasks: { store: new MemoryTaskStore() } });
 * ```
 */
export class MemoryTaskStore implements TaskStore {
  readonly #tasks = new Map<string, TaskRecord>();
  readonly #listeners = new Set<TaskSettledListener>();
  #creates = 0;

  async create(record: TaskRecord): Promise<void> {
    // A sweep every 64 creates keeps a busy server's map bounded without a timer.
    if (++this.#creates % 64 === 0) this.#sweep(Date.now());
    this.#tasks.set(record.taskId, record);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    return this.#live(taskId, Date.now());
  }

  async finish(taskId: string, change: TaskFinish): Promise<TaskRecord | undefined> {
    const task = this.#live(taskId, Date.now());
    if (task === undefined || isTerminalStatus(task.status)) return undefined;
    if (change.leaseExpiredBefore !== undefined && task.leaseUntil >= change.leaseExpiredBefore) return undefined;
    const { statusMessage: _old, ...rest } = task;
    const updated: TaskRecord = {
      ...rest,
      status: change.status,
      lastUpdatedAt: change.at,
      ...(change.statusMessage === undefined ? {} : { statusMessage: change.statusMessage }),
      ...(change.outcome === undefined ? {} : { outcome: change.outcome }),
    };
    this.#tasks.set(taskId, updated);
    for (const listener of this.#listeners) listener(taskId, updated.status);
    return updated;
  }

  async transition(
    taskId: string,
    change: { status: 'working' | 'input_required'; statusMessage?: string; at: number; input?: string },
  ): Promise<TaskRecord | undefined> {
    const task = this.#live(taskId, Date.now());
    if (task === undefined || isTerminalStatus(task.status)) return undefined;
    const { statusMessage: _old, input: _input, ...rest } = task;
    const updated: TaskRecord = {
      ...rest,
      status: change.status,
      lastUpdatedAt: change.at,
      ...(change.statusMessage === undefined ? {} : { statusMessage: change.statusMessage }),
      ...(change.input === undefined ? {} : { input: change.input }),
    };
    this.#tasks.set(taskId, updated);
    return updated;
  }

  async renew(owner: string, taskIds: readonly string[], leaseUntil: number): Promise<string[]> {
    const gone: string[] = [];
    const now = Date.now();
    for (const id of taskIds) {
      const task = this.#live(id, now);
      if (task === undefined || isTerminalStatus(task.status) || task.owner !== owner) gone.push(id);
      else this.#tasks.set(id, { ...task, leaseUntil });
    }
    return gone;
  }

  async list(owningContext: string, page: { cursor?: string; limit: number }): Promise<TaskPage> {
    const after = page.cursor === undefined ? undefined : decodeTaskCursor(page.cursor);
    const now = Date.now();
    const mine: TaskRecord[] = [];
    for (const task of this.#tasks.values()) {
      if (task.owningContext !== owningContext || expired(task, now)) continue;
      if (after === undefined || isAfter(task, after)) mine.push(task);
    }
    mine.sort((a, b) => a.createdAt - b.createdAt || (a.taskId < b.taskId ? -1 : 1));
    const tasks = mine.slice(0, page.limit);
    const last = tasks.at(-1);
    return mine.length > page.limit && last !== undefined
      ? { tasks, nextCursor: encodeTaskCursor(last.createdAt, last.taskId) }
      : { tasks };
  }

  onSettled(listener: TaskSettledListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }

  /** Number of tasks held (expired ones included until swept). */
  get size(): number {
    return this.#tasks.size;
  }

  #live(taskId: string, now: number): TaskRecord | undefined {
    const task = this.#tasks.get(taskId);
    if (task === undefined) return undefined;
    if (!expired(task, now)) return task;
    this.#tasks.delete(taskId);
    return undefined;
  }

  #sweep(now: number): void {
    for (const [id, task] of this.#tasks) if (expired(task, now)) this.#tasks.delete(id);
  }
}

function expired(task: TaskRecord, now: number): boolean {
  return task.createdAt + task.ttlMs <= now;
}
