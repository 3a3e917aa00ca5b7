import { RateLimiterMemory } from 'rate-limiter-flexible';
import { describe, expect, test } from 'vitest';
import { isCandorError } from '../../errors.js';
import { parseQuotas } from './parse-quotas.js';
import { quotaRefused, waitText } from './wait-answer.js';

const parse = (value: unknown) => parseQuotas('gw.json', 'quotas', value, ['notes', 'github']);
const messageOf = (value: unknown) => {
  try {
    parse(value);
  } catch (error) {
    if (isCandorError(error)) return error.message;
    throw error;
  }
  return 'accepted';
};

describe('parseQuotas', () => {
  test('accepts every selector and keeps what was written', () => {
    const quotas = [
      { name: 'deletes', effects: ['destructive'], max: 20, windowMs: 3_600_000 },
      { tools: ['github__*'], servers: ['github'], per: 'all', max: 100, windowMs: 60_000 },
    ];
    expect(parse(quotas)).toEqual(quotas);
  });

  test('names the JSON path of each mistake', () => {
    expect(messageOf({})).toContain('gw.json: quotas: expected an array of quotas');
    expect(messageOf([{ max: 1 }])).toContain('quotas[0].windowMs: required');
    expect(messageOf([{ max: 1.5, windowMs: 1000 }])).toContain('quotas[0].max: must be a whole number above 0.');
    expect(messageOf([{ max: 1, windowMs: 10 }])).toContain(
      'quotas[0].windowMs: must be a whole number of milliseconds',
    );
    expect(messageOf([{ max: 1, windowMs: 1000, effects: ['read', 'delete'] }])).toContain(
      'quotas[0].effects[1]: unknown effect class "delete"; use read, additive, destructive.',
    );
    expect(messageOf([{ max: 1, windowMs: 1000, servers: ['gitlab'] }])).toContain(
      'quotas[0].servers[0]: no upstream named "gitlab"; the upstreams are notes, github.',
    );
    expect(messageOf([{ max: 1, windowMs: 1000, per: 'team' }])).toContain('quotas[0].per: must be "person"');
    expect(messageOf([{ max: 1, windowMs: 1000, tool: ['x'] }])).toContain('quotas[0].tool: unknown key');
    expect(messageOf([{ max: 1, windowMs: 1000, tools: [] }])).toContain('quotas[0].tools: expected a non-empty array');
    expect(
      messageOf([
        { name: 'a', max: 1, windowMs: 1000 },
        { name: 'a', max: 2, windowMs: 1000 },
      ]),
    ).toContain('quotas[1].name: another quota is already named "a".');
  });
});

describe('the answer of a refused call', () => {
  test('says the wait in words, never sooner than the quota allows', () => {
    expect(waitText(1)).toBe('1 second');
    expect(waitText(45_000)).toBe('45 seconds');
    expect(waitText(45_001)).toBe('46 seconds');
    expect(waitText(125_000)).toBe('2 minutes 5 seconds');
    expect(waitText(3_600_000)).toBe('1 hour');
    expect(waitText(3_600_001)).toBe('1 hour 1 minute');
    expect(waitText(7_260_000)).toBe('2 hours 1 minute');
  });

  test('is a tool error naming the quota, with the wait in _meta for programs', () => {
    const result = quotaRefused({ effects: ['destructive'], max: 5, windowMs: 3_600_000 }, 61_000);
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      {
        type: 'text',
        text: 'Quota reached for destructive calls: at most 5 per hour for each person. Try again in 1 minute 1 second.',
      },
    ]);
    expect(result._meta).toEqual({
      'dev.candor/quota': {
        quota: 'destructive calls',
        max: 5,
        windowMs: 3_600_000,
        per: 'person',
        retryAfterMs: 61_000,
      },
    });
    const named = quotaRefused({ name: 'github writes', per: 'all', max: 2, windowMs: 60_000 }, 500);
    expect((named.content[0] as { text: string }).text).toBe(
      'Quota reached for "github writes": at most 2 per minute for everyone together. Try again in 1 second.',
    );
  });

  test('the wait matches what rate-limiter-flexible reports for a used-up key', async () => {
    const limiter = new RateLimiterMemory({ points: 1, duration: 60 });
    await limiter.consume('k');
    const refused = await limiter.consume('k').catch((res: { msBeforeNext: number }) => res);
    const result = quotaRefused({ max: 1, windowMs: 60_000 }, refused.msBeforeNext);
    expect((result.content[0] as { text: string }).text).toContain(`Try again in ${waitText(refused.msBeforeNext)}.`);
  });
});
