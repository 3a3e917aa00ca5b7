import { describe, expect, test } from 'vitest';
import { makeCallContext } from '../../../test/support/call-context.js';
import { defineTool } from '../../tool/define.js';
import { ToolTimeoutError, timeout } from './timeout.js';

const slow = defineTool({
  name: 'slow',
  description: 'Slow.',
  effect: 'read',
  world: 'closed',
  timeoutMs: 20,
  handler: () => 'x',
});
const plain = defineTool({ name: 'plain', description: 'Plain.', effect: 'read', world: 'closed', handler: () => 'x' });

describe('timeout', () => {
  test('a call past its limit gets an isError result naming the limit and its signal is aborted', async () => {
    const ctx = makeCallContext(slow);
    const result = await timeout()(ctx, () => new Promise(() => {}));
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toContain('time limit of 20 ms');
    expect(ctx.signal.aborted).toBe(true);
    expect(ctx.signal.reason).toBeInstanceOf(ToolTimeoutError);
  });

  test('the default limit applies to tools without their own', async () => {
    const ctx = makeCallContext(plain);
    const result = await timeout({ defaultMs: 15 })(ctx, () => new Promise(() => {}));
    expect((result.content[0] as { text: string }).text).toContain('time limit of 15 ms');
  });

  test('a call that finishes in time returns its result and leaves the signal alone', async () => {
    const ctx = makeCallContext(slow);
    const result = await timeout()(ctx, async () => ({ content: [{ type: 'text', text: 'fast' }] }));
    expect(result).toEqual({ content: [{ type: 'text', text: 'fast' }] });
    expect(ctx.signal.aborted).toBe(false);
  });

  test('a handler rejecting after the timeout is not an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const ctx = makeCallContext(slow);
      let rejectedLate!: () => void;
      const late = new Promise<void>((resolve) => {
        rejectedLate = resolve;
      });
      await timeout()(
        ctx,
        () =>
          new Promise((_, reject) =>
            ctx.signal.addEventListener('abort', () =>
              setTimeout(() => {
                reject(new Error('late'));
                rejectedLate();
              }, 5),
            ),
          ),
      );
      // After the late rejection, one turn of the event loop is when Node reports it if nobody handled it.
      await late;
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });

  test('a limit of 0 turns the timeout off', async () => {
    const ctx = makeCallContext(plain);
    const result = await timeout({ defaultMs: 0 })(ctx, async () => ({ content: [] }));
    expect(result).toEqual({ content: [] });
  });
});
