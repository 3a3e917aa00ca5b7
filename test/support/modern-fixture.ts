/**
 * The server the 2026-07-28 interop tests run against (in process for HTTP,
 * as a child process for stdio, see modern-stdio-server.ts): a few tools that
 * exercise what the era changed (progress, an elicitation round trip, a call
 * that waits to be cancelled, a registry change) and a `status` tool that
 * reports what the server observed.
 */
import { z } from 'zod';
import { definePrompt } from '../../src/prompts/define.js';
import { defineResource } from '../../src/resources/define.js';
import { type CandorServer, createServer } from '../../src/server/create-server.js';
import { defineTool } from '../../src/tool/define.js';
import { silentLogger } from '../../src/util/logger.js';

/** What the server saw, readable in process or through the `status` tool. */
export interface Observed {
  effects: string[];
  aborted: string[];
  started: string[];
  /** Tags of `wait` calls whose handler returned (after its progress(99) was attempted). */
  settled: string[];
}

/** `modernOnly`: the server speaks only 2026-07-28 (`modern: { only: true }`). */
export function buildModernServer(options: { modernOnly?: boolean } = {}): {
  server: CandorServer;
  observed: Observed;
} {
  const observed: Observed = { effects: [], aborted: [], started: [], settled: [] };
  let server!: CandorServer;
  const tools = [
    defineTool({
      name: 'echo',
      description: 'Echo the text back.',
      effect: 'read',
      world: 'closed',
      input: z.object({ text: z.string() }),
      handler: ({ text }) => text,
    }),
    defineTool({
      name: 'count',
      description: 'Count to three, reporting progress.',
      effect: 'read',
      world: 'closed',
      handler: async (_args, ctx) => {
        for (let i = 1; i <= 3; i++) await ctx.progress(i, 3, `step ${i}`);
        return 'counted';
      },
    }),
    defineTool({
      name: 'delete_file',
      description: 'Delete a file once the user confirms.',
      effect: 'destructive',
      world: 'closed',
      input: z.object({ path: z.string() }),
      handler: async ({ path }, ctx) => {
        if (!(await ctx.confirm(`Delete ${path}?`))) return `kept ${path}`;
        observed.effects.push(`deleted ${path}`);
        return `deleted ${path}`;
      },
    }),
    defineTool({
      name: 'wait',
      description: 'Wait until the call is cancelled.',
      effect: 'read',
      world: 'closed',
      input: z.object({ tag: z.string() }),
      handler: async ({ tag }, ctx) => {
        observed.started.push(tag);
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
        observed.aborted.push(tag);
        try {
          await ctx.progress(99); // must not reach the client: the request is cancelled
        } finally {
          observed.settled.push(tag);
        }
        return 'too late';
      },
    }),
    defineTool({
      name: 'toggle_echo',
      description: 'Disable echo if enabled, enable it if disabled (changes the tool list).',
      effect: 'additive',
      world: 'closed',
      idempotent: false,
      handler: () => {
        const enabled = server.registry.isEnabled('echo');
        if (enabled) server.registry.disable({ names: ['echo'] });
        else server.registry.enable({ names: ['echo'] });
        return enabled ? 'disabled' : 'enabled';
      },
    }),
    defineTool({
      name: 'regional',
      description: 'Run in a region (mirrored into the Mcp-Param-Region header).',
      effect: 'read',
      world: 'open',
      input: {
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
        required: ['region'],
      },
      handler: (args) => `ran in ${(args as { region: string }).region}`,
    }),
    defineTool({
      name: 'status',
      description: 'What the server observed so far.',
      effect: 'read',
      world: 'closed',
      handler: () => ({ ...observed }),
    }),
  ];
  // A prompt and a resource that ask the user first: input_required rounds in 2026-07-28,
  // elicitation/create on the request in the 2025 era.
  const prompts = [
    definePrompt({
      name: 'release_notes',
      description: 'Draft release notes, asking whether to include internal changes.',
      arguments: z.object({ version: z.string() }),
      get: async ({ version }, ctx) => {
        const internal = await ctx.confirm(`Include internal changes in ${version}?`);
        observed.effects.push(`notes ${version} internal=${internal}`);
        return `Write the notes for ${version}${internal ? ', internal changes included' : ''}.`;
      },
    }),
  ];
  const resources = [
    defineResource({
      uri: 'vault://secret',
      name: 'secret',
      description: 'A value shown only after the user agrees.',
      mimeType: 'text/plain',
      read: async (ctx) => ((await ctx.confirm('Reveal the secret?')) ? 'the secret' : 'withheld'),
    }),
  ];
  server = createServer({
    name: 'modern-interop',
    version: '0.4.0',
    tools,
    prompts,
    resources,
    logger: silentLogger,
    timeoutMs: 0,
    ...(options.modernOnly ? { modern: { only: true } } : {}),
  });
  return { server, observed };
}
