/**
 * Ask first, then become a task (SEP-2663 "MRTR → tasks"): a tool declared
 * `asksBeforeTask` asks its questions as plain 2026-07-28 `input_required`
 * rounds and calls `ctx.becomeTask()` once they are answered; that request is
 * answered with the task, whose work runs the handler again with the answers.
 * Without the tasks extension, and in the 2025 era, `becomeTask()` resolves at
 * once and the call behaves as it would without it.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, test } from 'vitest';
import { createServer, DefinitionError, defineTool } from '../../src/index.js';
import { closeAll, track } from '../support/http-support.js';
import { modernClient, pollTask } from '../support/task-wire.js';

afterEach(closeAll);

const NAME = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } as const;
const COLOUR = { type: 'object', properties: { colour: { type: 'string' } }, required: ['colour'] } as const;

async function start() {
  /** How many times the part of the handler after becomeTask() ran. */
  const worked = { count: 0 };
  const server = createServer({
    name: 'ask-first',
    version: '1.0.0',
    lintOnStart: false,
    tools: [
      defineTool({
        name: 'deploy',
        description: 'Ask where to deploy, then deploy there as a task; asks a colour inside the task.',
        effect: 'additive',
        world: 'closed',
        task: 'optional',
        asksBeforeTask: true,
        handler: async (_args, ctx) => {
          const where = await ctx.elicit({ message: 'Deploy for whom?', requestedSchema: NAME }, { key: 'who' });
          await ctx.becomeTask();
          worked.count++;
          const colour = ctx.task
            ? await ctx.elicit({ message: 'Colour?', requestedSchema: COLOUR }, { key: 'colour' })
            : { content: { colour: 'none (not a task)' } };
          return `Deployed for ${String(where.content?.name)} in ${String(colour.content?.colour)}.`;
        },
      }),
    ],
  });
  const listener = await server.listen({ port: 0, handleSignals: false, env: {} });
  track({ close: () => server.close() });
  return { url: listener.url, worked };
}

describe('asksBeforeTask, 2026-07-28 with the tasks extension', () => {
  test('asks in plain rounds, answers the last one with the task, and the task finishes with the answers', async () => {
    const { url, worked } = await start();
    const call = modernClient(url, { capabilities: { elicitation: { form: {} } } });

    const first = await call('tools/call', { name: 'deploy', arguments: {} });
    expect(first.result).toMatchObject({ resultType: 'input_required' });
    expect(first.result!.taskId).toBeUndefined();
    expect(Object.keys(first.result!.inputRequests)).toEqual(['who']);

    const second = await call('tools/call', {
      name: 'deploy',
      arguments: {},
      requestState: first.result!.requestState,
      inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } },
    });
    expect(second.result).toMatchObject({ resultType: 'task', status: 'working' });
    expect(second.result!.requestState).toBeUndefined();
    const taskId = second.result!.taskId as string;

    // Inside the task the earlier answer holds; the new question goes through the task.
    const waiting = await pollTask(call, taskId, (status) => status !== 'working');
    expect(waiting.status).toBe('input_required');
    expect(Object.keys(waiting.inputRequests)).toEqual(['colour']);
    const ack = await call('tasks/update', {
      taskId,
      inputResponses: { colour: { action: 'accept', content: { colour: 'teal' } } },
    });
    expect(ack.error).toBeUndefined();

    const done = await pollTask(call, taskId, (status) => status === 'completed' || status === 'failed');
    expect(done.status).toBe('completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'Deployed for Ada in teal.' }]);
    // The plain round stopped at becomeTask(): the work after it ran only in the task (twice: before and after the colour).
    expect(worked.count).toBe(2);
  });
});

describe('asksBeforeTask where no task can be made', () => {
  test('2026-07-28 without the extension: plain rounds, and becomeTask() resolves at once', async () => {
    const { url, worked } = await start();
    const call = modernClient(url, { capabilities: { elicitation: { form: {} } }, tasks: false });
    const first = await call('tools/call', { name: 'deploy', arguments: {} });
    expect(Object.keys(first.result!.inputRequests)).toEqual(['who']);
    const second = await call('tools/call', {
      name: 'deploy',
      arguments: {},
      requestState: first.result!.requestState,
      inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } },
    });
    expect(second.result).toMatchObject({ resultType: 'complete' });
    expect(second.result!.content).toEqual([{ type: 'text', text: 'Deployed for Ada in none (not a task).' }]);
    expect(worked.count).toBe(1);
  });

  test('2025 era, a plain call (SDK v1): elicitation on the request, then the rest at once', async () => {
    const { url } = await start();
    const client = new ClientV1({ name: 'v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Lin' } }));
    await client.connect(new HttpTransportV1(new URL(url)));
    try {
      const result = await client.callTool({ name: 'deploy', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Deployed for Lin in none (not a task).' }]);
    } finally {
      await client.close();
    }
  });
});

test('asksBeforeTask without task is refused when the tool is defined', () => {
  expect(() =>
    defineTool({
      name: 'odd',
      description: 'x',
      effect: 'read',
      world: 'closed',
      asksBeforeTask: true,
      handler: () => 'x',
    }),
  ).toThrow(DefinitionError);
  expect(() =>
    defineTool({
      name: 'odd',
      description: 'x',
      effect: 'read',
      world: 'closed',
      task: 'optional',
      asksBeforeTask: 'yes' as never,
      handler: () => 'x',
    }),
  ).toThrow('asksBeforeTask must be true or false');
});
