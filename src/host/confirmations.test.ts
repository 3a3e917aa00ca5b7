import { describe, expect, it } from 'vitest';
import { Confirmations } from './confirmations.js';
import type { ConfirmRequest } from './types.js';

const request = (tool: string): ConfirmRequest => ({
  tool,
  server: 's',
  title: tool,
  args: {},
  hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  trust: 'untrusted',
  reason: 'test',
  canRemember: true,
  pin: { status: 'unpinned' },
});

describe('Confirmations', () => {
  it('asks one question at a time', async () => {
    let open = 0;
    let most = 0;
    const desk = new Confirmations({
      handler: async () => {
        open++;
        most = Math.max(most, open);
        await new Promise((resolve) => setImmediate(resolve));
        open--;
        return 'allow-once' as const;
      },
    });
    const signal = new AbortController().signal;
    const answers = await Promise.all([
      desk.ask(request('a'), signal),
      desk.ask(request('b'), signal),
      desk.ask(request('c'), signal),
    ]);
    expect(answers).toEqual(['allow-once', 'allow-once', 'allow-once']);
    expect(most).toBe(1);
  });

  it('has no answer without a handler, and denies odd or failing answers', async () => {
    const signal = new AbortController().signal;
    expect(await new Confirmations({}).ask(request('a'), signal)).toBe('no-handler');
    expect(await new Confirmations({ handler: () => 'yes' as never }).ask(request('a'), signal)).toBe('deny');
    expect(
      await new Confirmations({
        handler: () => {
          throw new Error('ui crashed');
        },
      }).ask(request('a'), signal),
    ).toBe('failed');
  });

  it('stops waiting when the batch aborts or the timeout passes', async () => {
    const never = new Confirmations({ handler: () => new Promise(() => {}), timeoutMs: 10 });
    expect(await never.ask(request('a'), new AbortController().signal)).toBe('timed-out');
    const controller = new AbortController();
    const pending = new Confirmations({ handler: () => new Promise(() => {}) }).ask(request('a'), controller.signal);
    controller.abort();
    expect(await pending).toBe('cancelled');
  });

  it('remembers allow-always per tool and hash', () => {
    const desk = new Confirmations({});
    desk.remember({ name: 's__t', hash: 'sha256:1' });
    expect(desk.remembered({ name: 's__t', hash: 'sha256:1' })).toBe(true);
    expect(desk.remembered({ name: 's__t', hash: 'sha256:2' })).toBe(false);
    desk.forget('s__t');
    expect(desk.remembered({ name: 's__t', hash: 'sha256:1' })).toBe(false);
  });
});
