import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { makeCallContext } from '../../test/support/call-context.js';
import type { ServerLogger } from '../engine/logger.js';
import { ToolError } from '../errors.js';
import { ToolRegistry } from '../registry/registry.js';
import { defineTool } from '../tool/define.js';
import type { ToolDefinition } from '../tool/types.js';
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
});
