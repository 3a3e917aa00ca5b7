import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { makeCallContext } from '../../test/support/call-context.js';
import { ToolError } from '../errors.js';
import { ToolRegistry } from '../registry/registry.js';
import { defineTool } from '../tool/define.js';
import type { ToolDefinition } from '../tool/types.js';
import type { ServerLogger } from '../util/logger.js';
import type { AuditEvent } from './middleware/audit.js';
import { createToolPipeline } from './pipeline.js';
import type { Middleware } from './types.js';

function recordingLogger() {
  const errors: Array<{ message: string; details?: Record<string, unknown> }> = [];
  const logger: ServerLogger = {
    error: (message, details) => void errors.push({ message, details }),
    warn() {},
    info() {},
    debug() {},
  };
  return { logger, errors };
}

function setup(
  tools: ToolDefinition[],
  options: Parameters<typeof createToolPipeline>[0] extends infer O ? Omit<O & object, 'tools'> : never = {},
) {
  const registry = new ToolRegistry({ env: {}, tools });
  return createToolPipeline({ ...options, tools: registry });
}

describe('the tool pipeline', () => {
  test('built-ins run in order: availability, rate limit, validation, timeout, confirm, audit, then user middleware', async () => {
    const events: AuditEvent[] = [];
    const seen: unknown[] = [];
    const spy: Middleware = async (ctx, next) => {
      seen.push(ctx.args); // validated by now
      return next();
    };
    const tool = defineTool({
      name: 'drop_table',
      description: 'Drop a table.',
      effect: 'destructive',
      world: 'closed',
      input: z.object({ table: z.string().trim() }),
      handler: ({ table }) => `dropped ${table}`,
    });
    const run = setup([tool], { confirmDestructive: true, audit: (e) => void events.push(e), middleware: [spy] });
    const asked: string[] = [];
    const result = await run(
      makeCallContext(
        tool,
        { table: ' users ' },
        {
          confirm: async (q) => {
            asked.push(q);
            return true;
          },
        },
      ),
    );
    expect(result).toEqual({ content: [{ type: 'text', text: 'dropped users' }] });
    expect(seen).toEqual([{ table: 'users' }]);
    expect(asked).toHaveLength(1);
    expect(events.map((e) => e.outcome)).toEqual(['ok']);
  });

  test('an unexpected handler error is masked for the model and logged with the request id', async () => {
    const { logger, errors } = recordingLogger();
    const tool = defineTool({
      name: 'query',
      description: 'Query.',
      effect: 'read',
      world: 'closed',
      handler: () => {
        throw new Error('connect ECONNREFUSED 10.0.0.5:5432 password=secret');
      },
    });
    const result = await setup([tool], { logger })(makeCallContext(tool, {}, { requestId: 'req-9' }));
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).not.toContain('ECONNREFUSED');
    expect(text).toContain('req-9');
    expect(errors[0]?.details?.requestId).toBe('req-9');
    expect(String((errors[0]!.details!.error as Error).message)).toContain('ECONNREFUSED');
  });

  test('a ToolError passes its message to the model', async () => {
    const tool = defineTool({
      name: 'find',
      description: 'Find.',
      effect: 'read',
      world: 'closed',
      handler: async () => {
        throw new ToolError('No such file; list_directory shows what exists.');
      },
    });
    const result = await setup([tool])(makeCallContext(tool));
    expect(result).toEqual({
      content: [{ type: 'text', text: 'No such file; list_directory shows what exists.' }],
      isError: true,
    });
  });

  test('a user middleware that throws is masked like a handler failure', async () => {
    const { logger, errors } = recordingLogger();
    const tool = defineTool({ name: 'x', description: 'X.', effect: 'read', world: 'closed', handler: () => 'x' });
    const broken: Middleware = async () => {
      throw new Error('middleware bug');
    };
    const result = await setup([tool], { logger, middleware: [broken] })(makeCallContext(tool));
    expect(result.isError).toBe(true);
    expect(errors).toHaveLength(1);
  });

  test('a hung handler is stopped by its timeout and its signal aborted', async () => {
    let signal: AbortSignal | undefined;
    const tool = defineTool({
      name: 'hang',
      description: 'Hang.',
      effect: 'read',
      world: 'closed',
      timeoutMs: 25,
      handler: (_args, ctx) => {
        signal = ctx.signal;
        return new Promise(() => {});
      },
    });
    const result = await setup([tool])(makeCallContext(tool));
    expect(result.isError).toBe(true);
    expect(signal?.aborted).toBe(true);
  });

  test('a tool with an asynchronous validator runs it once, then the handler; a failing one is masked', async () => {
    let validations = 0;
    let calls = 0;
    const asyncSchema = (fail: boolean) => ({
      '~standard': {
        version: 1 as const,
        vendor: 'test',
        validate: async (value: unknown) => {
          validations++;
          if (fail) throw new Error('validator crashed');
          const v = value as { n?: unknown };
          return typeof v.n === 'number' ? { value: v } : { issues: [{ message: 'n must be a number', path: ['n'] }] };
        },
        jsonSchema: { input: () => ({ type: 'object' }), output: () => ({ type: 'object' }) },
      },
    });
    const tool = (name: string, fail = false) =>
      defineTool({
        name,
        description: 'Count.',
        effect: 'read',
        world: 'closed',
        input: asyncSchema(fail) as never,
        handler: () => {
          calls++;
          return 'ran';
        },
      });
    const good = tool('good');
    const bad = tool('bad', true);
    const { logger, errors } = recordingLogger();
    const run = setup([good, bad], { logger });
    expect((await run(makeCallContext(good, { n: 1 }))).content).toEqual([{ type: 'text', text: 'ran' }]);
    expect([validations, calls]).toEqual([1, 1]);
    const invalid = await run(makeCallContext(good, { n: 'x' }));
    expect(invalid.isError).toBe(true);
    expect(calls).toBe(1);
    const crashed = await run(makeCallContext(bad, { n: 1 }));
    expect(crashed.isError).toBe(true);
    expect(errors.some((e) => e.message.includes('"bad" failed'))).toBe(true);
    expect(calls).toBe(1);
  });
});
