import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateArguments } from './arguments.js';

const work = '/tmp/candor-observe-x/work';

describe('generateArguments', () => {
  it('is reproducible for a seed and differs across seeds', () => {
    const schema = {
      type: 'object',
      properties: { q: { type: 'string' }, n: { type: 'integer' } },
      required: ['q', 'n'],
    };
    expect(generateArguments(schema, { seed: 7, workdir: work })).toEqual(
      generateArguments(schema, { seed: 7, workdir: work }),
    );
    expect(generateArguments(schema, { seed: 7, workdir: work })).not.toEqual(
      generateArguments(schema, { seed: 8, workdir: work }),
    );
  });

  it('points path-like strings inside the workdir, in each style', () => {
    const schema = {
      type: 'object',
      properties: { path: { type: 'string' }, directory: { type: 'string' } },
      required: ['path', 'directory'],
    };
    const existing = `${work}/notes/a.txt`;
    expect(
      generateArguments(schema, { seed: 1, workdir: work, pathStyle: 'existing', existingFile: existing }),
    ).toEqual({
      path: existing,
      directory: work,
    });
    const fresh = generateArguments(schema, { seed: 1, workdir: work, pathStyle: 'new' })!;
    expect(fresh.path).toMatch(/^\/tmp\/candor-observe-x\/work\/observe-\d+\.txt$/);
    expect(fresh.directory).toMatch(/^\/tmp\/candor-observe-x\/work\/observe-\d+$/);
    expect(generateArguments(schema, { seed: 1, workdir: work, pathStyle: 'folder' })).toEqual({
      path: work,
      directory: work,
    });
  });

  it('follows enum, const, bounds, $ref, anyOf and nested arrays', () => {
    const schema = {
      type: 'object',
      $defs: { item: { type: 'object', properties: { id: { const: 'x' } }, required: ['id'] } },
      properties: {
        mode: { enum: ['a', 'b'] },
        count: { type: 'integer', minimum: 3, maximum: 3 },
        items: { type: 'array', minItems: 2, items: { $ref: '#/$defs/item' } },
        either: { anyOf: [{ type: 'boolean' }, { type: 'string' }] },
      },
      required: ['mode', 'count', 'items', 'either'],
    };
    const value = generateArguments(schema, { seed: 3, workdir: work })!;
    expect(['a', 'b']).toContain(value.mode);
    expect(value.count).toBe(3);
    expect(value.items).toEqual([{ id: 'x' }, { id: 'x' }]);
    expect(typeof value.either).toBe('boolean');
  });

  it('gives undefined (never throws) for a schema it cannot satisfy', () => {
    const pattern = {
      type: 'object',
      properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' } },
      required: ['code'],
    };
    expect(generateArguments(pattern, { seed: 1, workdir: work })).toBeUndefined();
    const impossible = {
      type: 'object',
      properties: { n: { type: 'integer', minimum: 5, maximum: 1 } },
      required: ['n'],
    };
    expect(generateArguments(impossible, { seed: 1, workdir: work })).toBeUndefined();
  });

  it('generates only values the schema accepts (property-based, checked by Ajv 2020-12)', () => {
    const leaf = fc.oneof(
      fc.record({ type: fc.constant('string'), minLength: fc.integer({ min: 0, max: 30 }) }),
      fc
        .tuple(fc.integer({ min: -100, max: 100 }), fc.integer({ min: 0, max: 50 }))
        .map(([min, span]) => ({ type: 'integer', minimum: min, maximum: min + span })),
      fc.constant({ type: 'boolean' }),
      fc.uniqueArray(fc.string({ maxLength: 5 }), { minLength: 1, maxLength: 4 }).map((values) => ({ enum: values })),
      fc.jsonValue().map((value) => ({ const: value })),
    );
    const schemaArb = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, tie('object'), tie('array')),
      array: fc.record({ type: fc.constant('array'), minItems: fc.integer({ min: 0, max: 3 }), items: tie('node') }),
      object: fc
        .dictionary(fc.constantFrom('a', 'b', 'path', 'folder', 'c'), tie('node'), { maxKeys: 4 })
        .map((properties) => ({ type: 'object', properties, required: Object.keys(properties) })),
    })).object;
    const ajv = new Ajv2020({ strict: false });
    fc.assert(
      fc.property(schemaArb, fc.integer(), fc.constantFrom('existing', 'new', 'folder'), (schema, seed, pathStyle) => {
        const value = generateArguments(schema as Record<string, unknown>, {
          seed,
          workdir: work,
          pathStyle: pathStyle as 'existing' | 'new' | 'folder',
          existingFile: `${work}/a.txt`,
        });
        if (value !== undefined) expect(ajv.validate(schema, value), JSON.stringify({ schema, value })).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
