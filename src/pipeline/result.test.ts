import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../tool/define.js';
import { isCallToolResult, normaliseResult, OutputSchemaError } from './result.js';

const plain = defineTool({ name: 'plain', description: 'Plain.', effect: 'read', world: 'closed', handler: () => 'x' });
const typed = defineTool({
  name: 'typed',
  description: 'Typed.',
  effect: 'read',
  world: 'closed',
  output: z.object({ total: z.number() }),
  handler: () => ({ total: 1 }),
});

describe('normaliseResult', () => {
  test('a string becomes one text block', async () => {
    expect(await normaliseResult('hello', plain)).toEqual({ content: [{ type: 'text', text: 'hello' }] });
  });

  test('a CallToolResult passes through unchanged', async () => {
    const result = { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }], _meta: { a: 1 } };
    expect(await normaliseResult(result, plain)).toBe(result);
  });

  test('a JSON value without an output schema becomes JSON text only', async () => {
    expect(await normaliseResult({ a: [1, 2] }, plain)).toEqual({ content: [{ type: 'text', text: '{"a":[1,2]}' }] });
    expect(await normaliseResult(42, plain)).toEqual({ content: [{ type: 'text', text: '42' }] });
  });

  test('a JSON value with an output schema becomes text plus validated structuredContent', async () => {
    expect(await normaliseResult({ total: 3 }, typed)).toEqual({
      content: [{ type: 'text', text: '{"total":3}' }],
      structuredContent: { total: 3 },
    });
  });

  test('output that breaks the output schema is a server error, not a result', async () => {
    await expect(Promise.resolve().then(() => normaliseResult({ total: 'three' }, typed))).rejects.toBeInstanceOf(
      OutputSchemaError,
    );
    await expect(Promise.resolve().then(() => normaliseResult({ content: [] }, typed))).rejects.toThrow(
      /structuredContent/,
    );
  });

  test('undefined is an empty result and non-JSON values are refused', async () => {
    expect(await normaliseResult(undefined, plain)).toEqual({ content: [] });
    await expect(Promise.resolve().then(() => normaliseResult(() => 1, plain))).rejects.toThrow(/not JSON/);
  });

  test('isCallToolResult wants a content array of typed blocks', () => {
    expect(isCallToolResult({ content: [] })).toBe(true);
    expect(isCallToolResult({ content: [{ text: 'no type' }] })).toBe(false);
    expect(isCallToolResult({ content: 'x' })).toBe(false);
  });
});
