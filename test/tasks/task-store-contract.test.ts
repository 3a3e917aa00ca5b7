/**
 * The TaskStore contract (src/stores/task-store.ts), run against the
 * in-memory store and the Redis store on a real redis-server: first terminal
 * write wins, the lease condition, renewals, TTL, pagination, and settled
 * events reaching every store that shares the backend.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MemoryTaskStore } from '../../src/engine/tasks/memory-task-store.js';
import type { TaskRecord, TaskStore } from '../../src/engine/tasks/task-store.js';
import { createRedisTaskStore, type RedisTaskStore } from '../../src/stores/redis-task-store.js';
import { type RedisClusterServer, startRedisCluster } from '../support/redis-cluster-server.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';

let redis: RedisServer;
let cluster: RedisClusterServer;
beforeAll(async () => {
  [redis, cluster] = await Promise.all([startRedis(), startRedisCluster()]);
}, 120_000);
afterAll(async () => {
  await redis?.stop();
  await cluster?.stop();
});

let made = 0;
function record(overrides: Partial<TaskRecord> = {}): TaskRecord {
  const now = Date.now();
  made++;
  return {
    taskId: `task-${process.pid}-${made}`,
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 100,
    owner: 'owner-a',
    leaseUntil: now + 10_000,
    owningContext: 'anonymous',
    method: 'tools/call',
    name: 'echo',
    ...overrides,
  };
}

/** Two handles on one backend (the memory store is one process: the same object twice). */
type Pair = { a: TaskStore; b: TaskStore; close(): Promise<void> };

const backends: Array<[string, () => Promise<Pair>]> = [
  [
    'memory',
    async () => {
      const store = new MemoryTaskStore();
      return { a: store, b: store, close: () => store.close() };
    },
  ],
  [
    'redis',
    async () => {
      const prefix = `contract-${process.pid}-${++made}:`;
      const a = createRedisTaskStore(redis.url, { prefix }) as RedisTaskStore;
      const b = createRedisTaskStore(redis.url, { prefix }) as RedisTaskStore;
      await Promise.all([a.ready(), b.ready()]);
      return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
    },
  ],
  [
    // every script touches one slot, so the store works on a Redis Cluster URL.
    'redis cluster',
    async () => {
      const prefix = `contract-${process.pid}-${++made}:`;
      const a = createRedisTaskStore(cluster.url, { prefix }) as RedisTaskStore;
      const b = createRedisTaskStore(cluster.url, { prefix }) as RedisTaskStore;
      await Promise.all([a.ready(), b.ready()]);
      return { a, b, close: async () => void (await Promise.all([a.close(), b.close()])) };
    },
  ],
];

describe.each(backends)('TaskStore contract: %s', (_name, open) => {
  test('create then get returns the same task, results intact (empty arrays stay arrays)', async () => {
    const { a, b, close } = await open();
    const task = record();
    await a.create(task);
    expect(await b.get(task.taskId)).toEqual(task);
    const outcome = { result: { content: [], structuredContent: { list: [], n: 1.5, nested: { empty: {} } } } };
    const done = await b.finish(task.taskId, { status: 'completed', outcome, at: task.createdAt + 5 });
    expect(done).toMatchObject({ status: 'completed', lastUpdatedAt: task.createdAt + 5, outcome });
    expect((await a.get(task.taskId))?.outcome).toEqual(outcome);
    expect(await a.get('unknown')).toBeUndefined();
    await close();
  });

  test('the first terminal write wins; later ones change nothing', async () => {
    const { a, b, close } = await open();
    const task = record();
    await a.create(task);
    const [first, second] = await Promise.all([
      a.finish(task.taskId, { status: 'cancelled', statusMessage: 'stop', at: Date.now() }),
      b.finish(task.taskId, { status: 'completed', outcome: { result: { content: [] } }, at: Date.now() }),
    ]);
    expect([first, second].filter((x) => x !== undefined)).toHaveLength(1);
    const winner = (first ?? second)!.status;
    expect((await a.get(task.taskId))?.status).toBe(winner);
    expect(await a.finish(task.taskId, { status: 'failed', at: Date.now() })).toBeUndefined();
    await close();
  });

  test('a lease condition fails only a task whose lease lapsed; renewals keep it alive', async () => {
    const { a, b, close } = await open();
    const task = record({ leaseUntil: Date.now() + 200 });
    await a.create(task);
    const early = await b.finish(task.taskId, { status: 'failed', at: Date.now(), leaseExpiredBefore: Date.now() });
    expect(early).toBeUndefined();
    expect(await a.renew('owner-a', [task.taskId, 'gone-task'], Date.now() + 50)).toEqual(['gone-task']);
    expect(await a.renew('someone-else', [task.taskId], Date.now() + 50_000)).toEqual([task.taskId]);
    // Seen from a moment after owner-a's lease (50 ms) ends, another instance may finish the task:
    // the store compares leases with the time it is given, so no test waits for the clock.
    const later = Date.now() + 1_000;
    const lapsed = await b.finish(task.taskId, {
      status: 'failed',
      statusMessage: 'owner lost',
      at: later,
      leaseExpiredBefore: later,
    });
    expect(lapsed).toMatchObject({ status: 'failed', statusMessage: 'owner lost' });
    expect(await a.renew('owner-a', [task.taskId], Date.now() + 50)).toEqual([task.taskId]);
    await close();
  });

  test('transition moves a running task between working and input_required, never a finished one', async () => {
    const { a, b, close } = await open();
    const task = record();
    await a.create(task);
    const waiting = await b.transition(task.taskId, {
      status: 'input_required',
      statusMessage: 'asking',
      at: task.createdAt + 1,
    });
    expect(waiting).toMatchObject({
      status: 'input_required',
      statusMessage: 'asking',
      lastUpdatedAt: task.createdAt + 1,
    });
    const back = await a.transition(task.taskId, { status: 'working', at: task.createdAt + 2 });
    expect(back?.status).toBe('working');
    expect(back?.statusMessage).toBeUndefined();
    await a.finish(task.taskId, { status: 'cancelled', at: Date.now() });
    expect(await b.transition(task.taskId, { status: 'working', at: Date.now() })).toBeUndefined();
    expect((await a.get(task.taskId))?.status).toBe('cancelled');
    expect(await a.transition('unknown', { status: 'working', at: Date.now() })).toBeUndefined();
    await close();
  });

  test('settled events reach every handle on the backend', async () => {
    const { a, b, close } = await open();
    const heard: string[] = [];
    const stop = b.onSettled((id, status) => heard.push(`${id} ${status}`));
    const task = record();
    await a.create(task);
    await a.finish(task.taskId, { status: 'cancelled', at: Date.now() });
    await expect.poll(() => heard).toEqual([`${task.taskId} cancelled`]);
    stop();
    await close();
  });

  test('a task is gone after its ttl', async () => {
    const { a, close } = await open();
    const task = record({ ttlMs: 100 });
    await a.create(task);
    expect(await a.get(task.taskId)).toBeDefined();
    // Gone once its ttl lapses.
    await expect.poll(() => a.get(task.taskId), { timeout: 5_000 }).toBeUndefined();
    expect(await a.finish(task.taskId, { status: 'cancelled', at: Date.now() })).toBeUndefined();
    await close();
  });

  test('list pages by creation order within one authorization context', async () => {
    const { a, b, close } = await open();
    const context = `ctx-${made}`;
    const base = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      // Two tasks share each millisecond: ties break by id.
      const task = record({ owningContext: context, createdAt: base + Math.floor(i / 2) });
      ids.push(task.taskId);
      await a.create(task);
    }
    await a.create(record({ owningContext: 'someone-else' }));
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await b.list(context, { limit: 3, ...(cursor === undefined ? {} : { cursor }) });
      expect(page.tasks.length).toBeLessThanOrEqual(3);
      seen.push(...page.tasks.map((t) => t.taskId));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    const expected = [...ids].sort((x, y) => {
      const tx = base + Math.floor(ids.indexOf(x) / 2);
      const ty = base + Math.floor(ids.indexOf(y) / 2);
      return tx - ty || (x < y ? -1 : 1);
    });
    expect(seen).toEqual(expected);
    await expect(b.list(context, { limit: 3, cursor: '!!' })).rejects.toThrow(/cursor/);
    await close();
  });
});
