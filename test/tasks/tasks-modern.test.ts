/**
 * The 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663)
 * on the wire: negotiation through the request's `_meta` envelope and
 * `server/discover`, `CreateTaskResult` with `resultType: "task"`, the
 * DetailedTask of `tasks/get`, `tasks/update` and `tasks/cancel`
 * acknowledgements, -32021 for a client without the extension, and the
 * `Mcp-Name` routing header. Also: a 2025 client and a 2026 client share one
 * endpoint and one task store.
 */
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, test } from 'vitest';
import { closeAll, track } from '../support/http-support.js';
import { startLineProcess } from '../support/line-process.js';
import { buildTaskServer } from '../support/task-server.js';
import { answerOf, MODERN, modernClient, pollTask, rawSession, TASKS_EXTENSION } from '../support/task-wire.js';

afterEach(closeAll);

async function start() {
  const built = buildTaskServer();
  const listener = await built.server.listen({ port: 0, handleSignals: false, env: {} });
  track({ close: () => built.server.close() });
  return { ...built, url: listener.url };
}

describe('the tasks extension (2026-07-28)', () => {
  test('server/discover advertises the extension, not the 2025 capability', async () => {
    const { url } = await start();
    const discover = await modernClient(url)('server/discover');
    expect(discover.result?.capabilities.extensions).toEqual({ [TASKS_EXTENSION]: {} });
    expect(discover.result?.capabilities.tasks).toBeUndefined();
  });

  test('tools/list carries no execution (deleted in this era), while a 2025 session still sees it', async () => {
    const { url } = await start();
    const modern = await modernClient(url)('tools/list');
    expect(modern.result!.tools.length).toBe(5);
    for (const tool of modern.result!.tools) expect(tool.execution, tool.name).toBeUndefined();
    const again = await modernClient(url)('tools/list');
    expect(again.result!.tools).toEqual(modern.result!.tools);
    const legacy = await (await rawSession(url)).request('tools/list');
    expect(legacy.result!.tools.find((t: { name: string }) => t.name === 'job').execution).toEqual({
      taskSupport: 'required',
    });
  });

  test('a client that declares the extension gets a task; tasks/get inlines the result when it completes', async () => {
    const { url } = await start();
    const call = modernClient(url);
    const created = await call('tools/call', { name: 'slow_echo', arguments: { text: 'modern', ms: 80 } });
    expect(created.status).toBe(200);
    expect(created.result).toMatchObject({
      resultType: 'task',
      status: 'working',
      ttlMs: 3_600_000,
      pollIntervalMs: 50,
    });
    expect(created.result?.ttl).toBeUndefined();
    const taskId = created.result!.taskId as string;
    const done = await pollTask(call, taskId, (s) => s === 'completed');
    expect(done).toMatchObject({
      resultType: 'complete',
      taskId,
      status: 'completed',
      result: { content: [{ type: 'text', text: 'echo: modern' }] },
    });
  });

  test('a tool error completes the task with the isError result (failed is for JSON-RPC errors)', async () => {
    const { url } = await start();
    const call = modernClient(url);
    const created = await call('tools/call', { name: 'job', arguments: { end: 'tool_error' } });
    const done = await pollTask(call, created.result!.taskId, (s) => s !== 'working');
    expect(done).toMatchObject({ status: 'completed', result: { isError: true } });
  });

  test('a task that asks the client waits in input_required; tasks/update answers it and the handler runs again', async () => {
    const { url } = await start();
    const call = modernClient(url, { capabilities: { elicitation: { form: {} } } });
    const created = await call('tools/call', { name: 'confirm_job', arguments: {} });
    const waiting = await pollTask(call, created.result!.taskId, (s) => s === 'input_required');
    const keys = Object.keys(waiting.inputRequests);
    expect(keys).toHaveLength(1);
    expect(waiting.inputRequests[keys[0]!]).toMatchObject({
      method: 'elicitation/create',
      params: expect.objectContaining({ message: expect.stringContaining('Go ahead with the job?') }),
    });
    // A key that is not outstanding is ignored; a malformed answer is refused.
    expect(
      (await call('tasks/update', { taskId: created.result!.taskId, inputResponses: { nope: {} } })).result,
    ).toMatchObject({ resultType: 'complete' });
    expect((await pollTask(call, created.result!.taskId, () => true)).status).toBe('input_required');
    const bad = await call('tasks/update', { taskId: created.result!.taskId, inputResponses: { [keys[0]!]: 'yes' } });
    expect(bad.error?.code).toBe(-32602);
    const ack = await call('tasks/update', {
      taskId: created.result!.taskId,
      inputResponses: { [keys[0]!]: { action: 'accept', content: { confirm: true } } },
    });
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    const done = await pollTask(call, created.result!.taskId, (s) => s === 'completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'went ahead' }] });
    expect(done.inputRequests).toBeUndefined();

    // Declined: the handler sees the decline.
    const declined = await call('tools/call', { name: 'confirm_job', arguments: {} });
    const asked = await pollTask(call, declined.result!.taskId, (s) => s === 'input_required');
    const key = Object.keys(asked.inputRequests)[0]!;
    await call('tasks/update', { taskId: declined.result!.taskId, inputResponses: { [key]: { action: 'decline' } } });
    expect((await pollTask(call, declined.result!.taskId, (s) => s === 'completed')).result).toMatchObject({
      content: [{ type: 'text', text: 'stopped' }],
    });

    // Cancelled while it waits: cancelled, and an answer afterwards changes nothing.
    const dropped = await call('tools/call', { name: 'confirm_job', arguments: {} });
    const pending = await pollTask(call, dropped.result!.taskId, (s) => s === 'input_required');
    expect((await call('tasks/cancel', { taskId: dropped.result!.taskId })).result).toMatchObject({
      resultType: 'complete',
    });
    const late = Object.keys(pending.inputRequests)[0]!;
    await call('tasks/update', {
      taskId: dropped.result!.taskId,
      inputResponses: { [late]: { action: 'accept', content: { confirm: true } } },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await pollTask(call, dropped.result!.taskId, () => true)).status).toBe('cancelled');

    // A client that cannot answer at all: the call's own -32021 fails the task.
    const unable = modernClient(url);
    const second = await unable('tools/call', { name: 'confirm_job', arguments: {} });
    const failed = await pollTask(unable, second.result!.taskId, (s) => s !== 'working');
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32021 } });
  });

  test('a JSON-RPC error during the call fails the task and carries the error', async () => {
    const { url, server } = await start();
    server.registry.disable({ names: ['job'] });
    const call = modernClient(url);
    const created = await call('tools/call', { name: 'job', arguments: {} });
    const done = await pollTask(call, created.result!.taskId, (s) => s !== 'working');
    expect(done).toMatchObject({
      status: 'failed',
      error: { code: -32602, message: expect.stringContaining('disabled') },
    });
  });

  test('without the extension: optional tools answer directly, required ones are refused with -32021', async () => {
    const { url } = await start();
    const call = modernClient(url, { tasks: false });
    const direct = await call('tools/call', { name: 'slow_echo', arguments: { text: 'now', ms: 1 } });
    expect(direct.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'echo: now' }] });
    const refused = await call('tools/call', { name: 'job', arguments: {} });
    expect(refused.status).toBe(400);
    expect(refused.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const answer = await call(method, { taskId: 'anything' });
      expect(answer.error, method).toMatchObject({ code: -32021 });
    }
  });

  test('tasks/cancel acknowledges with an empty result and aborts the handler', async () => {
    const { url, observed } = await start();
    const call = modernClient(url);
    const created = await call('tools/call', { name: 'hang', arguments: {} });
    const taskId = created.result!.taskId as string;
    await expect.poll(() => observed.hangs).toBe(1);
    const ack = await call('tasks/cancel', { taskId });
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    expect(Object.keys(ack.result!).sort()).toEqual(['_meta', 'resultType']);
    await expect.poll(() => observed.aborts).toEqual(['TaskCancelledError']);
    expect((await call('tasks/get', { taskId })).result).toMatchObject({ status: 'cancelled' });
    // Cancelling a terminal task is still acknowledged (cancellation is cooperative in the extension).
    expect((await call('tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
  });

  test('tasks/update is acknowledged; unknown task ids are -32602', async () => {
    const { url } = await start();
    const call = modernClient(url);
    const created = await call('tools/call', { name: 'slow_echo', arguments: { text: 'u', ms: 1 } });
    const ack = await call('tasks/update', {
      taskId: created.result!.taskId,
      inputResponses: { nope: { action: 'cancel' } },
    });
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      expect((await call(method, { taskId: 'missing', inputResponses: {} })).error, method).toMatchObject({
        code: -32602,
      });
    }
    // tasks/list and tasks/result are 2025-11-25 methods; the extension has neither.
    expect((await call('tasks/list')).status).toBe(404);
    expect((await call('tasks/result', { taskId: 'x' })).status).toBe(404);
  });

  test('the Mcp-Name header must name the task (routing header)', async () => {
    const { url } = await start();
    const call = modernClient(url);
    const created = await call('tools/call', { name: 'slow_echo', arguments: { text: 'h', ms: 1 } });
    const wrong = await call('tasks/get', { taskId: created.result!.taskId }, 'another-task');
    expect(wrong.status).toBe(400);
    expect(wrong.error).toMatchObject({ code: -32020 });
    const body = {
      jsonrpc: '2.0',
      id: 'no-name',
      method: 'tasks/get',
      params: {
        taskId: created.result!.taskId,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
        },
      },
    };
    const missing = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tasks/get',
      },
      body: JSON.stringify(body),
    });
    expect((await answerOf(missing, 'no-name')).error).toMatchObject({ code: -32020 });
  });

  test('one store for both eras: a task made by a 2026 client is visible to a 2025 session', async () => {
    const { url } = await start();
    const call = modernClient(url);
    const created = await call('tools/call', { name: 'slow_echo', arguments: { text: 'both', ms: 1 } });
    const legacy = await rawSession(url);
    const result = await legacy.request('tasks/result', { taskId: created.result!.taskId });
    expect(result.result).toMatchObject({ content: [{ type: 'text', text: 'echo: both' }] });
  });

  test('the SDK v2 client pinned to 2026-07-28 (no tasks extension) lists and calls as before; a required-task tool is -32021', async () => {
    const { url } = await start();
    const client = new Client(
      { name: 'v2-modern', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: MODERN } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    track({ close: () => client.close() });
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['confirm_job', 'hang', 'job', 'plain', 'slow_echo']);
    const result = await client.callTool({ name: 'slow_echo', arguments: { text: 'v2', ms: 1 } });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'echo: v2' }] });
    await expect(client.callTool({ name: 'job', arguments: {} })).rejects.toMatchObject({ code: -32021 });
  });

  test('over stdio too: a task is created, polled to completion and cancelled', async () => {
    const server = startLineProcess([
      '--import',
      'tsx',
      fileURLToPath(new URL('../fixtures/task-stdio-server.ts', import.meta.url)),
    ]);
    track({ close: () => void server.child.kill() });
    const meta = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': { extensions: { [TASKS_EXTENSION]: {} } },
    };
    const send = (id: number, method: string, params: Record<string, unknown>) =>
      server.send({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } });
    send(1, 'tools/call', { name: 'slow_echo', arguments: { text: 'stdio', ms: 20 } });
    // The first answer waits for tsx to compile the fixture, slow on a loaded machine.
    const created = await server.waitFor((m) => m.id === 1, 60_000);
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = created.result.taskId as string;
    let id = 1;
    let task: Record<string, any> = {};
    while (task.status !== 'completed' && id < 100) {
      send(++id, 'tasks/get', { taskId });
      task = (await server.waitFor((m) => m.id === id)).result;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(task).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'echo: stdio' }] } });
    send(200, 'tools/call', { name: 'hang', arguments: {} });
    const hang = (await server.waitFor((m) => m.id === 200)).result.taskId as string;
    send(201, 'tasks/cancel', { taskId: hang });
    expect((await server.waitFor((m) => m.id === 201)).result).toMatchObject({ resultType: 'complete' });
    send(202, 'tasks/get', { taskId: hang });
    expect((await server.waitFor((m) => m.id === 202)).result).toMatchObject({ status: 'cancelled' });
    expect(server.nonJson).toEqual([]);
  }, 120_000);
});
