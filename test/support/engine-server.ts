/**
 * The server the engine's end-to-end tests talk to: one tool per engine
 * feature (progress, elicitation, sampling, roots, cancellation, timeout,
 * logging, structured output), plus resources and prompts. Also started as a
 * child process by test/fixtures/stdio-server.ts.
 */
import { z } from 'zod';
import { ToolError } from '../../src/errors.js';
import { definePrompt } from '../../src/prompts/define.js';
import { defineResource, defineResourceTemplate } from '../../src/resources/define.js';
import { createServer, type ServerOptions } from '../../src/server/create-server.js';
import { defineTool } from '../../src/tool/define.js';

/** What handlers observed, for assertions. */
export interface Observed {
  signals: Map<string, AbortSignal>;
}

export function buildTestServer(overrides: Partial<ServerOptions> = {}) {
  const observed: Observed = { signals: new Map() };
  const tools = [
    defineTool({
      name: 'echo',
      description: 'Echo the text back.',
      input: z.object({ text: z.string() }),
      effect: 'read',
      world: 'closed',
      handler: ({ text }) => text,
    }),
    defineTool({
      name: 'add',
      description: 'Add two numbers and return the sum as structured content.',
      input: z.object({ a: z.number(), b: z.number() }),
      output: z.object({ sum: z.number() }),
      effect: 'read',
      world: 'closed',
      handler: ({ a, b }) => ({ sum: a + b }),
    }),
    defineTool({
      name: 'count_up',
      description: 'Report progress from 1 to n, then return.',
      input: z.object({ n: z.number().int().min(1).max(50) }),
      effect: 'read',
      world: 'closed',
      handler: async ({ n }, ctx) => {
        for (let i = 1; i <= n; i++) {
          await ctx.progress(i, n, `step ${i}`);
          await ctx.progress(i - 0.5, n); // not increasing: must be dropped
          // Let each step leave the process before the next: the SDK v1 client handles
          // notifications a microtask after responses and drops those that share a
          // chunk with the result.
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        return `counted to ${n}`;
      },
    }),
    defineTool({
      name: 'log_levels',
      description: 'Log one message at each of debug, info, warning and error.',
      effect: 'read',
      world: 'closed',
      handler: async (_args, ctx) => {
        for (const level of ['debug', 'info', 'warning', 'error'] as const) await ctx.log(level, { level }, 'test');
        return 'logged';
      },
    }),
    defineTool({
      name: 'ask_name',
      description: 'Ask the user for their name through elicitation.',
      effect: 'read',
      world: 'closed',
      handler: async (_args, ctx) => {
        const answer = await ctx.elicit({
          message: 'What is your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        });
        return answer.action === 'accept' ? `hello ${String(answer.content?.name)}` : `no name (${answer.action})`;
      },
    }),
    defineTool({
      name: 'delete_everything',
      description: 'Delete everything (asks first).',
      effect: 'destructive',
      world: 'closed',
      handler: async (_args, ctx) => ((await ctx.confirm('Really delete everything?')) ? 'deleted' : 'kept'),
    }),
    defineTool({
      name: 'summarise',
      description: 'Ask the client model to summarise a text.',
      input: z.object({ text: z.string() }),
      effect: 'read',
      world: 'open',
      handler: async ({ text }, ctx) => {
        const reply = await ctx.sample({
          messages: [{ role: 'user', content: { type: 'text', text: `Summarise: ${text}` } }],
          maxTokens: 50,
        });
        return `model ${reply.model} said: ${(reply.content as { text: string }).text}`;
      },
    }),
    defineTool({
      name: 'roots',
      description: 'List the client roots.',
      effect: 'read',
      world: 'closed',
      handler: async (_args, ctx) => (await ctx.listRoots()).map((r) => r.uri).join(','),
    }),
    defineTool({
      name: 'wait_for_abort',
      description: 'Wait until the call is aborted.',
      input: z.object({ key: z.string() }),
      effect: 'read',
      world: 'closed',
      handler: ({ key }, ctx) => {
        observed.signals.set(key, ctx.signal);
        return new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
      },
    }),
    defineTool({
      name: 'hang',
      description: 'Never return (times out).',
      input: z.object({ key: z.string() }),
      effect: 'read',
      world: 'closed',
      timeoutMs: 50,
      handler: ({ key }, ctx) => {
        observed.signals.set(key, ctx.signal);
        return new Promise(() => {});
      },
    }),
    defineTool({
      name: 'fail',
      description: 'Fail on purpose or by accident.',
      input: z.object({ on_purpose: z.boolean() }),
      effect: 'read',
      world: 'closed',
      handler: ({ on_purpose }) => {
        if (on_purpose) throw new ToolError('This failed on purpose.');
        throw new Error('internal detail: /etc/secret');
      },
    }),
    defineTool({
      name: 'stray_rejection',
      description: 'Start a promise that rejects and is never awaited.',
      effect: 'read',
      world: 'closed',
      handler: () => {
        void Promise.reject(new Error('stray'));
        return 'started';
      },
    }),
  ];
  const notes = new Map([
    ['a', 'Note A'],
    ['b', 'Note B'],
  ]);
  const resources = [
    defineResource({
      uri: 'docs://readme',
      name: 'readme',
      title: 'Read me',
      mimeType: 'text/markdown',
      read: () => '# Hello',
    }),
    defineResource({
      uri: 'data://logo',
      name: 'logo',
      mimeType: 'image/png',
      read: () => new Uint8Array([137, 80, 78, 71]),
    }),
    defineResource({
      uri: 'ui://counter/view',
      name: 'counter-view',
      _meta: { ui: { prefersBorder: true } },
      read: () => '<!doctype html><p>counter</p>',
    }),
    defineResourceTemplate({
      uriTemplate: 'notes://{id}',
      name: 'note',
      mimeType: 'text/plain',
      complete: { id: (value) => [...notes.keys()].filter((k) => k.startsWith(value)) },
      read: ({ variables }) => {
        const note = notes.get(String(variables.id));
        if (note === undefined) throw new ToolError(`No note ${String(variables.id)}.`);
        return note;
      },
    }),
  ];
  const prompts = [
    definePrompt({ name: 'greet', description: 'Say hello.', get: () => 'Hello!' }),
    definePrompt({
      name: 'review',
      title: 'Code review',
      description: 'Review code in a language.',
      arguments: z.object({
        code: z.string().describe('The code'),
        language: z.enum(['typescript', 'python', 'rust']),
      }),
      get: ({ code, language }) => [
        { role: 'user', content: `Review this ${language}:\n${code}` },
        { role: 'assistant', content: 'Sure.' },
      ],
    }),
  ];
  const server = createServer({
    name: 'engine-test',
    version: '1.2.3',
    title: 'Engine test server',
    instructions: 'Use echo to test.',
    tools,
    resources,
    prompts,
    ...overrides,
  });
  return { server, observed };
}
