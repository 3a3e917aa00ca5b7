import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from './define.js';
import { cachedJsonSchema, intern } from './schema-cache.js';

describe('intern', () => {
  it('makes equal objects and arrays one frozen object, wherever they appear', () => {
    const a = intern({ properties: { owner: { type: 'string' }, tags: ['x', 'y'] } }) as any;
    const b = intern({ items: { type: 'string' }, list: ['x', 'y'] }) as any;
    expect(a.properties.owner).toBe(b.items);
    expect(a.properties.tags).toBe(b.list);
    expect(Object.isFrozen(a) && Object.isFrozen(a.properties) && Object.isFrozen(a.properties.owner)).toBe(true);
  });

  it('copies, never freezing what it was given, and drops what JSON drops', () => {
    const given = { type: 'object', properties: { p: { type: 'string' } }, skip: undefined };
    const copy = intern(given) as any;
    expect(copy).toEqual({ type: 'object', properties: { p: { type: 'string' } } });
    expect(copy).not.toBe(given);
    expect(Object.isFrozen(given)).toBe(false);
  });

  it('tells apart values that differ only in key order or types', () => {
    expect(intern({ a: 1, b: 2 })).not.toBe(intern({ b: 2, a: 1 }));
    expect(intern({ a: '1' })).not.toBe(intern({ a: 1 }));
  });
});

describe('cachedJsonSchema', () => {
  it('converts a schema object once per role', () => {
    const schema = {};
    let calls = 0;
    const convert = () => {
      calls++;
      return { type: 'object' } as const;
    };
    const first = cachedJsonSchema(schema, 'input', convert);
    expect(cachedJsonSchema(schema, 'input', convert)).toBe(first);
    cachedJsonSchema(schema, 'output', convert);
    expect(calls).toBe(2);
  });
});

describe('tools that share schemas', () => {
  it('share one frozen JSON Schema: a zod object used by many tools, and equal raw JSON Schemas', () => {
    const input = z.object({ path: z.string() });
    const tool = (name: string, schema: unknown) =>
      defineTool({
        name,
        description: 'A tool.',
        effect: 'read',
        world: 'closed',
        input: schema as never,
        handler: () => '',
      });
    expect(tool('a', input).wire.inputSchema).toBe(tool('b', input).wire.inputSchema);
    const raw = () => ({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] });
    const c = tool('c', raw());
    expect(c.wire.inputSchema).toBe(tool('d', raw()).wire.inputSchema);
    expect(() => {
      (c.wire.inputSchema as any).properties.path = { type: 'number' };
    }).toThrow(TypeError);
    // Validation still works through the shared compiled validator.
    expect(c.input.validate({ path: 'x' })).toEqual({ ok: true, value: { path: 'x' } });
    expect(c.input.validate({})).toMatchObject({ ok: false });
  });
});
