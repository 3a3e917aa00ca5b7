/**
 * Tasks on the wire, 2025-11-25 (basic/utilities/tasks): raw JSON-RPC over a
 * real Streamable HTTP socket, for what the SDK client does not show — the
 * error codes the spec names, TTL expiry and the granted TTL, pagination,
 * the blocking `tasks/result`, a JSON-RPC error carried through a task, and
 * a server that shuts down with a task running.
 */
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
} from '@modelcontextprotocol/core';
import { afterEach, describe, expect, test } from 'vitest';
import type { ServerOptions } from '../../src/server/create-server.js';
import { closeAll, track } from '../support/http-support.js';
import { buildTaskServer } from '../support/task-server.js';
import { rawSession } from '../support/task-wire.js';

afterEach(closeAll);

async function start(options: Partial<ServerOptions> = {}) {
  const built = buildTaskServer(options);
  const listener = await built.server.listen({ port: 0, handleSignals: false, env: {} });
  track({ close: () => built.server.close() });
  return { ...built, url: listener.url, client: await rawSession(listener.url) };
}

async function createTask(
  client: Awaited<ReturnType<typeof rawSession>>,
  name: string,
  args: Record<string, unknown> = {},
  task: Record<string, unknown> = {},
): Promise<string> {
  const created = await client.request('tools/call', { name, arguments: args, task });
  expect(CreateTaskResultSchema.safeParse(created.result).success, JSON.stringify(created)).toBe(true);
  return created.result!.task.taskId as string;
}

describe('tasks over raw JSON-RPC (2025-11-25)', () => {
  test('a task answers at once while the handler keeps running; tasks/result blocks until it ends', async () => {
    const { client } = await start();
    const created = await client.request('tools/call', {
      name: 'slow_echo',
      arguments: { text: 'later', ms: 400 },
      task: {},
    });
    const taskId = created.result!.task.taskId as string;
    expect(created.result!._meta['io.modelcontextprotocol/model-immediate-response']).toContain(taskId);
    expect((await client.request('tasks/get', { taskId })).result).toMatchObject({ status: 'working' });
    // The answer came while the handler still runs; tasks/result then waits for its end (its text is the handler's).
    const result = await client.request('tasks/result', { taskId });
    expect(CallToolResultSchema.safeParse(result.result).success).toBe(true);
    expect(result.result).toMatchObject({
      content: [{ type: 'text', text: 'echo: later' }],
      _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
    });
    const done = await client.request('tasks/get', { taskId });
    expect(GetTaskResultSchema.safeParse(done.result).success).toBe(true);
    expect(done.result).toMatchObject({ taskId, status: 'completed', ttl: 3_600_000, pollInterval: 50 });
    expect(Date.parse(done.result!.lastUpdatedAt)).toBeGreaterThanOrEqual(Date.parse(done.result!.createdAt));
  });

  test('the spec error codes: task on a forbidden tool, required tool without task, unknown ids', async () => {
    const { client } = await start();
    const forbidden = await client.request('tools/call', { name: 'plain', arguments: {}, task: {} });
    expect(forbidden.error).toMatchObject({
      code: -32601,
      message: expect.stringContaining('"plain" does not run as a task'),
    });
    const required = await client.request('tools/call', { name: 'job', arguments: {} });
    expect(required.error).toMatchObject({ code: -32601, message: expect.stringContaining('runs only as a task') });
    const badTask = await client.request('tools/call', { name: 'job', arguments: {}, task: 5 });
    expect(badTask.error).toMatchObject({ code: -32602 });
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel']) {
      const unknown = await client.request(method, { taskId: 'no-such-task' });
      expect(unknown.error, method).toMatchObject({ code: -32602, message: expect.stringContaining('Task not found') });
      const missing = await client.request(method, {});
      expect(missing.error, method).toMatchObject({ code: -32602 });
    }
    // The plain call path is unchanged: no task, no related-task meta.
    expect((await client.request('tools/call', { name: 'plain', arguments: {} })).result).toEqual({
      content: [{ type: 'text', text: 'plain result' }],
    });
  });

  test('cancelling a finished task is refused with -32602 naming its status', async () => {
    const { client } = await start();
    const taskId = await createTask(client, 'slow_echo', { text: 'x', ms: 1 });
    await client.request('tasks/result', { taskId });
    const refused = await client.request('tasks/cancel', { taskId });
    expect(refused.error).toMatchObject({
      code: -32602,
      message: "Cannot cancel task: already in terminal status 'completed'.",
    });
  });

  test('tasks/result of a cancelled task is an error, and the cancelled task stays cancelled', async () => {
    const { client, observed } = await start();
    const taskId = await createTask(client, 'hang');
    const waiting = client.request('tasks/result', { taskId });
    await expect.poll(() => observed.hangs).toBe(1);
    expect((await client.request('tasks/cancel', { taskId })).result).toMatchObject({ status: 'cancelled' });
    expect((await waiting).error).toMatchObject({ code: -32602, message: expect.stringContaining('cancelled') });
    // The handler saw the abort and ended ("stopped"); once its end is handled, the task has not moved.
    await expect.poll(() => observed.aborts.length).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect((await client.request('tasks/get', { taskId })).result).toMatchObject({ status: 'cancelled' });
  });

  test('a handler failure travels as the JSON-RPC answer the call would have had, masked', async () => {
    const { client } = await start();
    const taskId = await createTask(client, 'job', { end: 'throw' });
    const result = await client.request('tasks/result', { taskId });
    // Unexpected exceptions are masked: an isError result, no secret in it.
    expect(result.result?.isError).toBe(true);
    expect(JSON.stringify(result)).not.toContain('hunter2');
    expect((await client.request('tasks/get', { taskId })).result).toMatchObject({ status: 'failed' });
  });

  test('a disabled tool fails its task with the -32602 the call would have answered', async () => {
    const { client, server } = await start();
    server.registry.disable({ names: ['job'] });
    const second = await client.request('tools/call', { name: 'job', arguments: {}, task: {} });
    const failedId = second.result?.task?.taskId as string;
    const failed = await client.request('tasks/result', { taskId: failedId });
    expect(failed.error).toMatchObject({ code: -32602 });
    expect((await client.request('tasks/get', { taskId: failedId })).result).toMatchObject({
      status: 'failed',
      statusMessage: expect.stringContaining('Tool execution failed'),
    });
  });

  test('the requested ttl is granted up to the maximum, and an expired task is gone', async () => {
    const { client } = await start({ tasks: { maxTtlMs: 200 } });
    const capped = await client.request('tools/call', {
      name: 'slow_echo',
      arguments: { text: 'a', ms: 1 },
      task: { ttl: 10_000_000 },
    });
    expect(capped.result?.task.ttl).toBe(200);
    const short = await client.request('tools/call', {
      name: 'slow_echo',
      arguments: { text: 'b', ms: 1 },
      task: { ttl: 100 },
    });
    const taskId = short.result?.task.taskId as string;
    expect(short.result?.task.ttl).toBe(100);
    expect((await client.request('tasks/result', { taskId })).result).toBeDefined();
    // Gone once its ttl lapses.
    await expect
      .poll(async () => (await client.request('tasks/get', { taskId })).error?.code, { timeout: 5_000 })
      .toBe(-32602);
    expect((await client.request('tasks/list')).result?.tasks.map((t: { taskId: string }) => t.taskId)).not.toContain(
      taskId,
    );
  });

  test('tasks/list pages through every task once, oldest first; a forged cursor is -32602', async () => {
    const { client } = await start({ tasks: { pageSize: 2 } });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await createTask(client, 'slow_echo', { text: `t${i}`, ms: 1 }));
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.request('tasks/list', cursor === undefined ? {} : { cursor });
      expect(ListTasksResultSchema.safeParse(page.result).success).toBe(true);
      seen.push(...page.result!.tasks.map((t: { taskId: string }) => t.taskId));
      cursor = page.result!.nextCursor;
      pages++;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids);
    expect((await client.request('tasks/list', { cursor: 'not a cursor!' })).error).toMatchObject({ code: -32602 });
  });

  test('progress of a task reaches the session after the CreateTaskResult, with the original token', async () => {
    const { client, url } = await start();
    // The GET stream is where messages about a task go once its request was answered.
    const stream = await fetch(url, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': client.session, 'mcp-protocol-version': '2025-11-25' },
    });
    const { readSse, messagesOf } = await import('../support/http-support.js');
    const collected = readSse(stream, (events) =>
      messagesOf(events).some((m) => m.method === 'notifications/tasks/status'),
    );
    const created = await client.request('tools/call', {
      name: 'slow_echo',
      arguments: { text: 'p', ms: 100 },
      task: {},
      _meta: { progressToken: 'tok' },
    });
    const messages = messagesOf(await collected);
    expect(messages).toContainEqual(
      expect.objectContaining({
        method: 'notifications/progress',
        params: expect.objectContaining({ progressToken: 'tok', progress: 2 }),
      }),
    );
    expect(messages.at(-1)).toMatchObject({
      method: 'notifications/tasks/status',
      params: { taskId: created.result?.task.taskId, status: 'completed' },
    });
  });

  test('closing the server fails a running task with a clear message; it does not hang', async () => {
    const store = new (await import('../../src/engine/tasks/memory-task-store.js')).MemoryTaskStore();
    const { client, server } = await start({ tasks: { store }, shutdownTimeoutMs: 100 });
    const taskId = await createTask(client, 'hang');
    const closeOfStore = store.close.bind(store);
    store.close = async () => {}; // keep it readable after the server closed
    await server.close();
    store.close = closeOfStore;
    expect(await store.get(taskId)).toMatchObject({
      status: 'failed',
      statusMessage: expect.stringContaining('The server shut down before the task finished'),
    });
  });

  test('a working task whose owner stopped renewing is failed by the next reader, with a clear message', async () => {
    const { MemoryTaskStore } = await import('../../src/engine/tasks/memory-task-store.js');
    const { LOST_OWNER_MESSAGE } = await import('../../src/engine/tasks/task-runtime.js');
    const store = new MemoryTaskStore();
    const { client } = await start({ tasks: { store } });
    const now = Date.now();
    // As another instance that died would have left it: working, its lease lapsed a moment ago.
    await store.create({
      taskId: 'orphan-1',
      status: 'working',
      createdAt: now - 5000,
      lastUpdatedAt: now - 5000,
      ttlMs: 60_000,
      pollIntervalMs: 1000,
      owner: 'a-dead-instance',
      leaseUntil: now - 1,
      owningContext: 'anonymous',
      method: 'tools/call',
      name: 'slow_echo',
    });
    expect((await client.request('tasks/get', { taskId: 'orphan-1' })).result).toMatchObject({
      status: 'failed',
      statusMessage: LOST_OWNER_MESSAGE,
    });
    expect((await client.request('tasks/result', { taskId: 'orphan-1' })).error).toMatchObject({
      code: -32603,
      message: LOST_OWNER_MESSAGE,
    });
  });
});
