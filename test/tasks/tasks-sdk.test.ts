/**
 * Tasks (2025-11-25 basic/utilities/tasks) driven by the official
 * SDK v1 client's experimental tasks API (`client.experimental.tasks`), over
 * Streamable HTTP against a listening candor server and over stdio against a
 * spawned one. Every task message the server sends is checked against the
 * task schemas of `@modelcontextprotocol/core`.
 */
import { fileURLToPath } from 'node:url';
import {
  TaskStatusNotificationSchema as CoreStatus,
  CreateTaskResultSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
} from '@modelcontextprotocol/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  TaskStatusNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, test } from 'vitest';
import { buildTaskServer } from '../support/task-server.js';
import { tapTransport } from '../support/wire-check.js';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** Checks what the server sends about tasks against the core schemas (the tap of test/support/wire-check.ts). */
function taskWireCheck() {
  const problems: string[] = [];
  const methods = new Map<string | number, string>();
  let checked = 0;
  const check = (label: string, schema: { safeParse(v: unknown): { success: boolean } }, v: unknown) => {
    checked++;
    if (!schema.safeParse(v).success) problems.push(`${label}: ${JSON.stringify(v)}`);
  };
  const client = (message: { id?: string | number; method?: string; params?: { task?: unknown } }) => {
    if (message.id === undefined || message.method === undefined) return;
    const taskCall = message.method === 'tools/call' && message.params?.task !== undefined;
    methods.set(message.id, taskCall ? 'tools/call+task' : message.method);
  };
  const server = (message: { id?: string | number; method?: string; result?: unknown }) => {
    if (message.method === 'notifications/tasks/status') check('status notification', CoreStatus, message);
    if (message.id === undefined || message.result === undefined) return;
    const method = methods.get(message.id);
    if (method === 'tools/call+task') check('CreateTaskResult', CreateTaskResultSchema, message.result);
    if (method === 'tasks/get' || method === 'tasks/cancel') check(method, GetTaskResultSchema, message.result);
    if (method === 'tasks/list') check(method, ListTasksResultSchema, message.result);
    if (method === 'tasks/result') check(method, CallToolResultSchema, message.result);
  };
  return {
    wrap: <T extends Transport>(transport: T): T => tapTransport(transport as never, { server, client }) as T,
    /** How many task messages were checked. */
    get checked() {
      return checked;
    },
    assertClean() {
      expect(problems).toEqual([]);
    },
  };
}

async function httpClient(capabilities: Record<string, object> = {}) {
  const { server, observed } = buildTaskServer();
  const listener = await server.listen({ port: 0, handleSignals: false, env: {} });
  cleanup.push(() => server.close());
  const wire = taskWireCheck();
  const client = new Client({ name: 'sdk-v1-tasks', version: '1.0.0' }, { capabilities });
  await client.connect(wire.wrap(new StreamableHTTPClientTransport(new URL(listener.url))));
  // The SDK opens its GET stream after initialization; messages about tasks go there.
  await expect.poll(() => [...server.dispatcher.peers].some((peer) => peer.channel !== undefined)).toBe(true);
  cleanup.push(async () => {
    await client.close();
    wire.assertClean();
  });
  return { client, server, observed, wire };
}

async function stdioClient(capabilities: Record<string, object> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', fileURLToPath(new URL('../fixtures/task-stdio-server.ts', import.meta.url))],
    stderr: 'pipe',
  });
  const wire = taskWireCheck();
  const client = new Client({ name: 'sdk-v1-tasks', version: '1.0.0' }, { capabilities });
  await client.connect(wire.wrap(transport));
  cleanup.push(async () => {
    await client.close();
    wire.assertClean();
  });
  return { client, wire };
}

type Message = { type: string; task?: { taskId: string; status: string }; result?: unknown; error?: Error };

async function drain(stream: AsyncIterable<Message>): Promise<Message[]> {
  const messages: Message[] = [];
  for await (const message of stream) messages.push(message);
  return messages;
}

describe.each([
  ['Streamable HTTP', httpClient],
  ['stdio', stdioClient],
] as const)('SDK v1 experimental tasks over %s', (_transport, connect) => {
  test('the server advertises tasks and tools say which run as tasks', async () => {
    const { client } = await connect();
    expect(client.getServerCapabilities()?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools } = await client.listTools();
    const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport ?? 'absent']));
    expect(support).toEqual({
      confirm_job: 'optional',
      hang: 'optional',
      job: 'required',
      plain: 'absent',
      slow_echo: 'optional',
    });
  });

  test('callToolStream: the task is created, polled to completion and its result fetched', async () => {
    const { client, wire } = await connect();
    await client.listTools();
    const messages = await drain(
      client.experimental.tasks.callToolStream({ name: 'slow_echo', arguments: { text: 'hi', ms: 150 } }, undefined, {
        task: { ttl: 60_000 },
      }) as AsyncIterable<Message>,
    );
    expect(messages[0]).toMatchObject({ type: 'taskCreated', task: { status: 'working', ttl: 60_000 } });
    expect(messages.filter((m) => m.type === 'taskStatus').at(-1)).toMatchObject({ task: { status: 'completed' } });
    const result = messages.at(-1)!;
    expect(result.type).toBe('result');
    expect(result.result).toMatchObject({
      content: [{ type: 'text', text: 'echo: hi' }],
      _meta: { 'io.modelcontextprotocol/related-task': { taskId: messages[0]!.task!.taskId } },
    });
    // CreateTaskResult, each tasks/get and the tasks/result went through the schema check.
    expect(wire.checked).toBeGreaterThanOrEqual(3);
  });

  test('a required-task tool runs through callToolStream without the caller asking for a task', async () => {
    const { client } = await connect();
    await client.listTools(); // the SDK learns job's execution.taskSupport here
    const messages = await drain(
      client.experimental.tasks.callToolStream({ name: 'job', arguments: {} }) as AsyncIterable<Message>,
    );
    expect(messages[0]?.type).toBe('taskCreated');
    expect(messages.at(-1)).toMatchObject({ type: 'result', result: { structuredContent: { done: true } } });
  });

  test('getTask, getTaskResult and listTasks see the task; cancelTask aborts it', async () => {
    const { client } = await connect();
    const created = await client.request(
      { method: 'tools/call', params: { name: 'hang', arguments: {}, task: {} } },
      CreateTaskResultSchema as never,
    );
    const taskId = (created as { task: { taskId: string } }).task.taskId;
    const got = await client.experimental.tasks.getTask(taskId);
    expect(got).toMatchObject({ taskId, status: 'working', pollInterval: 50 });
    const listed = await client.experimental.tasks.listTasks();
    expect(listed.tasks.map((t) => t.taskId)).toContain(taskId);

    const cancelled = await client.experimental.tasks.cancelTask(taskId);
    expect(cancelled).toMatchObject({ taskId, status: 'cancelled' });
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'cancelled' });
    // Cancelling again: the spec's -32602 for a terminal task.
    await expect(client.experimental.tasks.cancelTask(taskId)).rejects.toThrow(/terminal status 'cancelled'/);
  });

  test('a handler that asks the user: input_required while waiting, the question names its task, the answer finishes it', async () => {
    const { client } = await connect({ elicitation: {} });
    const asked: Array<Record<string, any>> = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      await new Promise((r) => setTimeout(r, 200));
      return { action: 'accept', content: { confirm: true } };
    });
    const messages = await drain(
      client.experimental.tasks.callToolStream({ name: 'confirm_job', arguments: {} }, undefined, {
        task: {},
      }) as AsyncIterable<Message>,
    );
    const taskId = messages[0]!.task!.taskId;
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      message: 'Go ahead with the job?',
      _meta: { 'io.modelcontextprotocol/related-task': { taskId } },
    });
    expect(messages.some((m) => m.type === 'taskStatus' && m.task?.status === 'input_required')).toBe(true);
    expect(messages.at(-1)).toMatchObject({
      type: 'result',
      result: { content: [{ type: 'text', text: 'went ahead' }] },
    });
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'completed' });
  });

  test('a tool error fails the task (2025-11-25) and tasks/result returns the isError result', async () => {
    const { client } = await connect();
    const created = (await client.request(
      { method: 'tools/call', params: { name: 'job', arguments: { end: 'tool_error' }, task: {} } },
      CreateTaskResultSchema as never,
    )) as { task: { taskId: string } };
    const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'the job found nothing to do' }] });
    expect(await client.experimental.tasks.getTask(created.task.taskId)).toMatchObject({
      status: 'failed',
      statusMessage: 'Tool execution failed: the job found nothing to do',
    });
  });
});

describe('SDK v1 over Streamable HTTP, task details', () => {
  test('the cancelled handler sees its signal abort with TaskCancelledError', async () => {
    const { client, observed } = await httpClient();
    const created = (await client.request(
      { method: 'tools/call', params: { name: 'hang', arguments: {}, task: {} } },
      CreateTaskResultSchema as never,
    )) as { task: { taskId: string } };
    await expect.poll(() => observed.hangs).toBe(1);
    await client.experimental.tasks.cancelTask(created.task.taskId);
    await expect.poll(() => observed.aborts).toEqual(['TaskCancelledError']);
  });

  test('a status notification reaches the client on its GET stream when the task ends', async () => {
    const { client } = await httpClient();
    const seen: Array<{ taskId: string; status: string }> = [];
    client.setNotificationHandler(TaskStatusNotificationSchema, (n) => {
      seen.push(n.params as never);
    });
    const created = (await client.request(
      { method: 'tools/call', params: { name: 'slow_echo', arguments: { text: 'n', ms: 30 }, task: {} } },
      CreateTaskResultSchema as never,
    )) as { task: { taskId: string } };
    await expect
      .poll(() => seen)
      .toContainEqual(expect.objectContaining({ taskId: created.task.taskId, status: 'completed' }));
  });

  test('plain calls of a task-optional tool still answer directly', async () => {
    const { client } = await httpClient();
    const result = await client.callTool({ name: 'slow_echo', arguments: { text: 'direct', ms: 1 } });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'echo: direct' }] });
    expect(result._meta).toBeUndefined();
  });
});
