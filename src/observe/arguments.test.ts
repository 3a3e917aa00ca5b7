import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { schemaArbitrary } from '../../test/support/schema-arbitrary.js';
import { generateArguments } from './arguments.js';
import { patternMatches } from './pattern-match.js';

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

  it('names the workdir for a path default that is a folder, and for every path default in the folder style', () => {
    // A default of "." can name the server's own session folder rather than where it runs.
    const schema = {
      type: 'object',
      properties: {
        path: { type: 'string', default: '.', description: 'Path to the Git repository.' },
        filePath: { type: 'string', default: 'out.txt' },
        paths: { type: 'array', items: { type: 'string' }, default: [] },
        format: { type: 'string', default: 'json' },
      },
    };
    const existingFile = `${work}/a.txt`;
    expect(generateArguments(schema, { seed: 1, workdir: work, pathStyle: 'existing', existingFile })).toEqual({
      path: work,
      filePath: 'out.txt',
      paths: [],
    });
    expect(generateArguments(schema, { seed: 1, workdir: work, pathStyle: 'new' })).toEqual({
      path: '.',
      filePath: 'out.txt',
      paths: [],
    });
    expect(generateArguments(schema, { seed: 1, workdir: work, pathStyle: 'folder', optional: true })).toEqual({
      path: work,
      filePath: work,
      paths: [work],
      format: 'json',
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

  it('a catastrophic pattern from the server cannot hang the pattern check (regression: ReDoS)', () => {
    // Unguarded, this one test takes minutes (2^40 backtracking steps).
    expect(patternMatches('^(a+)+$', `${'a'.repeat(40)}!`)).toBe(false);
    expect(patternMatches('^(a+)+$', 'a'.repeat(40))).toBe(true);
    expect(patternMatches('^(\\w)\\1$', 'xx')).toBe(true);
    expect(patternMatches('^[A-Z]{3}$', 'ABC')).toBe(true);
    expect(patternMatches('(', 'x')).toBe(false);
  }, 60_000);

  it('camelCase path names, whole numbers for number, file: URLs for url names, optional properties on request', () => {
    const work = '/tmp/w';
    const schema = {
      type: 'object',
      properties: {
        fileAbsolutePath: { type: 'string' },
        targetDir: { type: 'string' },
        limit: { type: 'number' },
        url: { type: 'string' },
        pageUrl: { type: 'string', format: 'uri' },
        query: { type: 'string' },
      },
      required: ['fileAbsolutePath', 'targetDir', 'limit', 'url', 'pageUrl'],
    };
    const value = generateArguments(schema, {
      seed: 3,
      workdir: work,
      pathStyle: 'existing',
      existingFile: `${work}/a.txt`,
    })!;
    expect(value.fileAbsolutePath).toBe(`${work}/a.txt`);
    expect(value.targetDir).toBe(work);
    expect(Number.isInteger(value.limit)).toBe(true);
    expect(value.url).toBe(`file://${work}/a.txt`);
    expect(value.pageUrl).toBe(`file://${work}/a.txt`);
    expect(value).not.toHaveProperty('query');
    const full = generateArguments(schema, { seed: 3, workdir: work, optional: true })!;
    expect(typeof full.query).toBe('string');
    // A range with no whole number in it still gets a fraction.
    expect(
      generateArguments(
        { type: 'object', properties: { r: { type: 'number', minimum: 0.1, maximum: 0.2 } }, required: ['r'] },
        { seed: 1, workdir: work },
      )!.r,
    ).toBeGreaterThan(0.1);
  });

  it("uses the server's own examples and formats, and checks each format with Ajv", () => {
    const schema = {
      type: 'object',
      properties: {
        project: { type: 'string', examples: ['contoso/web'] },
        sku: { type: 'string', example: 'A-100' },
        path: { type: 'string', examples: ['/etc/passwd'] },
        wait: { type: 'string', format: 'duration' },
        host: { type: 'string', format: 'ipv6' },
        pointer: { type: 'string', format: 'json-pointer' },
        expr: { type: 'string', format: 'regex' },
      },
      required: ['project', 'sku', 'path', 'wait', 'host', 'pointer', 'expr'],
    };
    const args = generateArguments(schema, { seed: 1, workdir: work })!;
    expect(args.project).toBe('contoso/web');
    expect(args.sku).toBe('A-100');
    // A path's example is not taken: paths point into the workdir.
    expect(String(args.path).startsWith(work)).toBe(true);
    const ajv = new Ajv2020({ strict: false });
    ajvFormats.default(ajv);
    expect(ajv.validate(schema, args), JSON.stringify(ajv.errors)).toBe(true);
  });

  it('gives undefined (never throws) for a schema it cannot satisfy', () => {
    const pattern = {
      type: 'object',
      properties: { code: { type: 'string', pattern: '^(?=\\d)[A-Z]{3}$' } },
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

  // The gaps bench/observe-generators.ts measured (json-schema-faker vs ours): each fix, checked by Ajv 2020-12.
  describe('2020-12 keywords', () => {
    const ajv = new Ajv2020({ strict: false });
    ajvFormats.default(ajv);
    const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
      type: 'object',
      properties,
      required: Object.keys(properties),
      ...extra,
    });
    /** Twenty seeds: every one must give a value, and Ajv must accept it. */
    const valid = (schema: Record<string, unknown>) => {
      const values = [];
      for (let seed = 1; seed <= 20; seed++) {
        const value = generateArguments(schema, { seed, workdir: work });
        expect(value, `seed ${seed}`).toBeDefined();
        expect(ajv.validate(schema, value), JSON.stringify({ value, errors: ajv.errors })).toBe(true);
        values.push(value!);
      }
      return values;
    };

    it('number bounds: exclusiveMaximum, exclusiveMinimum, an upper bound alone, multipleOf', () => {
      for (const v of valid(object({ r: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 } }))) {
        expect(v.r as number).toBeGreaterThan(0);
        expect(v.r as number).toBeLessThan(1);
      }
      valid(object({ n: { type: 'integer', maximum: -5 } }));
      valid(object({ n: { type: 'integer', exclusiveMinimum: 2, exclusiveMaximum: 4 } }));
      const steps = valid(object({ step: { type: 'integer', multipleOf: 5, minimum: 1 } }));
      expect(steps.every((v) => (v.step as number) % 5 === 0)).toBe(true);
      valid(object({ scale: { type: 'number', multipleOf: 0.25, minimum: 0, maximum: 2 } }));
      expect(
        generateArguments(object({ n: { type: 'integer', multipleOf: 10, minimum: 1, maximum: 9 } }), {
          seed: 1,
          workdir: work,
        }),
      ).toBeUndefined();
    });

    it('arrays: prefixItems, contains/minContains, uniqueItems, a recursive $ref ending in an empty list', () => {
      const range = valid(object({ range: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'string' }] } }));
      expect(range.every((v) => typeof (v.range as unknown[])[0] === 'number')).toBe(true);
      valid(object({ range: { type: 'array', prefixItems: [{ type: 'integer' }], items: false, minItems: 1 } }));
      const ids = valid(
        object({
          ids: {
            type: 'array',
            items: { type: 'integer' },
            contains: { type: 'integer', minimum: 10 },
            minContains: 2,
          },
        }),
      );
      expect(ids.every((v) => (v.ids as number[]).filter((n) => n >= 10).length >= 2)).toBe(true);
      valid(object({ f: { type: 'array', items: { enum: ['a', 'b', 'c'] }, minItems: 3, uniqueItems: true } }));
      expect(
        generateArguments(object({ f: { type: 'array', items: { const: 1 }, minItems: 2, uniqueItems: true } }), {
          seed: 1,
          workdir: work,
        }),
      ).toBeUndefined();
      valid(
        object(
          { tree: { $ref: '#/$defs/node' } },
          { $defs: { node: object({ children: { type: 'array', items: { $ref: '#/$defs/node' } } }) } },
        ),
      );
    });

    it('references: keywords beside $ref count, and $anchor names resolve', () => {
      const [v] = valid({
        $defs: { base: object({ path: { type: 'string' } }) },
        $ref: '#/$defs/base',
        properties: { depth: { type: 'integer', minimum: 1 } },
        required: ['depth'],
      });
      expect(Object.keys(v!).sort()).toEqual(['depth', 'path']);
      valid(object({ when: { $ref: '#stamp' } }, { $defs: { stamp: { $anchor: 'stamp', type: 'integer' } } }));
    });

    it('conjunctions and conditionals: allOf beside properties, oneOf/anyOf with siblings, if/then, dependencies', () => {
      const [joined] = valid({
        type: 'object',
        properties: { q: { type: 'string' } },
        required: ['q'],
        allOf: [object({ limit: { type: 'integer', minimum: 1, maximum: 5 } })],
      });
      expect(Object.keys(joined!).sort()).toEqual(['limit', 'q']);
      valid({
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'integer' } },
        oneOf: [{ required: ['a'] }, { required: ['b'] }],
      });
      valid(object({ v: { type: ['integer', 'null'], anyOf: [{ type: 'string' }, { minimum: 3 }] } }));
      valid({
        ...object({ kind: { enum: ['url', 'text'] }, body: { type: 'string' } }),
        if: { properties: { kind: { const: 'url' } } },
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword
        then: { properties: { body: { format: 'uri' } } },
        else: { properties: { body: { maxLength: 5 } } },
      });
      const [login] = valid({
        type: 'object',
        properties: { user: { type: 'string' }, password: { type: 'string' } },
        required: ['user'],
        dependentRequired: { user: ['password'] },
      });
      expect(login).toHaveProperty('password');
      valid({
        type: 'object',
        properties: { format: { enum: ['csv', 'json'] } },
        required: ['format'],
        dependentSchemas: { format: { properties: { delimiter: { type: 'string' } }, required: ['delimiter'] } },
      });
    });

    it('object sizes and names: minProperties, additionalProperties, patternProperties, propertyNames, bare required', () => {
      valid({ type: 'object', properties: { name: { type: 'string' }, id: { type: 'integer' } }, minProperties: 1 });
      valid(object({ env: { type: 'object', additionalProperties: { type: 'string' }, minProperties: 1 } }));
      const [headers] = valid(
        object({
          h: {
            type: 'object',
            patternProperties: { '^x-': { type: 'string' } },
            additionalProperties: false,
            minProperties: 1,
          },
        }),
      );
      expect(Object.keys(headers!.h as object)[0]).toMatch(/^x-/);
      valid(
        object({
          labels: {
            type: 'object',
            propertyNames: { pattern: '^[a-z]+$' },
            additionalProperties: { type: 'integer' },
            minProperties: 1,
          },
        }),
      );
      valid({ type: 'object', required: ['token'] });
      valid(object({ anything: true, extra: { type: 'array', items: true, minItems: 1 } }));
      expect(
        generateArguments(object({ h: { type: 'object', additionalProperties: false, minProperties: 1 } }), {
          seed: 1,
          workdir: work,
        }),
      ).toBeUndefined();
    });

    it('types: a type list of null alone gives null, a path-like name with a format keeps the format', () => {
      const [v] = valid(object({ cursor: { type: ['null'] } }));
      expect(v!.cursor).toBeNull();
      const [dated] = valid(object({ folder: { type: 'string', format: 'date-time' } }));
      expect(dated!.folder).not.toContain(work);
      const [linked] = valid(object({ file: { type: 'string', format: 'uri' } }));
      expect(linked!.file).toMatch(new RegExp(`^file://${work}/observe-\\d+\\.txt$`));
    });

    it('strings: patterns are met (literal text, then samples of the pattern); unsupported syntax is reported', () => {
      const [branch] = valid(object({ branch: { type: 'string', pattern: 'feat/' } }));
      expect(branch!.branch).toContain('feat/');
      valid(object({ id: { type: 'string', pattern: '^ob-' } }));
      const patterns = [
        '^[A-Z]{3}-\\d{4}$',
        '^\\d{4}-\\d{2}-\\d{2}$',
        '^[a-z0-9]+(?:-[a-z0-9]+)*$',
        '^v?\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.]+)?$',
        '^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$',
        '^#[0-9a-fA-F]{6}$',
        '^(GET|POST|PUT|DELETE)$',
        '^[^\\s@]+@[^\\s@]+\\.[a-z]{2,}$',
        '^\\w{3,8}$',
      ];
      for (const pattern of patterns) {
        const values = valid(object({ v: { type: 'string', pattern } }));
        expect(new Set(values.map((v) => v.v)).size, pattern).toBeGreaterThan(1);
      }
      valid(object({ v: { type: 'string', pattern: '^[a-z]+$', minLength: 6, maxLength: 9 } }));
      // Random patterns in the supported subset: a value is always found (and Ajv accepts it).
      const atom = fc.constantFrom('a', 'Z', '-', '\\.', '\\d', '\\w', '\\s', '[a-f0-9]', '[^x/]', '.', '[A-Z_]');
      const quantifier = fc.constantFrom('', '', '*', '+', '?', '{2}', '{1,3}', '{2,}', '+?');
      // No quantified group holds a quantifier: nested quantifiers make any regex engine backtrack for ages on a miss.
      const piece = fc.tuple(atom, quantifier).map(([a, q]) => `${a}${q}`);
      const flat = fc.array(piece, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(''));
      const group = fc
        .tuple(fc.array(flat, { minLength: 1, maxLength: 3 }), fc.constantFrom('(', '(?:'), fc.constantFrom('', '?'))
        .map(([options, open, q]) => `${open}${options.join('|')})${q}`);
      const regex = fc.array(fc.oneof(piece, group), { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''));
      fc.assert(
        fc.property(regex, fc.integer(), (pattern, seed) => {
          const schema = object({ v: { type: 'string', pattern: `^${pattern}$` } });
          const value = generateArguments(schema, { seed, workdir: work });
          expect(value, pattern).toBeDefined();
          expect(ajv.validate(schema, value)).toBe(true);
        }),
        { numRuns: 300, seed: 7 },
      );
      for (const unsupported of ['^(?=.*\\d)\\w+$', '^(a)\\1$', '^\\p{L}+$']) {
        expect(
          generateArguments(object({ t: { type: 'string', pattern: unsupported } }), { seed: 1, workdir: work }),
          unsupported,
        ).toBeUndefined();
      }
    });
  });

  it('generates only values the schema accepts (property-based, checked by Ajv 2020-12)', () => {
    const leaf = fc.oneof(
      fc.record({ type: fc.constant('string'), minLength: fc.integer({ min: 0, max: 30 }) }),
      fc
        .tuple(fc.integer({ min: -100, max: 100 }), fc.integer({ min: 0, max: 50 }))
        .map(([min, span]) => ({ type: 'integer', minimum: min, maximum: min + span })),
      fc.constant({ type: 'boolean' }),
      fc.uniqueArray(fc.string({ maxLength: 5 }), { minLength: 1, maxLength: 3 }).map((values) => ({ enum: values })),
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
  it('generates only values the schema accepts for random 2020-12 schemas (prefixItems, contains, dependencies, if/then, allOf, property names)', () => {
    const ajv = new Ajv2020({ strict: false });
    ajvFormats.default(ajv);
    let generated = 0;
    fc.assert(
      fc.property(schemaArbitrary, fc.integer(), (schema, seed) => {
        const value = generateArguments(schema, { seed, workdir: work });
        if (value === undefined) return;
        generated++;
        expect(ajv.validate(schema, value), JSON.stringify({ schema, value, errors: ajv.errors })).toBe(true);
      }),
      { numRuns: 300, seed: 12 },
    );
    // Most of them are satisfiable: giving up on everything would pass the check above vacuously.
    expect(generated).toBeGreaterThan(150);
  });
});
