import { ToolSchema } from '@modelcontextprotocol/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DefinitionError } from '../errors.js';
import { BaseTool, defineTool, toToolDefinition } from './define.js';
import type { Effect, ToolAnnotations, World } from './types.js';
import { CANDOR_META_KEY } from './wire.js';

const noop = () => 'ok';

describe('defineTool', () => {
  it('puts all four hints and the title on the wire, explicitly', () => {
    const tool = defineTool({
      name: 'read_file',
      description: 'Read a file.',
      input: z.object({ path: z.string() }),
      effect: 'read',
      world: 'closed',
      handler: noop,
    });
    expect(tool.wire.annotations).toEqual({
      title: 'Read File',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(tool.wire.title).toBe('Read File');
    expect(tool.titleSource).toBe('derived');
    expect(tool.declaration).toBe('effects');
    expect(ToolSchema.safeParse(tool.wire).success).toBe(true);
  });

  it('produces the input JSON Schema once, with an object root and no dialect noise', () => {
    const tool = defineTool({
      name: 't',
      description: 'd',
      input: z.object({ path: z.string().describe('Where'), limit: z.number().int().optional() }),
      effect: 'read',
      world: 'closed',
      handler: noop,
    });
    expect(tool.wire.inputSchema).toMatchObject({
      type: 'object',
      properties: { path: { type: 'string', description: 'Where' } },
      required: ['path'],
    });
    expect(tool.wire.inputSchema.$schema).toBeUndefined();
  });

  it('gives a no-argument tool the spec no-arg schema', () => {
    const tool = defineTool({ name: 'ping', description: 'd', effect: 'read', world: 'closed', handler: noop });
    expect(tool.wire.inputSchema).toEqual({ type: 'object', additionalProperties: false });
  });

  it('validates zod input and reports each problem with its path', async () => {
    const tool = defineTool({
      name: 't',
      description: 'd',
      input: z.object({ items: z.array(z.object({ n: z.number() })) }),
      effect: 'read',
      world: 'closed',
      handler: noop,
    });
    expect(await tool.input.validate({ items: [{ n: 1 }] })).toEqual({ ok: true, value: { items: [{ n: 1 }] } });
    const bad = await tool.input.validate({ items: [{ n: 1 }, { n: 'x' }] });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.issues[0]?.path).toEqual(['items', 1, 'n']);
  });

  it('accepts a raw JSON Schema and validates with a compiled validator', async () => {
    const tool = defineTool({
      name: 'raw',
      description: 'd',
      input: {
        type: 'object',
        properties: { a: { type: 'string' } },
        required: ['a'],
        additionalProperties: false,
      },
      effect: 'read',
      world: 'closed',
      handler: noop,
    });
    expect(await tool.input.validate({ a: 'x' })).toEqual({ ok: true, value: { a: 'x' } });
    const bad = await tool.input.validate({ b: 1 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.issues).toEqual(
        expect.arrayContaining([
          { path: ['a'], message: 'is required' },
          { path: ['b'], message: 'unknown property' },
        ]),
      );
    }
  });

  it('refuses an input schema whose root is not an object, saying how to fix it', () => {
    expect(() =>
      defineTool({
        name: 't',
        description: 'd',
        input: z.string() as never,
        effect: 'read',
        world: 'closed',
        handler: noop,
      }),
    ).toThrow(/root must be type "object".*z\.object/);
  });

  it('refuses a schema that cannot be represented as JSON Schema, saying how to fix it', () => {
    expect(() =>
      defineTool({
        name: 't',
        description: 'd',
        input: z.object({ when: z.date() }),
        effect: 'read',
        world: 'closed',
        handler: noop,
      }),
    ).toThrow(/cannot be represented as JSON Schema.*Replace/);
  });

  it('refuses a raw JSON Schema that does not compile', () => {
    expect(() =>
      defineTool({
        name: 't',
        description: 'd',
        input: { type: 'object', properties: { a: { type: 'nope' } } },
        effect: 'read',
        world: 'closed',
        handler: noop,
      }),
    ).toThrow(/does not compile/);
  });

  it('puts the output schema on the wire', () => {
    const tool = defineTool({
      name: 't',
      description: 'd',
      output: z.object({ n: z.number() }),
      effect: 'read',
      world: 'closed',
      handler: () => ({ n: 1 }),
    });
    expect(tool.wire.outputSchema).toMatchObject({ type: 'object', properties: { n: { type: 'number' } } });
  });

  it('turns ui into _meta.ui and tags/category into the namespaced candor key, never annotations', () => {
    const tool = defineTool({
      name: 'chart',
      description: 'd',
      effect: 'read',
      world: 'closed',
      tags: ['viz', 'viz', 'beta'],
      category: 'reports',
      ui: { resourceUri: 'ui://charts/main', visibility: ['app'] },
      handler: noop,
    });
    expect(tool.wire._meta?.ui).toEqual({ resourceUri: 'ui://charts/main', visibility: ['app'] });
    expect(tool.wire._meta?.[CANDOR_META_KEY]).toEqual({
      tags: ['viz', 'beta'],
      category: 'reports',
      declaration: 'effects',
    });
    expect(Object.keys(tool.wire.annotations).sort()).toEqual(
      ['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint', 'title'].sort(),
    );
  });

  it('keeps rate limit and timeout as data for the pipeline', () => {
    const tool = defineTool({
      name: 't',
      description: 'd',
      effect: 'additive',
      world: 'open',
      rateLimit: { windowMs: 1000, max: 2 },
      timeoutMs: 5000,
      handler: noop,
    });
    expect(tool.rateLimit).toEqual({ windowMs: 1000, max: 2 });
    expect(tool.timeoutMs).toBe(5000);
  });

  it('refuses bad limits, ui and handlers with the field named', () => {
    const base = { name: 't', description: 'd', effect: 'read', world: 'closed', handler: noop } as const;
    expect(() => defineTool({ ...base, rateLimit: { windowMs: 0, max: 1 } })).toThrow(/rateLimit/);
    expect(() => defineTool({ ...base, timeoutMs: -1 })).toThrow(/timeoutMs/);
    expect(() => defineTool({ ...base, ui: { resourceUri: 'https://x' } })).toThrow(/ui:\/\//);
    expect(() => defineTool({ ...base, ui: { visibility: ['everyone' as never] } })).toThrow(/visibility/);
    expect(() => defineTool({ ...base, handler: undefined as never })).toThrow(/handler must be a function/);
    expect(() => defineTool({ ...base, tags: [''] })).toThrow(/tags/);
  });

  it('refuses an invalid name with the rule quoted', () => {
    expect(() => defineTool({ name: 'bad name', description: 'd', handler: noop })).toThrow(
      /\^\[A-Za-z0-9\._-\]\{1,128\}\$/,
    );
  });

  it('resolves seed-style annotations against the spec defaults and marks defaulted hints', () => {
    const tool = defineTool({
      name: 'search_notes',
      description: 'd',
      annotations: { title: 'Search notes', readOnlyHint: true },
      handler: noop,
    });
    expect(tool.title).toBe('Search notes');
    expect(tool.titleSource).toBe('annotations');
    expect(tool.declaration).toBe('annotations');
    expect(tool.wire.annotations).toEqual({
      title: 'Search notes',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(tool.wire._meta?.[CANDOR_META_KEY]).toMatchObject({
      defaulted: ['destructiveHint', 'idempotentHint', 'openWorldHint'],
    });
  });

  it('marks a tool that declares nothing as undeclared, with the worst case explicit', () => {
    const tool = defineTool({ name: 'mystery', description: 'd', handler: noop });
    expect(tool.declaration).toBe('undeclared');
    expect(tool.wire.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
  });

  it('fills in an undeclared tool from its name only when asked, and marks it inferred', () => {
    const plain = defineTool({ name: 'list_users', description: 'List users.', handler: noop });
    expect(plain.hints.readOnlyHint).toBe(false);
    const inferred = defineTool({ name: 'list_users', description: 'List users.', infer: true, handler: noop });
    expect(inferred.declaration).toBe('inferred');
    expect(inferred.hints.readOnlyHint).toBe(true);
    expect(inferred.hintSources.readOnlyHint).toBe('inferred');
    expect(inferred.inference?.reasons.length).toBeGreaterThan(0);
    expect(inferred.wire._meta?.[CANDOR_META_KEY]).toMatchObject({
      declaration: 'inferred',
      inferred: { confidence: expect.any(String) },
    });
  });

  it('never lets inference override a declaration', () => {
    const tool = defineTool({
      name: 'list_users',
      description: 'd',
      effect: 'destructive',
      world: 'closed',
      infer: true,
      handler: noop,
    });
    expect(tool.declaration).toBe('effects');
    expect(tool.hints.destructiveHint).toBe(true);
  });

  it('returns frozen plain data', () => {
    const tool = defineTool({ name: 't', description: 'd', effect: 'read', world: 'closed', handler: noop });
    expect(Object.isFrozen(tool)).toBe(true);
    expect(Object.isFrozen(tool.wire)).toBe(true);
    expect(() => {
      (tool as { name: string }).name = 'x';
    }).toThrow();
  });
});

describe('BaseTool', () => {
  class Echo extends BaseTool<{ text: string }> {
    name = 'echo';
    description = 'Echo the text back.';
    override annotations = { readOnlyHint: true, openWorldHint: false };
    override inputSchema = z.object({ text: z.string() });
    execute({ text }: { text: string }) {
      return text;
    }
  }

  it('produces the same plain ToolDefinition data as defineTool', () => {
    const fromClass = toToolDefinition(new Echo());
    const fromFunction = defineTool({
      name: 'echo',
      description: 'Echo the text back.',
      annotations: { readOnlyHint: true, openWorldHint: false },
      input: z.object({ text: z.string() }),
      handler: ({ text }) => text,
    });
    expect(fromClass.wire).toEqual(fromFunction.wire);
    expect(fromClass.hints).toEqual(fromFunction.hints);
    expect(fromClass.declaration).toBe('annotations');
  });

  it('calls execute with the arguments', async () => {
    const def = new Echo().toDefinition();
    expect(await def.handler({ text: 'hi' }, {} as never)).toBe('hi');
  });

  it('is refused with the same messages as defineTool when it contradicts itself', () => {
    class Bad extends BaseTool {
      name = 'bad';
      description = 'd';
      override annotations = { readOnlyHint: true, destructiveHint: true };
      execute() {
        return '';
      }
    }
    expect(() => new Bad().toDefinition()).toThrow(DefinitionError);
  });

  it('refuses things that are not tools', () => {
    expect(() => toToolDefinition({ name: 'x' } as never)).toThrow(/defineTool/);
  });
});

describe('any accepted definition yields a valid wire tool', () => {
  const effect = fc.constantFrom<Effect | undefined>('read', 'additive', 'destructive', undefined);
  const world = fc.constantFrom<World>('closed', 'open');
  const maybeBool = fc.option(fc.boolean(), { nil: undefined });
  const annotations = fc.option(
    fc.record<ToolAnnotations>(
      {
        title: fc.option(fc.string(), { nil: undefined }),
        readOnlyHint: maybeBool,
        destructiveHint: maybeBool,
        idempotentHint: maybeBool,
        openWorldHint: maybeBool,
      },
      { requiredKeys: [] },
    ),
    { nil: undefined },
  );
  const name = fc.stringMatching(/^[A-Za-z0-9._-]{1,40}$/);

  it('validates against the SDK ToolSchema with all four hints explicit', () => {
    fc.assert(
      fc.property(
        name,
        fc.string(),
        effect,
        world,
        maybeBool,
        annotations,
        fc.array(fc.string({ minLength: 1 })),
        (n, description, eff, w, idem, ann, tags) => {
          let tool: ReturnType<typeof defineTool>;
          try {
            tool = defineTool({
              name: n,
              description,
              ...(eff ? { effect: eff, world: w, idempotent: eff === 'read' ? undefined : idem } : {}),
              annotations: ann,
              tags: tags.filter((t) => t.trim() !== ''),
              handler: noop,
            });
          } catch (error) {
            // Refusals are allowed, but only as DefinitionErrors naming fields.
            expect(error).toBeInstanceOf(DefinitionError);
            expect((error as DefinitionError).fields.length).toBeGreaterThan(0);
            return;
          }
          expect(ToolSchema.safeParse(tool.wire).success).toBe(true);
          const a = tool.wire.annotations;
          for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
            expect(typeof a[hint]).toBe('boolean');
          }
          expect(a.readOnlyHint && a.destructiveHint).toBe(false);
          expect(tool.wire.title.length).toBeGreaterThan(0);
          // Round-trips through JSON unchanged (what goes over the wire).
          expect(JSON.parse(JSON.stringify(tool.wire))).toEqual(tool.wire);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('task support (MCP tasks)', () => {
  it('puts execution.taskSupport on the wire for optional and required, nothing for forbidden', () => {
    const make = (task?: 'optional' | 'required' | 'forbidden') =>
      defineTool({ name: 't', description: 'T.', effect: 'read', world: 'closed', task, handler: noop });
    expect(make('optional').wire.execution).toEqual({ taskSupport: 'optional' });
    expect(make('required').wire.execution).toEqual({ taskSupport: 'required' });
    expect(make('forbidden').wire.execution).toBeUndefined();
    expect(make().wire.execution).toBeUndefined();
    expect(make('required').task).toBe('required');
    expect(make('forbidden').task).toBeUndefined();
    expect(ToolSchema.safeParse(make('optional').wire).success).toBe(true);
  });

  it('refuses any other value, naming the field', () => {
    expect(() => defineTool({ name: 't', description: 'T.', task: 'sometimes' as never, handler: noop })).toThrow(
      DefinitionError,
    );
    expect(() => defineTool({ name: 't', description: 'T.', task: 'sometimes' as never, handler: noop })).toThrow(
      /task must be 'optional', 'required' or 'forbidden'/,
    );
  });

  it('BaseTool passes task through', () => {
    class Build extends BaseTool {
      name = 'build';
      description = 'Build.';
      override task = 'optional' as const;
      execute() {
        return 'built';
      }
    }
    expect(toToolDefinition(new Build()).wire.execution).toEqual({ taskSupport: 'optional' });
  });
});
