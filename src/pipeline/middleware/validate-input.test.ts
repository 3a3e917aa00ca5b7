import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { makeCallContext } from '../../../test/support/call-context.js';
import { defineTool } from '../../tool/define.js';
import { validateInput } from './validate-input.js';

const tool = defineTool({
  name: 'add_item',
  description: 'Add an item.',
  effect: 'additive',
  world: 'closed',
  input: z.object({ name: z.string(), tags: z.array(z.string()).default([]), size: z.number().int() }),
  handler: () => 'ok',
});

describe('validateInput', () => {
  test('valid arguments reach next parsed (defaults applied)', async () => {
    const ctx = makeCallContext(tool, { name: 'a', size: 1 });
    let seen: unknown;
    await validateInput()(ctx, async () => {
      seen = ctx.args;
      return { content: [] };
    });
    expect(seen).toEqual({ name: 'a', tags: [], size: 1 });
  });

  test('invalid arguments give an isError result listing each problem with its path', async () => {
    const ctx = makeCallContext(tool, { name: 3, tags: ['x', 4], size: 1.5 });
    let reached = false;
    const result = await validateInput()(ctx, async () => {
      reached = true;
      return { content: [] };
    });
    expect(reached).toBe(false);
    expect(result.isError).toBe(true);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain('Invalid arguments for tool "add_item"');
    expect(text).toMatch(/- name: /);
    expect(text).toMatch(/- tags\.1: /);
    expect(text).toMatch(/- size: /);
  });

  test('raw JSON Schema tools are validated too', async () => {
    const raw = defineTool({
      name: 'raw',
      description: 'Raw schema.',
      effect: 'read',
      world: 'closed',
      input: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'], additionalProperties: false },
      handler: () => 'ok',
    });
    const result = await validateInput()(makeCallContext(raw, { m: 1 }), async () => ({ content: [] }));
    const text = (result.content[0] as { text: string }).text;
    expect(result.isError).toBe(true);
    expect(text).toContain('- n: is required');
    expect(text).toContain('- m: unknown property');
  });
});
