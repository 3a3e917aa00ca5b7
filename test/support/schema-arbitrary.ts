/**
 * Random tool input schemas that lean on JSON Schema 2020-12 keywords, for the
 * argument generator's property test (src/observe/arguments.test.ts) and the
 * generator comparison (bench/observe-generators.ts). Every schema is an object
 * schema, as MCP tool inputs are; some are unsatisfiable (an empty integer
 * range, a unique list of one constant), which a generator may decline.
 */
import fc from 'fast-check';

type Schema = Record<string, unknown>;

const word = fc.stringMatching(/^[a-z]{1,4}$/);

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ type: fc.constant('string'), minLength: fc.integer({ min: 0, max: 30 }) }),
  fc
    .tuple(fc.integer({ min: -100, max: 100 }), fc.integer({ min: 0, max: 50 }))
    .map(([min, span]) => ({ type: 'integer', minimum: min, maximum: min + span })),
  fc
    .tuple(fc.integer({ min: -100, max: 100 }), fc.integer({ min: 0, max: 50 }))
    .map(([min, span]) => ({ type: 'number', exclusiveMinimum: min, exclusiveMaximum: min + span })),
  fc
    .tuple(fc.integer({ min: 1, max: 7 }), fc.integer({ min: -50, max: 50 }), fc.boolean())
    .map(([m, min, integer]) => ({
      type: integer ? 'integer' : 'number',
      multipleOf: integer ? m : m / 4,
      minimum: min,
    })),
  fc.integer({ min: -20, max: 20 }).map((max) => ({ type: 'integer', maximum: max })),
  fc.constant({ type: 'boolean' }),
  fc.constant({ type: ['string', 'null'] }),
  fc.constantFrom('date-time', 'date', 'email', 'uri', 'uuid', 'ipv4').map((format) => ({ type: 'string', format })),
  word.map((prefix) => ({ type: 'string', pattern: `^${prefix}` })),
  fc.uniqueArray(fc.string({ maxLength: 5 }), { minLength: 1, maxLength: 4 }).map((values) => ({ enum: values })),
  fc.jsonValue().map((value) => ({ const: value })),
  fc.constant(true),
);

const names = fc.constantFrom('a', 'b', 'path', 'folder', 'c');

/** An object schema: required properties, with optional extras from 2020-12 (dependencies, sizes, name rules, conditionals, allOf). */
export const schemaArbitrary: fc.Arbitrary<Schema> = fc.letrec<{
  node: unknown;
  array: Schema;
  object: Schema;
}>((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, tie('object'), tie('array')),
  array: fc.oneof(
    fc.record({ type: fc.constant('array'), minItems: fc.integer({ min: 0, max: 3 }), items: tie('node') }),
    fc.record({ type: fc.constant('array'), prefixItems: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
    fc.record({
      type: fc.constant('array'),
      items: fc.constant({ enum: ['x', 'y', 'z'] }),
      minItems: fc.integer({ min: 0, max: 3 }),
      uniqueItems: fc.constant(true),
    }),
    fc.record({
      type: fc.constant('array'),
      items: fc.constant({ type: 'integer' }),
      contains: fc.integer({ min: -5, max: 5 }).map((minimum) => ({ minimum })),
      minContains: fc.integer({ min: 0, max: 3 }),
    }),
  ),
  // Required properties, plus at most one 2020-12 extra per object (several at once are mostly unsatisfiable).
  object: fc
    .tuple(
      fc.dictionary(names, tie('node'), { maxKeys: 4 }),
      fc.oneof(
        { arbitrary: fc.constant({}), weight: 3 },
        fc.dictionary(fc.constantFrom('d', 'e', 'dir'), tie('node'), { maxKeys: 2 }).map((optional) => ({ optional })),
        fc.integer({ min: 0, max: 4 }).map((minProperties) => ({ minProperties, optional: { d: { type: 'string' } } })),
        fc
          .constantFrom(true, { type: 'integer' })
          .map((additionalProperties) => ({ additionalProperties, minProperties: 3 })),
        fc.constant({ propertyNames: { pattern: '^[a-z]+$' }, minProperties: 2 }),
        fc.constant({
          patternProperties: { '^x-': { type: 'string' } },
          additionalProperties: false,
          minProperties: 1,
        }),
        fc.array(tie('object'), { minLength: 1, maxLength: 2 }).map((allOf) => ({ allOf })),
        fc.constant({ dependent: true }),
        word.map((conditional) => ({ conditional })),
      ),
    )
    .map(([required, extra]: [Record<string, unknown>, Record<string, unknown>]) => {
      const { optional, dependent, conditional, ...keywords } = extra;
      const schema: Schema = {
        type: 'object',
        properties: { ...(optional as Schema | undefined), ...required },
        required: Object.keys(required),
        ...keywords,
      };
      const first = Object.keys(required)[0];
      if (dependent && first !== undefined) {
        schema.dependentRequired = { [first]: ['dep'] };
        schema.dependentSchemas = { [first]: { properties: { dep: { type: 'string', minLength: 2 } } } };
      }
      if (typeof conditional === 'string') {
        schema.if = { properties: { mode: { const: conditional } }, required: ['mode'] };
        // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword
        schema.then = { properties: { level: { type: 'integer', minimum: 1 } }, required: ['level'] };
        schema.else = { properties: { level: { const: 0 } } };
      }
      return schema;
    }),
})).object;
