/**
 * The tools the official conformance suite's tasks-extension scenarios
 * (SEP-2663, `io.modelcontextprotocol/tasks`, `@modelcontextprotocol/conformance`
 * 0.2.x, `tasks-*`) call. A tool declared with `task` runs as a task whenever
 * the request declares the extension; its questions put the task in
 * `input_required` (answered with `tasks/update`).
 */
import { z } from 'zod';
import { defineTool, ProtocolError, ToolError } from '../../src/index.js';

/** Wait `ms`, or reject with the signal's reason as soon as it aborts (a cancelled task). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

const CONFIRM = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } as const;

export const taskTools = [
  defineTool({
    name: 'greet',
    description: 'Greet someone at once (never a task).',
    input: z.object({ name: z.string() }),
    effect: 'read',
    world: 'closed',
    handler: ({ name }) => `Hello, ${name}!`,
  }),
  defineTool({
    name: 'slow_compute',
    description: 'Wait the given number of seconds, then answer: a task when the client declares the extension.',
    input: z.object({ seconds: z.number().min(0).max(600), label: z.string().optional() }),
    effect: 'read',
    world: 'closed',
    task: 'optional',
    handler: async ({ seconds, label }, ctx) => {
      await sleep(seconds * 1000, ctx.signal);
      return `Computed ${label ?? 'a result'} after ${seconds} s.`;
    },
  }),
  defineTool({
    name: 'failing_job',
    description: 'Run only as a task and end, after a second, in a tool error (isError).',
    effect: 'read',
    world: 'closed',
    task: 'required',
    handler: async (_args, ctx) => {
      await sleep(1000, ctx.signal);
      throw new ToolError('The job failed, as it always does.');
    },
  }),
  defineTool({
    name: 'protocol_error_job',
    description: 'Run as a task and end in a protocol error (the task fails).',
    effect: 'read',
    world: 'closed',
    task: 'optional',
    handler: () => {
      throw new ProtocolError(-32603, 'The job broke down before it could produce a result.');
    },
  }),
  defineTool({
    name: 'confirm_delete',
    description: 'Ask the user to confirm, then (pretend to) delete the file: the task waits for the answer.',
    input: z.object({ filename: z.string() }),
    effect: 'destructive',
    world: 'closed',
    task: 'optional',
    handler: async ({ filename }, ctx) => {
      const answer = await ctx.elicit({ message: `Delete ${filename}?`, requestedSchema: CONFIRM });
      const yes = answer.action === 'accept' && answer.content?.confirm === true;
      return yes ? `Deleted ${filename} (nothing real was touched).` : `Kept ${filename}.`;
    },
  }),
  defineTool({
    name: 'test_tool_with_task',
    description: 'Ask a name first (input_required rounds), then finish the work as a task that greets them.',
    effect: 'read',
    world: 'closed',
    task: 'required',
    asksBeforeTask: true,
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          message: 'Who is this for?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
        { key: 'user_name' },
      );
      await ctx.becomeTask();
      await sleep(200, ctx.signal);
      return `Done for ${String(answer.content?.name ?? 'nobody')}.`;
    },
  }),
  defineTool({
    name: 'multi_input',
    description: 'Ask two questions at once; the task waits until both are answered.',
    effect: 'read',
    world: 'closed',
    task: 'optional',
    handler: async (_args, ctx) => {
      const [first, second] = await Promise.all([
        ctx.elicit({
          message: 'First name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        }),
        ctx.elicit({
          message: 'Favourite colour?',
          requestedSchema: { type: 'object', properties: { color: { type: 'string' } } },
        }),
      ]);
      return `Got ${JSON.stringify(first.content ?? {})} and ${JSON.stringify(second.content ?? {})}.`;
    },
  }),
];
