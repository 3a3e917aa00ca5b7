import { describe, expect, test } from 'vitest';
import { makeCallContext } from '../../test/support/call-context.js';
import { defineTool } from '../tool/define.js';
import type { CallToolResult } from '../tool/types.js';
import { compose } from './compose.js';
import type { Middleware } from './types.js';

const tool = defineTool({
  name: 'noop',
  description: 'Does nothing.',
  effect: 'read',
  world: 'closed',
  handler: () => 'ok',
});
const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });

describe('compose', () => {
  test('an empty list calls next directly and returns its result', async () => {
    const run = compose([]);
    const result = await run(makeCallContext(tool), async () => text('inner'));
    expect(result).toEqual(text('inner'));
  });

  test('middleware run as an onion, first in the list outermost', async () => {
    const order: string[] = [];
    const layer =
      (name: string): Middleware =>
      async (_ctx, next) => {
        order.push(`${name} in`);
        const result = await next();
        order.push(`${name} out`);
        return result;
      };
    const result = await compose([layer('a'), layer('b'), layer('c')])(makeCallContext(tool), async () => {
      order.push('handler');
      return text('done');
    });
    expect(order).toEqual(['a in', 'b in', 'c in', 'handler', 'c out', 'b out', 'a out']);
    expect(result).toEqual(text('done'));
  });

  test('a middleware can replace the result without calling next', async () => {
    let reached = false;
    const shortCircuit: Middleware = async () => text('blocked');
    const result = await compose([shortCircuit])(makeCallContext(tool), async () => {
      reached = true;
      return text('inner');
    });
    expect(result).toEqual(text('blocked'));
    expect(reached).toBe(false);
  });

  test('calling next twice rejects instead of running the rest twice', async () => {
    let runs = 0;
    const greedy: Middleware = async (_ctx, next) => {
      await next();
      return next();
    };
    for (const chain of [[greedy], [greedy, async (_c: unknown, n: () => Promise<CallToolResult>) => n()]]) {
      runs = 0;
      await expect(
        compose(chain as Middleware[])(makeCallContext(tool), async () => {
          runs += 1;
          return text('x');
        }),
      ).rejects.toThrow(/next\(\) called multiple times/);
      expect(runs).toBe(1);
    }
  });

  test('a middleware that throws synchronously becomes a rejection', async () => {
    const thrower = (() => {
      throw new Error('boom');
    }) as unknown as Middleware;
    const run = compose([thrower]);
    const outcome = run(makeCallContext(tool), async () => text('x'));
    expect(outcome).toBeInstanceOf(Promise);
    await expect(outcome).rejects.toThrow('boom');
  });

  test('middleware see the same ctx and can hand data inward through state', async () => {
    const setter: Middleware = async (ctx, next) => {
      ctx.state.set('user', 'ada');
      return next();
    };
    const ctx = makeCallContext(tool);
    const result = await compose([setter])(ctx, async () => text(String(ctx.state.get('user'))));
    expect(result).toEqual(text('ada'));
  });

  test('something that is not a function is refused when composing', () => {
    expect(() => compose([42 as unknown as Middleware])).toThrow(TypeError);
  });
});
