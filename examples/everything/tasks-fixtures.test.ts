/**
 * The tasks-extension fixtures of examples/everything over HTTP in the
 * 2026-07-28 era: each does what the official suite's `tasks-*` scenarios
 * call it for (scripts/conformance.sh runs the suite itself).
 */
import { afterEach, describe, expect, test } from 'vitest';
import { closeAll, track } from '../../test/support/http-support.js';
import { modernClient, pollTask } from '../../test/support/task-wire.js';
import { createEverythingServer } from './server.js';

afterEach(closeAll);

async function start(options: { tasks?: boolean } = {}) {
  const server = createEverythingServer();
  const listener = await server.listen({ port: 0, handleSignals: false, env: {} });
  track({ close: () => server.close() });
  return modernClient(listener.url, { ...options, capabilities: { elicitation: { form: {} } } });
}

const settled = (status: string) => status !== 'working';
const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });

describe('examples/everything tasks fixtures (2026-07-28, tasks extension)', () => {
  test('greet answers at once, even with a legacy task hint', async () => {
    const call = await start();
    const got = await call('tools/call', { name: 'greet', arguments: { name: 'Ada' }, task: { ttl: 60_000 } });
    expect(got.result!.taskId).toBeUndefined();
    expect(got.result!.content[0].text).toBe('Hello, Ada!');
  });

  test('slow_compute is a task with the extension and a plain call without it', async () => {
    const call = await start();
    const created = await call('tools/call', { name: 'slow_compute', arguments: { seconds: 0, label: 'x' } });
    expect(created.result).toMatchObject({ resultType: 'task' });
    const done = await pollTask(call, created.result!.taskId, settled);
    expect(done).toMatchObject({ status: 'completed' });
    expect(done.result.content[0].text).toContain('x');

    const plain = await (await start({ tasks: false }))('tools/call', {
      name: 'slow_compute',
      arguments: { seconds: 0 },
    });
    expect(plain.result!.taskId).toBeUndefined();
    expect(plain.result!.content[0].text).toMatch(/^Computed/);
  });

  test('slow_compute can be cancelled', async () => {
    const call = await start();
    const created = await call('tools/call', { name: 'slow_compute', arguments: { seconds: 60 } });
    const taskId = created.result!.taskId as string;
    expect((await call('tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
    expect(await pollTask(call, taskId, settled)).toMatchObject({ status: 'cancelled' });
  });

  test('failing_job completes with isError; without the extension it is refused (-32021)', async () => {
    const call = await start();
    const created = await call('tools/call', { name: 'failing_job', arguments: {} });
    const done = await pollTask(call, created.result!.taskId, settled);
    expect(done).toMatchObject({ status: 'completed', result: { isError: true } });

    const refused = await (await start({ tasks: false }))('tools/call', { name: 'failing_job', arguments: {} });
    expect(refused.error?.code).toBe(-32021);
    expect(refused.error?.data?.requiredCapabilities?.extensions).toHaveProperty(['io.modelcontextprotocol/tasks']);
  });

  test('protocol_error_job fails with an inlined error and no result', async () => {
    const call = await start();
    const created = await call('tools/call', { name: 'protocol_error_job', arguments: {} });
    const done = await pollTask(call, created.result!.taskId, settled);
    expect(done).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(done.result).toBeUndefined();
  });

  test('confirm_delete waits in input_required, then finishes with the answer', async () => {
    const call = await start();
    const created = await call('tools/call', { name: 'confirm_delete', arguments: { filename: 'a.txt' } });
    const taskId = created.result!.taskId as string;
    const waiting = await pollTask(call, taskId, settled);
    expect(waiting.status).toBe('input_required');
    const [key] = Object.keys(waiting.inputRequests);
    expect(waiting.inputRequests[key!]).toMatchObject({ method: 'elicitation/create' });
    const ack = await call('tasks/update', { taskId, inputResponses: { [key!]: accept({ confirm: true }) } });
    expect(ack.result).toMatchObject({ resultType: 'complete' });
    const done = await pollTask(call, taskId, (status) => status === 'completed');
    expect(done.result.content[0].text).toContain('Deleted a.txt');
  });

  test('multi_input asks two questions at once and stays input_required until both are answered', async () => {
    const call = await start();
    const created = await call('tools/call', { name: 'multi_input', arguments: {} });
    const taskId = created.result!.taskId as string;
    let waiting = await pollTask(call, taskId, settled);
    for (let i = 0; i < 50 && Object.keys(waiting.inputRequests ?? {}).length < 2; i++) {
      await new Promise((r) => setTimeout(r, 20));
      waiting = (await call('tasks/get', { taskId })).result!;
    }
    const [first, second] = Object.keys(waiting.inputRequests);
    expect(second).toBeDefined();
    await call('tasks/update', { taskId, inputResponses: { [first!]: accept({ name: 'Ada' }) } });
    const partly = (await call('tasks/get', { taskId })).result!;
    expect(partly.status).toBe('input_required');
    expect(Object.keys(partly.inputRequests)).toEqual([second]);
    await call('tasks/update', { taskId, inputResponses: { [second!]: accept({ color: 'teal' }) } });
    const done = await pollTask(call, taskId, (status) => status === 'completed');
    expect(done.result.content[0].text).toContain('teal');
  });

  test('test_tool_with_task asks user_name in a plain round, then answers with a task that uses it', async () => {
    const call = await start();
    const first = await call('tools/call', { name: 'test_tool_with_task', arguments: {} });
    expect(first.result).toMatchObject({ resultType: 'input_required' });
    expect(first.result!.taskId).toBeUndefined();
    expect(Object.keys(first.result!.inputRequests)).toEqual(['user_name']);
    const second = await call('tools/call', {
      name: 'test_tool_with_task',
      arguments: {},
      requestState: first.result!.requestState,
      inputResponses: { user_name: accept({ name: 'Alice' }) },
    });
    expect(second.result).toMatchObject({ resultType: 'task' });
    expect(second.result).not.toHaveProperty('requestState');
    expect(second.result).not.toHaveProperty('inputRequests');
    const done = await pollTask(call, second.result!.taskId, settled);
    expect(done).toMatchObject({ status: 'completed' });
    expect(done.result.content[0].text).toContain('Alice');
  });
});
