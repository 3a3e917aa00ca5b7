/**
 * A {@link TaskStore} on Redis (ioredis), shared by every server instance
 * that points at the same Redis: a task started on instance A is polled, its
 * result read and cancelled from instance B.
 *
 * Layout (prefix `candor:` by default):
 * - `<prefix>task:<id>` — a hash with the task's fields; expires with the task
 *   (`PEXPIREAT createdAt + ttlMs`). The result is an opaque JSON string field
 *   that Lua never decodes (cjson would turn `[]` into `{}`).
 * - `<prefix>tasks:<context>` — a sorted set (all scores 0, members
 *   `<createdAt base36, padded>:<id>`) for `tasks/list` in creation order;
 *   members of expired tasks are dropped when a list meets them.
 * - `<prefix>tasks:settled` — the pub/sub channel announcing terminal moves
 *   (`<id> <status>`), so a cancel made on B aborts the handler on A and a
 *   `tasks/result` waiting on B wakes when A finishes.
 *
 * Terminal moves and lease renewals are Lua scripts, so two instances agree:
 * the first terminal write wins, and a lease-lapse failure applies only if the
 * owner did not renew meanwhile.
 *
 * Redis outage: creating, reading, cancelling or listing tasks fails with a
 * JSON-RPC internal error while Redis is away (ioredis retries each command
 * first); calls that are not tasks are unaffected. A handler that finishes
 * while Redis is away cannot record its end: its lease lapses and the task
 * is marked failed once Redis is back.
 */
// Type only: ioredis takes ~200 ms to load, so a URL loads it on first use (never for servers without Redis).

import {
  decodeTaskCursor,
  encodeTaskCursor,
  type TaskFinish,
  type TaskPage,
  type TaskRecord,
  type TaskSettledListener,
  type TaskStatus,
  type TaskStore,
} from '../engine/tasks/task-store.js';
import { duplicateForJoining, joinChannels } from './channel-joiner.js';
import { openCluster, type RedisClient } from './redis-connection.js';
import { isClusterUrl } from './redis-url.js';

/** Options of {@link createRedisTaskStore}. */
export interface RedisTaskStoreOptions {
  /** Key prefix shared by the instances. Default `candor:`. */
  prefix?: string;
  /**
   * Told about connection errors of the connections the store owns (ioredis
   * reconnects by itself; requests meanwhile fail with -32603). Default: ignored.
   */
  onError?: (error: Error) => void;
}

// KEYS: task. ARGV: status, statusMessage ('' = none), at, outcome ('' = none), leaseExpiredBefore ('' = no condition),
// id, channel. The channel is an argument, not a key: a script's keys must share one Redis Cluster slot.
const FINISH = `
local s = redis.call('HGET', KEYS[1], 'status')
if not s or s == 'completed' or s == 'failed' or s == 'cancelled' then return nil end
if ARGV[5] ~= '' and tonumber(redis.call('HGET', KEYS[1], 'leaseUntil')) >= tonumber(ARGV[5]) then return nil end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'lastUpdatedAt', ARGV[3])
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'statusMessage', ARGV[2]) else redis.call('HDEL', KEYS[1], 'statusMessage') end
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'outcome', ARGV[4]) end
redis.call('PUBLISH', ARGV[7], ARGV[6] .. ' ' .. ARGV[1])
return redis.call('HGETALL', KEYS[1])
`;

// KEYS: task. ARGV: status (working | input_required), statusMessage ('' = none), at.
const TRANSITION = `
local s = redis.call('HGET', KEYS[1], 'status')
if not s or s == 'completed' or s == 'failed' or s == 'cancelled' then return nil end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'lastUpdatedAt', ARGV[3])
if ARGV[2] ~= '' then redis.call('HSET', KEYS[1], 'statusMessage', ARGV[2]) else redis.call('HDEL', KEYS[1], 'statusMessage') end
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'input', ARGV[4]) else redis.call('HDEL', KEYS[1], 'input') end
return redis.call('HGETALL', KEYS[1])
`;

// KEYS: the tasks (one per call on a Redis Cluster). ARGV: owner, leaseUntil. Returns the indexes (1-based) of tasks
// no longer running for this owner.
const RENEW = `
local gone = {}
for i, key in ipairs(KEYS) do
  local t = redis.call('HMGET', key, 'status', 'owner')
  if (t[1] == 'working' or t[1] == 'input_required') and t[2] == ARGV[1] then
    redis.call('HSET', key, 'leaseUntil', ARGV[2])
  else
    table.insert(gone, i)
  end
end
return gone
`;

type RedisWithScripts = RedisClient & {
  candorTaskFinish(task: string, ...args: string[]): Promise<string[] | null>;
  candorTaskRenew(count: number, ...keysAndArgs: string[]): Promise<number[]>;
  candorTaskTransition(task: string, ...args: string[]): Promise<string[] | null>;
};

/**
 * Tasks in Redis. Pass a connection (the store duplicates it for pub/sub and
 * leaves it open on `close`) or a URL (the store owns both connections).
 *
 * @example
 * ```ts
 * const server = createServer({ name: 'jobs', version: '1.0.0', tools, tasks: { store: createRedisTaskStore(process.env.REDIS_URL!) } });
 * ```
 */
export function createRedisTaskStore(
  redis: RedisClient | string | Promise<RedisClient>,
  options: RedisTaskStoreOptions = {},
): TaskStore {
  return new RedisTaskStore(redis, options);
}

/** The Redis {@link TaskStore}; see {@link createRedisTaskStore}. */
export class RedisTaskStore implements TaskStore {
  readonly #client: Promise<RedisWithScripts>;
  readonly #owned: boolean;
  readonly #prefix: string;
  readonly #channel: string;
  readonly #listeners = new Set<TaskSettledListener>();
  readonly #onError: (error: Error) => void;
  #subscribed: Promise<RedisClient> | undefined;

  /** `redis`: a URL (the store owns its connections), a client, or a client still being set up (both left open). */
  constructor(redis: RedisClient | string | Promise<RedisClient>, options: RedisTaskStoreOptions = {}) {
    this.#owned = typeof redis === 'string';
    const connect =
      typeof redis === 'string'
        ? // Few retries per command: during an outage a task request fails in well under a second, clearly.
          import('ioredis').then(({ Redis: Client }) =>
            isClusterUrl(redis)
              ? (openCluster(redis, { maxRetriesPerRequest: 2 }) as RedisClient)
              : (new Client(redis, { maxRetriesPerRequest: 2 }) as RedisClient),
          )
        : Promise.resolve(redis);
    const onError = options.onError ?? (() => {});
    this.#onError = onError;
    this.#client = connect.then((client) => {
      if (this.#owned) client.on('error', onError);
      client.defineCommand('candorTaskFinish', { numberOfKeys: 1, lua: FINISH });
      client.defineCommand('candorTaskRenew', { lua: RENEW });
      client.defineCommand('candorTaskTransition', { numberOfKeys: 1, lua: TRANSITION });
      return client as RedisWithScripts;
    });
    // Surfaced by the first command instead (an unhandled rejection here would crash the process).
    this.#client.catch(() => {});
    this.#prefix = options.prefix ?? 'candor:';
    this.#channel = `${this.#prefix}tasks:settled`;
  }

  async create(record: TaskRecord): Promise<void> {
    const key = this.#key(record.taskId);
    const index = this.#index(record.owningContext);
    const fields: string[] = [];
    for (const [name, value] of Object.entries(record)) {
      if (value === undefined) continue;
      fields.push(name, name === 'outcome' ? JSON.stringify(value) : String(value));
    }
    const expiresAt = record.createdAt + record.ttlMs;
    const redis = await this.#client;
    // Two transactions, one key each (a Redis Cluster keeps the task and its list index in different
    // slots): the task first, so an index entry never points at nothing for long — and
    // list() drops entries whose task is gone.
    await redis
      .multi()
      .hset(key, ...fields)
      .pexpireat(key, expiresAt)
      .exec()
      .then(failOnError);
    await redis
      .multi()
      .zadd(index, 0, member(record))
      // The index lives as long as its newest task (GT: never shortened).
      .call('PEXPIREAT', index, String(expiresAt), 'GT')
      .call('PEXPIREAT', index, String(expiresAt), 'NX')
      .exec()
      .then(failOnError);
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const hash = await (await this.#client).hgetall(this.#key(taskId));
    return fromHash(hash);
  }

  async finish(taskId: string, change: TaskFinish): Promise<TaskRecord | undefined> {
    const redis = await this.#client;
    const flat = await redis.candorTaskFinish(
      this.#key(taskId),
      change.status,
      change.statusMessage ?? '',
      String(change.at),
      change.outcome === undefined ? '' : JSON.stringify(change.outcome),
      change.leaseExpiredBefore === undefined ? '' : String(change.leaseExpiredBefore),
      taskId,
      this.#channel,
    );
    return fromFlat(flat);
  }

  async transition(
    taskId: string,
    change: { status: 'working' | 'input_required'; statusMessage?: string; at: number; input?: string },
  ): Promise<TaskRecord | undefined> {
    const redis = await this.#client;
    const flat = await redis.candorTaskTransition(
      this.#key(taskId),
      change.status,
      change.statusMessage ?? '',
      String(change.at),
      change.input ?? '',
    );
    return fromFlat(flat);
  }

  async renew(owner: string, taskIds: readonly string[], leaseUntil: number): Promise<string[]> {
    if (taskIds.length === 0) return [];
    const redis = await this.#client;
    // One task per script: on a Redis Cluster the tasks live in different slots; the
    // calls go out together (auto-pipelining).
    const gone = await Promise.all(
      taskIds.map((id) => redis.candorTaskRenew(1, this.#key(id), owner, String(leaseUntil))),
    );
    return taskIds.filter((_id, i) => gone[i]!.length > 0);
  }

  async list(owningContext: string, page: { cursor?: string; limit: number }): Promise<TaskPage> {
    const redis = await this.#client;
    const index = this.#index(owningContext);
    let from = '-';
    if (page.cursor !== undefined) {
      const after = decodeTaskCursor(page.cursor);
      from = `(${member(after)}`;
    }
    const tasks: TaskRecord[] = [];
    // Fetch a little more than a page: members of expired tasks are skipped (and removed).
    for (;;) {
      const members = await redis.zrangebylex(index, from, '+', 'LIMIT', 0, page.limit + 1 - tasks.length);
      if (members.length === 0) return { tasks };
      // Separate reads, not one pipeline: on a Redis Cluster the tasks live in different slots.
      const hashes = await Promise.all(members.map((m) => redis.hgetall(this.#key(m.slice(m.indexOf(':') + 1)))));
      const stale: string[] = [];
      for (let i = 0; i < members.length; i++) {
        const task = fromHash(hashes[i] ?? {});
        if (task === undefined) stale.push(members[i]!);
        else if (tasks.length < page.limit) tasks.push(task);
        else {
          const last = tasks.at(-1)!;
          if (stale.length > 0) await redis.zrem(index, ...stale);
          return { tasks, nextCursor: encodeTaskCursor(last.createdAt, last.taskId) };
        }
      }
      if (stale.length > 0) await redis.zrem(index, ...stale);
      from = `(${members.at(-1)!}`;
    }
  }

  onSettled(listener: TaskSettledListener): () => void {
    this.#listeners.add(listener);
    this.#subscribe();
    return () => this.#listeners.delete(listener);
  }

  /** Resolves once the pub/sub subscription is live (instances hear each other's cancellations from then on). */
  async ready(): Promise<void> {
    this.#subscribe();
    await this.#subscribed;
  }

  async close(): Promise<void> {
    this.#listeners.clear();
    const subscriber = this.#subscribed;
    this.#subscribed = undefined;
    const quit = (client: RedisClient | undefined) => client?.quit().catch(() => client.disconnect());
    await Promise.allSettled([subscriber?.then(quit), this.#owned ? this.#client.then(quit) : Promise.resolve()]);
  }

  #subscribe(): void {
    if (this.#subscribed !== undefined) return;
    this.#subscribed = this.#client.then(async (client) => {
      const subscriber = duplicateForJoining(client);
      subscriber.on('message', (_channel: string, message: string) => {
        const space = message.indexOf(' ');
        const taskId = message.slice(0, space);
        const status = message.slice(space + 1) as TaskStatus;
        for (const listener of [...this.#listeners]) listener(taskId, status);
      });
      // ioredis reconnects by itself and the joiner subscribes again; waiters also poll, so nothing hangs meanwhile.
      subscriber.on('error', this.#onError);
      await joinChannels(subscriber, this.#onError)(this.#channel).catch(() => undefined);
      return subscriber;
    });
    this.#subscribed.catch(() => {});
  }

  #key(taskId: string): string {
    return `${this.#prefix}task:${taskId}`;
  }

  #index(owningContext: string): string {
    return `${this.#prefix}tasks:${owningContext}`;
  }
}

/** The sorted-set member of a task: lexical order is creation order (times padded to 12 base-36 digits). */
function member(task: { createdAt: number; taskId: string }): string {
  return `${task.createdAt.toString(36).padStart(12, '0')}:${task.taskId}`;
}

function failOnError(results: Array<[Error | null, unknown]> | null): void {
  for (const [error] of results ?? []) if (error) throw error;
}

/** A hash as HGETALL answers it inside a script: [field, value, field, value, …]. */
function fromFlat(flat: string[] | null): TaskRecord | undefined {
  if (flat === null || flat.length === 0) return undefined;
  const hash: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) hash[flat[i]!] = flat[i + 1]!;
  return fromHash(hash);
}

const NUMBERS = new Set(['createdAt', 'lastUpdatedAt', 'ttlMs', 'pollIntervalMs', 'leaseUntil']);

function fromHash(hash: Record<string, string>): TaskRecord | undefined {
  if (hash.taskId === undefined || hash.status === undefined) return undefined;
  const task: { [key: string]: unknown } = {};
  for (const [name, value] of Object.entries(hash)) {
    task[name] = NUMBERS.has(name) ? Number(value) : name === 'outcome' ? JSON.parse(value) : value;
  }
  return task as unknown as TaskRecord;
}
