/**
 * A server with tools that run as tasks, for the tasks tests:
 * `slow_echo` (optional, sleeps then echoes, reports progress), `job`
 * (required; ends ok, with a tool error, or throwing), `hang` (optional; runs
 * until its signal aborts and records why), `confirm_job` (optional; asks the
 * user first) and `plain` (no tasks).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { ToolError } from '../../src/errors.js';
import { type CandorServer, createServer, type ServerOptions } from '../../src/server/create-server.js';
import { defineTool } from '../../src/tool/define.js';
import { silentLogger } from '../../src/util/logger.js';

/** What the handlers saw, for assertions. */
export interface TaskObserved {
  /** `name` of each abort reason a `hang` handler saw. */
  aborts: string[];
  /** Calls of `hang` that started. */
  hangs: number;
}

export function taskTools(observed: TaskObserved) {
  const slowEcho = defineTool({
    name: 'slow_echo',
    description: 'Echo the text after a pause.',
    input: z.object({ text: z.string(), ms: z.number().int().min(0).default(50) }),
    effect: 'read',
    world: 'closed',
    task: 'optional',
    handler: async ({ text, ms }, ctx) => {
      await ctx.progress(1, 2, 'sleeping');
      await sleep(ms, undefined, { signal: ctx.signal });
      await ctx.progress(2, 2, 'done');
      return `echo: ${text}`;
    },
  });
  const job = defineTool({
    name: 'job',
    description: 'A long job that only runs as a task.',
    input: z.object({
      ms: z.number().int().min(0).default(20),
      end: z.enum(['ok', 'tool_error', 'throw']).default('ok'),
    }),
    effect: 'additive',
    world: 'closed',
    task: 'required',
    handler: async ({ ms, end }, ctx) => {
      await sleep(ms, undefined, { signal: ctx.signal });
      if (end === 'tool_error') throw new ToolError('the job found nothing to do');
      if (end === 'throw') throw new Error('database password is hunter2');
      return { content: [{ type: 'text', text: 'job done' }], structuredContent: { done: true } };
    },
  });
  const hang = defineTool({
    name: 'hang',
    description: 'Run until cancelled.',
    effect: 'read',
    world: 'closed',
    task: 'optional',
    timeoutMs: 120_000,
    handler: (_args, ctx) =>
      new Promise<string>((resolve) => {
        observed.hangs++;
        ctx.signal.addEventListener('abort', () => {
          observed.aborts.push(String((ctx.signal.reason as Error | undefined)?.name));
          resolve('stopped');
        });
      }),
  });
  const confirmJob = defineTool({
    name: 'confirm_job',
    description: 'Ask the user before going ahead.',
    effect: 'additive',
    world: 'closed',
    task: 'optional',
    handler: async (_args, ctx) => ((await ctx.confirm('Go ahead with the job?')) ? 'went ahead' : 'stopped'),
  });
  const plain = defineTool({
    name: 'plain',
    description: 'A plain tool.',
    effect: 'read',
    world: 'closed',
    handler: () => 'plain result',
  });
  return [slowEcho, job, hang, confirmJob, plain];
}

/** The tasks test server; `tasks` options merge over a 50 ms poll interval. */
export function buildTaskServer(options: Partial<ServerOptions> = {}): {
  server: CandorServer;
  observed: TaskObserved;
} {
  const observed: TaskObserved = { aborts: [], hangs: 0 };
  const server = createServer({
    name: 'tasks-test',
    version: '1.0.0',
    logger: silentLogger,
    lintOnStart: false,
    ...options,
    tools: taskTools(observed),
    tasks: { pollIntervalMs: 50, ...options.tasks },
  });
  return { server, observed };
}
