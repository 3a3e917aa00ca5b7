import { describe, expect, test } from 'vitest';
import { makeCallContext } from '../../../test/support/call-context.js';
import { ProtocolError } from '../../errors.js';
import { defineTool } from '../../tool/define.js';
import { type AuditEvent, audit, summariseArgs } from './audit.js';

const login = defineTool({
  name: 'login',
  description: 'Log in.',
  effect: 'additive',
  world: 'open',
  handler: () => 'x',
});

describe('audit', () => {
  test('each call produces one event with tool, argument shapes, outcome and duration, never values', async () => {
    const events: AuditEvent[] = [];
    const ctx = makeCallContext(
      login,
      { user: 'ada', password: 'hunter2', remember: true, scopes: ['a', 'b'] },
      {
        auth: { subject: 'ada@example.com' },
      },
    );
    await audit({ sink: (e) => void events.push(e) })(ctx, async () => ({ content: [] }));
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event).toMatchObject({
      tool: 'login',
      requestId: 1,
      caller: 'ada@example.com',
      outcome: 'ok',
      args: { user: 'string(3)', password: 'string(7)', remember: 'boolean', scopes: 'array(2)' },
    });
    expect(event.durationMs).toBeGreaterThanOrEqual(0);
    expect(JSON.stringify(event)).not.toContain('hunter2');
  });

  test('isError results and protocol errors are reported as such', async () => {
    const events: AuditEvent[] = [];
    const mw = audit({ sink: (e) => void events.push(e) });
    await mw(makeCallContext(login), async () => ({ content: [], isError: true }));
    await mw(makeCallContext(login), async () => {
      throw new ProtocolError(-32602, 'nope');
    }).catch(() => {});
    expect(events.map((e) => e.outcome)).toEqual(['error', 'rejected']);
  });

  test('a sink that throws or rejects never affects the call', async () => {
    const warnings: string[] = [];
    const logger = { warn: (m: string) => warnings.push(m), error() {}, info() {}, debug() {} };
    const throwing = audit({
      sink: () => {
        throw new Error('disk full');
      },
      logger,
    });
    const rejecting = audit({ sink: () => Promise.reject(new Error('disk full')), logger });
    expect(await throwing(makeCallContext(login), async () => ({ content: [] }))).toEqual({ content: [] });
    expect(await rejecting(makeCallContext(login), async () => ({ content: [] }))).toEqual({ content: [] });
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual(['audit sink failed', 'audit sink failed']);
  });

  test('summariseArgs records shapes only', () => {
    expect(summariseArgs({ a: null, b: { x: 1, y: 2 }, c: 3 })).toEqual({
      a: 'null',
      b: 'object(2 keys)',
      c: 'number',
    });
    expect(summariseArgs(undefined)).toEqual({});
  });
});
