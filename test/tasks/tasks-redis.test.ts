/**
 * Tasks shared through a real Redis: two candor instances, each
 * listening on its own loopback port with its own Redis task store on one
 * `redis-server`. A task started on instance A is polled, its result read and
 * cancelled from instance B (the cancel reaches A's handler through pub/sub);
 * when A is killed mid-task, B reports the task failed once A's lease lapses,
 * and a `tasks/result` waiting on B returns instead of hanging.
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { LOST_OWNER_MESSAGE } from '../../src/engine/tasks/task-runtime.js';
import { createRedisTaskStore, type RedisTaskStore } from '../../src/stores/redis-task-store.js';
import { closeAll, track } from '../support/http-support.js';
import { startLineProcess } from '../support/line-process.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';
import { buildTaskServer } from '../support/task-server.js';
import { modernClient, rawSession } from '../support/task-wire.js';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());
afterEach(closeAll);

// Long enough that a busy machine running the whole suite still renews in time.
const LEASE_MS = 1500;

/** One in-process instance with its own Redis task store; every run gets its own key prefix. */
async function instance(prefix: string, shutdownTimeoutMs = 10_000) {
  const store = createRedisTaskStore(redis.url, { prefix }) as RedisTaskStore;
  const built = buildTaskServer({ tasks: { store, leaseMs: LEASE_MS }, shutdownTimeoutMs });
  await store.ready();
  const listener = await built.server.listen({ port: 0, handleSignals: false, env: {} });
  track({ close: () => built.server.close() });
  return { ...built, store, url: listener.url };
}

let runs = 0;
const freshPrefix = () => `candor-test-${process.pid}-${++runs}:`;

describe('tasks on two instances sharing Redis', () => {
  test('started on A: polled, listed and its result read on B', async () => {
    const prefix = freshPrefix();
    const a = await instance(prefix);
    const b = await instance(prefix);
    const onA = await rawSession(a.url);
    const onB = await rawSession(b.url);
    const created = await onA.request('tools/call', {
      name: 'slow_echo',
      arguments: { text: 'shared', ms: 300 },
      task: {},
    });
    const taskId = created.result!.task.taskId as string;
    expect((await onB.request('tasks/get', { taskId })).result).toMatchObject({ taskId, status: 'working' });
    expect((await onB.request('tasks/list')).result!.tasks.map((t: { taskId: string }) => t.taskId)).toContain(taskId);
    const result = await onB.request('tasks/result', { taskId });
    expect(result.result).toMatchObject({
      content: [{ type: 'text', text: 'echo: shared' }],
      _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
    });
    expect((await onB.request('tasks/get', { taskId })).result).toMatchObject({ status: 'completed' });
  });

  test('cancelled from B: the handler running on A sees its signal abort', async () => {
    const prefix = freshPrefix();
    const a = await instance(prefix);
    const b = await instance(prefix);
    const onA = await rawSession(a.url);
    const onB = await rawSession(b.url);
    const created = await onA.request('tools/call', { name: 'hang', arguments: {}, task: {} });
    const taskId = created.result!.task.taskId as string;
    await expect.poll(() => a.observed.hangs).toBe(1);
    const waitingOnA = onA.request('tasks/result', { taskId });
    expect((await onB.request('tasks/cancel', { taskId })).result).toMatchObject({ status: 'cancelled' });
    await expect.poll(() => a.observed.aborts).toEqual(['TaskCancelledError']);
    expect(b.observed.aborts).toEqual([]);
    expect((await waitingOnA).error).toMatchObject({ code: -32602, message: expect.stringContaining('cancelled') });
    expect((await onA.request('tasks/get', { taskId })).result).toMatchObject({ status: 'cancelled' });
  });

  test('SDK v1 clients: one calls with callToolStream on A, the other reads the result on B', async () => {
    const prefix = freshPrefix();
    const a = await instance(prefix);
    const b = await instance(prefix);
    const clientA = new Client({ name: 'on-a', version: '1.0.0' });
    await clientA.connect(new StreamableHTTPClientTransport(new URL(a.url)));
    const clientB = new Client({ name: 'on-b', version: '1.0.0' });
    await clientB.connect(new StreamableHTTPClientTransport(new URL(b.url)));
    track({ close: () => clientA.close() });
    track({ close: () => clientB.close() });
    const stream = clientA.experimental.tasks.callToolStream(
      { name: 'slow_echo', arguments: { text: 'sdk', ms: 200 } },
      undefined,
      { task: {} },
    );
    const first = await stream.next();
    expect(first.value).toMatchObject({ type: 'taskCreated' });
    const taskId = (first.value as { task: { taskId: string } }).task.taskId;
    const fromB = await clientB.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(fromB).toMatchObject({ content: [{ type: 'text', text: 'echo: sdk' }] });
    expect(await clientB.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'completed' });
    await stream.return(undefined);
  });

  test('a 2026-07-28 client starts a task on A and polls it on B', async () => {
    const prefix = freshPrefix();
    const a = await instance(prefix);
    const b = await instance(prefix);
    const created = await modernClient(a.url)('tools/call', { name: 'slow_echo', arguments: { text: 'm', ms: 50 } });
    const onB = modernClient(b.url);
    let task: Record<string, any> | undefined;
    for (let i = 0; i < 100 && task?.status !== 'completed'; i++) {
      task = (await onB('tasks/get', { taskId: created.result!.taskId })).result;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(task).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'echo: m' }] } });
  });

  test('a 2026-07-28 task that asks the client is answered through B and finishes on A', async () => {
    const prefix = freshPrefix();
    const a = await instance(prefix);
    const b = await instance(prefix);
    const options = { capabilities: { elicitation: { form: {} } } };
    const created = await modernClient(a.url, options)('tools/call', { name: 'confirm_job', arguments: {} });
    const taskId = created.result!.taskId as string;
    const onB = modernClient(b.url, options);
    const until = async (status: string) => {
      for (let i = 0; i < 200; i++) {
        const task = (await onB('tasks/get', { taskId })).result!;
        if (task.status === status) return task;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error(`never ${status}`);
    };
    const waiting = await until('input_required');
    const key = Object.keys(waiting.inputRequests)[0]!;
    await onB('tasks/update', { taskId, inputResponses: { [key]: { action: 'accept', content: { confirm: true } } } });
    const done = await until('completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'went ahead' }] });
  });

  test('A closes gracefully mid-task: B sees the task failed at once, saying the server shut down', async () => {
    const prefix = freshPrefix();
    // Drain waits this long for running calls (tasks too), then aborts them.
    const a = await instance(prefix, 200);
    const b = await instance(prefix);
    const onA = await rawSession(a.url);
    const onB = await rawSession(b.url);
    const created = await onA.request('tools/call', { name: 'hang', arguments: {}, task: {} });
    const taskId = created.result!.task.taskId as string;
    await expect.poll(() => a.observed.hangs).toBe(1);
    await a.server.close();
    expect((await onB.request('tasks/get', { taskId })).result).toMatchObject({
      status: 'failed',
      statusMessage: expect.stringContaining('shut down'),
    });
  });

  test('A is killed mid-task: B marks it failed after the lease and a waiting tasks/result returns', async () => {
    const prefix = freshPrefix();
    const b = await instance(prefix);
    const a = startLineProcess(
      ['--import', 'tsx', fileURLToPath(new URL('../fixtures/task-redis-server.ts', import.meta.url))],
      { REDIS_URL: redis.url, TASK_LEASE_MS: String(LEASE_MS), CANDOR_TASK_PREFIX: prefix },
    );
    track({ close: () => void a.child.kill('SIGKILL') });
    const { url } = await a.waitFor((m) => typeof m?.url === 'string', 20_000);
    const onA = await rawSession(url);
    const onB = await rawSession(b.url);
    const created = await onA.request('tools/call', { name: 'hang', arguments: {}, task: {} });
    const taskId = created.result!.task.taskId as string;
    // A renews its lease while it runs: well past one lease, the task still works.
    await new Promise((r) => setTimeout(r, LEASE_MS * 2));
    expect((await onB.request('tasks/get', { taskId })).result).toMatchObject({ status: 'working' });

    const waiting = onB.request('tasks/result', { taskId });
    a.child.kill('SIGKILL');
    await a.exited;
    // The waiting tasks/result returns once B sees A's lease lapse (not when the test times out).
    const answer = await waiting;
    expect(answer.error).toMatchObject({ code: -32603, message: LOST_OWNER_MESSAGE });
    expect((await onB.request('tasks/get', { taskId })).result).toMatchObject({
      status: 'failed',
      statusMessage: LOST_OWNER_MESSAGE,
    });
  });

  test('createServer({ redis }) keeps tasks in that Redis without a task store of its own', async () => {
    const a = buildTaskServer({ redis: redis.url, tasks: { leaseMs: LEASE_MS } });
    const b = buildTaskServer({ redis: redis.url, tasks: { leaseMs: LEASE_MS } });
    const urls: string[] = [];
    for (const built of [a, b]) {
      const listener = await built.server.listen({ port: 0, handleSignals: false, env: {} });
      track({ close: () => built.server.close() });
      urls.push(listener.url);
    }
    const onA = await rawSession(urls[0]!);
    const created = await onA.request('tools/call', { name: 'hang', arguments: {}, task: {} });
    const taskId = created.result!.task.taskId as string;
    await expect.poll(() => a.observed.hangs).toBe(1);
    const onB = modernClient(urls[1]!);
    expect((await onB('tasks/get', { taskId })).result).toMatchObject({ taskId, status: 'working' });
    expect((await onB('tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
    await expect.poll(() => a.observed.aborts).toEqual(['TaskCancelledError']);
  });

  test('the task hash expires with the task in Redis, and the list index follows', async () => {
    const prefix = freshPrefix();
    const a = await instance(prefix);
    const onA = await rawSession(a.url);
    const created = await onA.request('tools/call', {
      name: 'slow_echo',
      arguments: { text: 'ttl', ms: 1 },
      task: { ttl: 300 },
    });
    const taskId = created.result!.task.taskId as string;
    const probe = new Redis(redis.url);
    track({ close: () => void probe.disconnect() });
    const ttl = await probe.pttl(`${prefix}task:${taskId}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(300);
    await onA.request('tasks/result', { taskId });
    // Redis drops the record when its ttl lapses.
    await expect.poll(() => probe.exists(`${prefix}task:${taskId}`), { timeout: 5_000 }).toBe(0);
    expect((await onA.request('tasks/get', { taskId })).error).toMatchObject({ code: -32602 });
    expect((await onA.request('tasks/list')).result!.tasks).toEqual([]);
  });
});

describe('tasks while Redis is away (runs last: it restarts redis-server)', () => {
  test('plain calls keep working, task requests fail with a clear -32603, and tasks work again once Redis is back', async () => {
    const a = await instance(freshPrefix());
    const onA = await rawSession(a.url);
    await redis.kill();
    expect((await onA.request('tools/call', { name: 'plain', arguments: {} })).result).toMatchObject({
      content: [{ type: 'text', text: 'plain result' }],
    });
    const refused = await onA.request('tools/call', { name: 'slow_echo', arguments: { text: 'x', ms: 1 }, task: {} });
    expect(refused.error).toMatchObject({
      code: -32603,
      message: expect.stringContaining('The task store is unavailable'),
    });
    for (const method of ['tasks/get', 'tasks/list', 'tasks/cancel']) {
      expect((await onA.request(method, { taskId: 'any' })).error, method).toMatchObject({
        code: -32603,
        message: expect.stringContaining('The task store is unavailable'),
      });
    }

    await redis.restart();
    let created: Awaited<ReturnType<typeof onA.request>> | undefined;
    for (let i = 0; i < 50 && created?.result === undefined; i++) {
      created = await onA.request('tools/call', { name: 'slow_echo', arguments: { text: 'back', ms: 1 }, task: {} });
      if (created.result === undefined) await new Promise((r) => setTimeout(r, 100));
    }
    const taskId = created!.result!.task.taskId as string;
    expect((await onA.request('tasks/result', { taskId })).result).toMatchObject({
      content: [{ type: 'text', text: 'echo: back' }],
    });
  });
});
