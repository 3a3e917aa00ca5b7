import { RateLimiterMemory } from 'rate-limiter-flexible';
import { describe, expect, test } from 'vitest';
import { makeCallContext } from '../../../test/support/call-context.js';
import { defineTool } from '../../tool/define.js';
import { type RateLimiterSpec, rateLimit } from './rate-limit.js';

const limited = defineTool({
  name: 'search',
  description: 'Search.',
  effect: 'read',
  world: 'open',
  rateLimit: { windowMs: 60_000, max: 2 },
  handler: () => 'x',
});
const unlimited = defineTool({
  name: 'free',
  description: 'Free.',
  effect: 'read',
  world: 'closed',
  handler: () => 'x',
});
const ran = async () => ({ content: [{ type: 'text' as const, text: 'ran' }] });

describe('rateLimit', () => {
  test('calls within the limit run; the next one gets an isError result saying when to retry', async () => {
    const mw = rateLimit();
    expect((await mw(makeCallContext(limited), ran)).isError).toBeUndefined();
    expect((await mw(makeCallContext(limited), ran)).isError).toBeUndefined();
    const refused = await mw(makeCallContext(limited), ran);
    expect(refused.isError).toBe(true);
    const text = (refused.content[0] as { text: string }).text;
    expect(text).toContain('at most 2 calls per minute');
    expect(text).toMatch(/Try again in \d+ seconds?\./);
  });

  test('tools without a rateLimit are never counted', async () => {
    const mw = rateLimit();
    for (let i = 0; i < 10; i++) expect((await mw(makeCallContext(unlimited), ran)).isError).toBeUndefined();
  });

  test('the store is pluggable and gets the limit in rate-limiter-flexible terms', async () => {
    const specs: RateLimiterSpec[] = [];
    const mw = rateLimit({
      store: (spec) => {
        specs.push(spec);
        return new RateLimiterMemory(spec);
      },
    });
    await mw(makeCallContext(limited), ran);
    await mw(makeCallContext(limited), ran);
    expect(specs).toEqual([{ tool: 'search', points: 2, duration: 60, keyPrefix: 'candor-tool:search' }]);
  });

  test('a custom key counts callers separately', async () => {
    const mw = rateLimit({ key: (ctx) => ctx.auth?.subject ?? 'anon' });
    const as = (subject: string) => makeCallContext(limited, {}, { auth: { subject } });
    await mw(as('ada'), ran);
    await mw(as('ada'), ran);
    expect((await mw(as('ada'), ran)).isError).toBe(true);
    expect((await mw(as('bob'), ran)).isError).toBeUndefined();
  });

  test('a failing store lets the call through and logs it', async () => {
    const warnings: string[] = [];
    const broken = { consume: () => Promise.reject(new Error('redis down')) };
    const mw = rateLimit({
      store: () => broken as unknown as RateLimiterMemory,
      logger: { warn: (m) => warnings.push(m), error() {}, info() {}, debug() {} },
    });
    expect((await mw(makeCallContext(limited), ran)).isError).toBeUndefined();
    expect(warnings[0]).toContain('rate limit store failed');
  });
});
