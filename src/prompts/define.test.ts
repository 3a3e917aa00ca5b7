import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { isDefinitionError } from '../errors.js';
import { definePrompt } from './define.js';
import { toPromptResult } from './messages.js';

describe('definePrompt', () => {
  test('a zod object becomes the wire argument list, and its enums complete themselves', async () => {
    const p = definePrompt({
      name: 'translate',
      arguments: z.object({ text: z.string().describe('What to translate'), to: z.enum(['fr', 'de']).optional() }),
      get: ({ text }) => text,
    });
    expect(p.wire.arguments).toEqual([
      { name: 'text', description: 'What to translate', required: true },
      { name: 'to', required: false },
    ]);
    expect(await p.complete.to!('F', { arguments: {} })).toEqual(['fr']);
    expect(await p.validate({ text: 'x', to: 'es' })).toMatchObject({ ok: false, issues: [{ path: ['to'] }] });
  });

  test('a plain list validates required arguments and string values', async () => {
    const p = definePrompt({ name: 'p', arguments: [{ name: 'a', required: true }, { name: 'b' }], get: () => 'x' });
    expect(await p.validate({ b: 'y' })).toEqual({ ok: false, issues: [{ path: ['a'], message: 'is required' }] });
    expect(await p.validate({ a: 'x' })).toEqual({ ok: true, value: { a: 'x' } });
  });

  test('completers for undeclared arguments and non-object schemas are refused', () => {
    expect(() =>
      definePrompt({ name: 'p', arguments: [{ name: 'a' }], complete: { b: () => [] }, get: () => '' }),
    ).toThrow(/complete\.b/);
    let error: unknown;
    try {
      definePrompt({ name: 'p', arguments: z.string() as never, get: () => '' });
    } catch (e) {
      error = e;
    }
    expect(isDefinitionError(error)).toBe(true);
  });
});

describe('toPromptResult', () => {
  test('strings and string contents become text blocks; the description is added', () => {
    expect(toPromptResult([{ role: 'assistant', content: 'ok' }], 'desc')).toEqual({
      description: 'desc',
      messages: [{ role: 'assistant', content: { type: 'text', text: 'ok' } }],
    });
  });

  test('a message without a valid role is refused', () => {
    expect(() => toPromptResult([{ role: 'system', content: 'x' } as never])).toThrow(/role/);
  });
});
