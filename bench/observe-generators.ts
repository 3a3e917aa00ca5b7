/**
 * Which argument generator covers JSON Schema 2020-12 better for `candor observe`:
 * candor's own (src/observe/arguments.ts) or json-schema-faker.
 * The corpus is the real input schemas of the servers here (candor's workspace
 * example, server-everything, server-filesystem, server-memory; their tools/list
 * over stdio) plus hand-written tool schemas that each lean on one 2020-12
 * feature. Every generator gets the same seeds per schema; every value is checked
 * by Ajv 2020-12 with ajv-formats. Counted per schema: valid values, invalid
 * values, gave up (candor's `undefined`: "cannot satisfy", reported by observe),
 * throws, distinct values, and time per value. Nothing here asserts a number.
 *
 *   npm run build && node --import tsx bench/observe-generators.ts [values-per-schema]
 *   npm run bench -- observe-generators          # the same, after a build
 *   BENCH_VERBOSE=1 node --import tsx bench/observe-generators.ts   # also print each failing value
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import fc from 'fast-check';
import { generate as fakerGenerate } from 'json-schema-faker';
import { generateArguments } from '../src/observe/arguments.js';
import { connectTarget, listAllTools } from '../src/targets/index.js';
import { schemaArbitrary } from '../test/support/schema-arbitrary.js';
import { record, table } from './_harness.js';

type Schema = Record<string, unknown>;
interface Entry {
  /** Where the schema comes from: a server's name, or `feature`. */
  group: string;
  /** The tool name, or the feature the schema exercises. */
  name: string;
  schema: Schema;
}

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const perSchema = Number(process.argv[2] ?? 20);
const verbose = process.env.BENCH_VERBOSE === '1';
const workdir = '/tmp/candor-observe-bench/work';
const RANDOM_SCHEMAS = 300;
/** Values per random schema (they are many; a few seeds each). */
const PER_RANDOM = 5;

// ---------------------------------------------------------------- the corpus

const object = (properties: Record<string, unknown>, extra: Schema = {}): Schema => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  ...extra,
});

/** Hand-written tool input schemas, one 2020-12 feature each (the property names are ordinary tool arguments). */
const FEATURES: Array<[string, Schema]> = [
  ['string minLength/maxLength', object({ name: { type: 'string', minLength: 3, maxLength: 8 } })],
  ['integer minimum/maximum', object({ limit: { type: 'integer', minimum: 1, maximum: 100 } })],
  ['number exclusiveMinimum/Maximum', object({ ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 } })],
  ['integer exclusiveMinimum only', object({ page: { type: 'integer', exclusiveMinimum: 0 } })],
  ['integer multipleOf', object({ step: { type: 'integer', multipleOf: 5, minimum: 1 } })],
  ['number multipleOf 0.25', object({ scale: { type: 'number', multipleOf: 0.25, minimum: 0, maximum: 2 } })],
  ['boolean', object({ recursive: { type: 'boolean' } })],
  ['const', object({ version: { const: '2020-12' } })],
  ['const object', object({ mode: { const: { kind: 'fast', level: 2 } } })],
  ['enum', object({ sortBy: { type: 'string', enum: ['name', 'size', 'mtime'] } })],
  ['enum mixed types', object({ level: { enum: [1, 'two', null, true] } })],
  ['nullable type array', object({ cursor: { type: ['string', 'null'] }, limit: { type: ['null', 'integer'] } })],
  ['pattern', object({ ticket: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' } })],
  ['pattern unanchored', object({ branch: { type: 'string', pattern: 'feat/' } })],
  ['format date-time', object({ since: { type: 'string', format: 'date-time' } })],
  ['format date', object({ day: { type: 'string', format: 'date' } })],
  ['format email', object({ to: { type: 'string', format: 'email' } })],
  ['format uri', object({ url: { type: 'string', format: 'uri' } })],
  ['format uuid', object({ id: { type: 'string', format: 'uuid' } })],
  [
    'format ipv4/hostname',
    object({ ip: { type: 'string', format: 'ipv4' }, host: { type: 'string', format: 'hostname' } }),
  ],
  ['array minItems/maxItems', object({ tags: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 3 } })],
  [
    'array uniqueItems',
    object({ fields: { type: 'array', items: { enum: ['a', 'b', 'c'] }, minItems: 2, uniqueItems: true } }),
  ],
  [
    'prefixItems',
    object({ range: { type: 'array', prefixItems: [{ type: 'integer' }, { type: 'string' }], items: false } }),
  ],
  [
    'prefixItems + minItems',
    object({ point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], minItems: 2 } }),
  ],
  [
    'contains/minContains',
    object({
      ids: { type: 'array', items: { type: 'integer' }, contains: { type: 'integer', minimum: 10 }, minContains: 2 },
    }),
  ],
  ['contains/maxContains', object({ flags: { type: 'array', contains: { const: 'x' }, maxContains: 1 } })],
  [
    '$defs/$ref',
    object(
      { labels: { type: 'array', items: { $ref: '#/$defs/label' }, minItems: 1 } },
      { $defs: { label: { type: 'string', minLength: 2 } } },
    ),
  ],
  [
    '$ref with siblings',
    {
      $defs: { base: object({ path: { type: 'string' } }) },
      $ref: '#/$defs/base',
      properties: { depth: { type: 'integer', minimum: 1 } },
      required: ['depth'],
    },
  ],
  [
    'recursive $ref',
    object(
      { tree: { $ref: '#/$defs/node' } },
      {
        $defs: {
          node: object({ name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }),
        },
      },
    ),
  ],
  ['$anchor ref', object({ when: { $ref: '#stamp' } }, { $defs: { stamp: { $anchor: 'stamp', type: 'integer' } } })],
  ['oneOf', object({ target: { oneOf: [{ type: 'string', minLength: 1 }, { type: 'integer' }] } })],
  ['oneOf overlapping', object({ amount: { oneOf: [{ type: 'number', multipleOf: 0.5 }, { type: 'integer' }] } })],
  [
    'oneOf objects (discriminated)',
    object({
      action: {
        oneOf: [
          object({ kind: { const: 'copy' }, to: { type: 'string' } }),
          object({ kind: { const: 'delete' }, force: { type: 'boolean' } }),
        ],
      },
    }),
  ],
  ['anyOf', object({ value: { anyOf: [{ type: 'string', maxLength: 3 }, { type: 'null' }] } })],
  [
    'allOf',
    {
      allOf: [object({ query: { type: 'string' } }), object({ limit: { type: 'integer', minimum: 1, maximum: 5 } })],
    },
  ],
  ['not', object({ name: { type: 'string', minLength: 1, not: { const: 'observe' } } })],
  [
    'if/then/else',
    {
      ...object({ kind: { enum: ['url', 'text'] }, body: { type: 'string' } }),
      if: { properties: { kind: { const: 'url' } } },
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword
      then: { properties: { body: { format: 'uri' } } },
      else: { properties: { body: { maxLength: 5 } } },
    },
  ],
  [
    'dependentRequired',
    {
      type: 'object',
      properties: { user: { type: 'string' }, password: { type: 'string' } },
      required: ['user'],
      dependentRequired: { user: ['password'] },
    },
  ],
  [
    'dependentSchemas',
    {
      type: 'object',
      properties: { format: { enum: ['csv', 'json'] } },
      required: ['format'],
      dependentSchemas: { format: { properties: { delimiter: { type: 'string' } }, required: ['delimiter'] } },
    },
  ],
  [
    'unevaluatedProperties',
    {
      type: 'object',
      allOf: [object({ query: { type: 'string' } })],
      properties: { limit: { type: 'integer' } },
      unevaluatedProperties: false,
    },
  ],
  [
    'additionalProperties false',
    {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'integer' } },
      required: ['a'],
      additionalProperties: false,
    },
  ],
  [
    'additionalProperties schema',
    object({ env: { type: 'object', additionalProperties: { type: 'string' }, minProperties: 1 } }),
  ],
  [
    'patternProperties',
    object({
      headers: {
        type: 'object',
        patternProperties: { '^x-': { type: 'string' } },
        additionalProperties: false,
        minProperties: 1,
      },
    }),
  ],
  [
    'propertyNames',
    object({
      labels: {
        type: 'object',
        propertyNames: { pattern: '^[a-z]+$' },
        additionalProperties: { type: 'integer' },
        minProperties: 1,
      },
    }),
  ],
  [
    'minProperties (all optional)',
    {
      type: 'object',
      properties: { name: { type: 'string' }, id: { type: 'integer' } },
      minProperties: 1,
    },
  ],
  ['maxProperties', { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, maxProperties: 1 }],
  ['required without properties', { type: 'object', required: ['token'] }],
  ['boolean subschemas', object({ anything: true, extra: { type: 'array', items: true, minItems: 1 } })],
  ['no type (properties only)', { properties: { q: { type: 'string' } }, required: ['q'] }],
  ['default', object({ limit: { type: 'integer', minimum: 1, maximum: 10, default: 5 } })],
  [
    'nested objects',
    object({ options: object({ depth: { type: 'integer', minimum: 0 }, follow: { type: 'boolean' } }) }),
  ],
];

/** The tools/list of one stdio server, schemas as sent. */
async function serverTools(group: string, args: string[], env: Record<string, string> = {}): Promise<Entry[]> {
  const conn = await connectTarget({ kind: 'stdio', label: group, command: process.execPath, args, env });
  try {
    const tools = (await listAllTools(conn.client)) as Array<{ name: string; inputSchema: Schema }>;
    return tools.map((t) => ({ group, name: t.name, schema: t.inputSchema }));
  } finally {
    await conn.close();
  }
}

async function corpus(scratch: string): Promise<Entry[]> {
  const bin = (name: string) => join(repo, 'node_modules/@modelcontextprotocol', name, 'dist/index.js');
  return [
    ...(await serverTools('workspace (candor)', [
      join(repo, 'dist/src/cli/main.js'),
      'serve',
      '--example',
      'workspace',
      '--stdio',
    ])),
    ...(await serverTools('server-everything', [bin('server-everything'), 'stdio'])),
    ...(await serverTools('server-filesystem', [bin('server-filesystem'), scratch])),
    ...(await serverTools('server-memory', [bin('server-memory')], {
      MEMORY_FILE_PATH: join(scratch, 'memory.jsonl'),
    })),
    ...FEATURES.map(([name, schema]) => ({ group: 'feature', name, schema })),
    // Random combinations (test/support/schema-arbitrary.ts, fixed seed); some have no valid value at all.
    ...fc
      .sample(schemaArbitrary, { numRuns: RANDOM_SCHEMAS, seed: 2020 })
      .map((schema, i) => ({ group: 'random', name: `random ${i}`, schema })),
  ];
}

// ---------------------------------------------------------------- the run

interface Count {
  valid: number;
  invalid: number;
  gaveUp: number;
  threw: number;
  distinct: number;
  micros: number;
}

interface Generator {
  name: string;
  /** `undefined`: the generator says it cannot satisfy the schema. */
  make(schema: Schema, seed: number): Promise<unknown>;
}

const GENERATORS: Generator[] = [
  {
    name: 'candor',
    make: async (schema, seed) => generateArguments(schema, { seed, workdir }),
  },
  {
    name: 'json-schema-faker',
    make: (schema, seed) => fakerGenerate(schema as never, { seed }),
  },
];

/**
 * The npm servers declare `$schema: draft-07` (zod-to-json-schema); the keywords they
 * use mean the same in 2020-12, which MCP makes the default, so they are checked as
 * 2020-12 with the declaration left out (Ajv2020 will not load the draft-07 meta-schema).
 */
function as2020(schema: Schema): Schema {
  const { $schema: _declared, ...rest } = schema;
  return rest;
}

const ajv = new Ajv2020({ strict: false, allErrors: false });
// ajv-formats is CommonJS: its function is the default export's `default`.
ajvFormats.default(ajv);

async function measure(entry: Entry, generator: Generator, values: number): Promise<Count> {
  const schema = as2020(entry.schema);
  const validate = ajv.compile(schema);
  const count: Count = { valid: 0, invalid: 0, gaveUp: 0, threw: 0, distinct: 0, micros: 0 };
  const seen = new Set<string>();
  for (let seed = 1; seed <= values; seed++) {
    const started = performance.now();
    let value: unknown;
    try {
      value = await generator.make(structuredClone(schema), seed);
    } catch (error) {
      count.micros += (performance.now() - started) * 1000;
      count.threw++;
      if (verbose) console.log(`  ${generator.name} threw on ${entry.name}: ${(error as Error).message}`);
      continue;
    }
    count.micros += (performance.now() - started) * 1000;
    if (value === undefined) {
      count.gaveUp++;
      continue;
    }
    seen.add(JSON.stringify(value));
    if (validate(value)) count.valid++;
    else {
      count.invalid++;
      if (verbose) {
        console.log(
          `  ${generator.name} invalid on ${entry.name}: ${JSON.stringify(value)} — ${ajv.errorsText(validate.errors)}`,
        );
      }
    }
  }
  count.distinct = seen.size;
  return count;
}

const add = (a: Count, b: Count): Count => ({
  valid: a.valid + b.valid,
  invalid: a.invalid + b.invalid,
  gaveUp: a.gaveUp + b.gaveUp,
  threw: a.threw + b.threw,
  distinct: a.distinct + b.distinct,
  micros: a.micros + b.micros,
});
const zero = (): Count => ({ valid: 0, invalid: 0, gaveUp: 0, threw: 0, distinct: 0, micros: 0 });
const total = (c: Count) => c.valid + c.invalid + c.gaveUp + c.threw;
const percent = (c: Count) => `${((100 * c.valid) / Math.max(1, total(c))).toFixed(0)}%`;
/** `valid/total`, with the failures spelled out: i invalid, u gave up (undefined), t threw. */
function cell(c: Count): string {
  const why = [c.invalid && `${c.invalid}i`, c.gaveUp && `${c.gaveUp}u`, c.threw && `${c.threw}t`].filter(Boolean);
  return `${c.valid}/${total(c)}${why.length ? ` (${why.join(' ')})` : ''}`;
}

const scratch = mkdtempSync(join(tmpdir(), 'candor-observe-generators-'));
let entries: Entry[];
try {
  entries = await corpus(scratch);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const valuesFor = (entry: Entry) => (entry.group === 'random' ? PER_RANDOM : perSchema);
const results = new Map<Entry, Count[]>();
for (const entry of entries) {
  const counts: Count[] = [];
  for (const generator of GENERATORS) counts.push(await measure(entry, generator, valuesFor(entry)));
  results.set(entry, counts);
}

const sumOf = (list: Entry[]) =>
  GENERATORS.map((_, i) => list.reduce((acc, e) => add(acc, results.get(e)![i]!), zero()));
const servers = [...new Set(entries.map((e) => e.group))].filter((g) => g !== 'feature' && g !== 'random');
const real = entries.filter((e) => servers.includes(e.group));
const features = entries.filter((e) => e.group === 'feature');
const random = entries.filter((e) => e.group === 'random');
/** Schemas for which every value was valid. */
const allValid = (i: number, list: Entry[]) => list.filter((e) => results.get(e)![i]!.valid === valuesFor(e)).length;

const row = (label: string, sums: Count[]) => [label, ...sums.map(cell), ...sums.map((c) => String(c.distinct))];
table(
  `Argument generators against Ajv 2020-12: ${perSchema} seeded values per schema (i invalid, u gave up, t threw)`,
  ['schema', ...GENERATORS.map((g) => `${g.name}: valid`), ...GENERATORS.map((g) => `${g.name}: distinct`)],
  [
    ...servers.map((group) => {
      const tools = entries.filter((e) => e.group === group);
      return row(`${group} (${tools.length} tools)`, sumOf(tools));
    }),
    ...features.map((e) => row(e.name, results.get(e)!)),
  ],
);

// Random schemas: how many some generator satisfied (a floor on how many can be satisfied at all).
const satisfiable = random.filter((e) => results.get(e)!.some((c) => c.valid > 0));
const corpora: Array<[string, Entry[]]> = [
  [`real server tools (${real.length})`, real],
  [`2020-12 features (${features.length})`, features],
  [`random schemas (${random.length}, ${PER_RANDOM} values each)`, random],
  [`random schemas some generator satisfied (${satisfiable.length})`, satisfiable],
];
table(
  'Totals: valid values, and schemas whose every value was valid',
  ['corpus', ...GENERATORS.map((g) => g.name)],
  [
    ...corpora.map(([label, list]) => [
      label,
      ...sumOf(list).map((c, i) => `${percent(c)} (${cell(c)}); ${allValid(i, list)}/${list.length} schemas`),
    ]),
    ['µs per value (mean, all)', ...sumOf(entries).map((c) => (c.micros / Math.max(1, total(c))).toFixed(1))],
  ],
);

record('observe-generators', {
  valuesPerSchema: perSchema,
  valuesPerRandomSchema: PER_RANDOM,
  schemas: { real: real.length, features: features.length, random: random.length, randomSatisfied: satisfiable.length },
  generators: Object.fromEntries(
    GENERATORS.map((g, i) => [
      g.name,
      {
        ...Object.fromEntries(
          (
            [
              ['real', real],
              ['features', features],
              ['random', random],
              ['randomSatisfied', satisfiable],
            ] as const
          ).map(([name, list]) => [name, { ...sumOf(list)[i]!, schemasAllValid: allValid(i, list) }]),
        ),
        microsPerValue: Number((sumOf(entries)[i]!.micros / Math.max(1, total(sumOf(entries)[i]!))).toFixed(1)),
        featureRows: Object.fromEntries(features.map((e) => [e.name, cell(results.get(e)![i]!)])),
      },
    ]),
  ),
});
