/**
 * Arguments for observed calls, generated from a tool's input
 * schema: seeded and reproducible, smallest valid values first, and strings
 * that name files or folders pointed inside the throwaway workdir. A schema the
 * generator cannot satisfy gives `undefined` (reported, never a crash).
 * Measured choice (bench/observe-generators.ts, README "candor observe"): our
 * own generator rather than json-schema-faker 0.6.3. Both satisfy every tool
 * schema of the servers measured; on hand-written 2020-12 features and random
 * combinations ours gives more valid values, json-schema-faker's are more varied.
 * Keywords are folded into one schema where a value must meet several at once
 * (`$ref` with siblings, `allOf`, `if`/`then`, dependentSchemas); a `oneOf`
 * whose options overlap, and patterns outside pattern.ts's subset, are not solved.
 */

import { type Context, createContext, Script } from 'node:vm';
import { splitWords } from '../tool/title.js';
import { samplePattern } from './pattern.js';

type Schema = Record<string, unknown>;

/** A seeded PRNG (mulberry32): the same seed gives the same arguments. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PATH_WORDS = /^(path|file|filename|dir|directory|folder|source|destination|dest|target)s?$/;
const FOLDER_WORDS = /^(dir|directory|folder)s?$/;
const URL_WORDS = /^(url|uri|href|link)s?$/;
/** Optional properties filled even without `optional`: only names that cannot be anything but a path (`target` may be an element). */
const OPTIONAL_PATH_WORDS = /^(path|file|filename|dir|directory|folder)s?$/;

/** The last word of a property name, whatever its case style (`fileAbsolutePath`, `source_dir`, `file-name`). */
function lastWords(key: string): string[] {
  return splitWords(key).map((w) => w.toLowerCase());
}

/** A name that holds a path: its last word says so (`fileAbsolutePath`, `targetDir`), or it ends in "file name". */
function isPathish(key: string): boolean {
  const words = lastWords(key);
  const last = words.at(-1) ?? '';
  return PATH_WORDS.test(last) || (last === 'name' && words.at(-2) === 'file');
}

/** An optional property worth filling to keep a call's files inside the workdir (`filename`, `outputPath`). */
function isSurelyPath(key: string): boolean {
  const words = lastWords(key);
  const last = words.at(-1) ?? '';
  return OPTIONAL_PATH_WORDS.test(last) || (last === 'name' && words.at(-2) === 'file');
}

function isFolderish(key: string): boolean {
  return FOLDER_WORDS.test(lastWords(key).at(-1) ?? '');
}

/** A name that holds a URL (`url`, `pageUrl`, `href`): filled with a file: URL inside the workdir, never a placeholder. */
function isUrlish(key: string): boolean {
  return URL_WORDS.test(lastWords(key).at(-1) ?? '');
}

/**
 * How path-like strings point into the workdir: at a file that exists (so
 * readers have something to read), at a new file (so writers create), or at the
 * workdir itself (so listers list). observe() tries them in that order until a
 * call succeeds.
 */
export type PathStyle = 'existing' | 'new' | 'folder';

/** Options of {@link generateArguments}. */
export interface GenerateOptions {
  seed: number;
  /** The sandbox's copy of the workdir: every generated path lies inside it. */
  workdir: string;
  /** Default `new`. */
  pathStyle?: PathStyle;
  /** A file inside `workdir` that exists, for the `existing` style. */
  existingFile?: string;
  /** Fill optional properties too (default: only required ones, and path-like optional ones). */
  optional?: boolean;
}

/**
 * Generate one argument object for a tool's input schema.
 *
 * @example
 * ```ts
 * generateArguments({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }, { seed: 1, workdir: '/tmp/w' });
 * // { path: '/tmp/w/observe-1.txt' }
 * ```
 */
export function generateArguments(schema: Schema, options: GenerateOptions): Record<string, unknown> | undefined {
  const next = random(options.seed);
  const paths = {
    style: options.pathStyle ?? 'new',
    workdir: options.workdir,
    existing: options.existingFile,
    optional: options.optional === true,
  };
  // A root that says nothing about its shape (mcp-obsidian sends only `$schema`) takes an empty
  // object: tool arguments are always one.
  const shapeless = Object.keys(schema).every((k) => k.startsWith('$') || k === 'title' || k === 'description');
  const value = shapeless ? {} : generate(schema, '', next, paths, schema, 0);
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function generate(
  schema: unknown,
  key: string,
  next: () => number,
  paths: Paths,
  root: Schema,
  depth: number,
): unknown {
  const s = normalize(schema, root, depth);
  if (s === undefined || s.type === NEVER) return undefined;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[Math.floor(next() * s.enum.length)];
  if ('default' in s) return s.default;
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const options = s[keyword];
    if (!Array.isArray(options) || options.length === 0) continue;
    // The first option that fits together with the keywords beside it (a oneOf whose options overlap is not checked).
    const { [keyword]: _options, ...rest } = s;
    for (const option of options) {
      const branch = normalize(option, root, depth + 1);
      const value = branch && generate(merge(rest, branch), key, next, paths, root, depth + 1);
      if (value !== undefined) return value;
    }
    return undefined;
  }
  const type = Array.isArray(s.type)
    ? (s.type.find((t) => t !== 'null') ?? (s.type.includes('null') ? 'null' : NEVER))
    : (s.type ?? (s.properties || s.required ? 'object' : s.prefixItems || s.items ? 'array' : undefined));
  switch (type) {
    case 'object':
      return generateObject(s, next, paths, root, depth);
    case 'array':
      return generateArray(s, key, next, paths, root, depth);
    case 'string': {
      const fits = (text: string) =>
        text.length >= (typeof s.minLength === 'number' ? s.minLength : 0) &&
        text.length <= (typeof s.maxLength === 'number' ? s.maxLength : Number.POSITIVE_INFINITY) &&
        (typeof s.pattern !== 'string' || patternMatches(s.pattern, text));
      // A path for path-like names, as a file: URI where the format asks for a URI; other formats win over the name.
      if ((isPathish(key) && s.format === undefined) || s.format === 'uri-reference') {
        const file = pathFor(key, paths, next);
        if (fits(file)) return file;
      }
      if (
        ((isPathish(key) || isUrlish(key)) && (s.format === 'uri' || s.format === 'iri')) ||
        (isUrlish(key) && s.format === undefined)
      ) {
        const uri = `file://${pathFor(key, paths, next)}`;
        if (fits(uri)) return uri;
      }
      const formatted = typeof s.format === 'string' ? FORMATS[s.format] : undefined;
      if (formatted !== undefined) return fits(formatted) ? formatted : undefined;
      const min = typeof s.minLength === 'number' ? s.minLength : 1;
      const max = typeof s.maxLength === 'number' ? s.maxLength : Math.max(min, 12);
      const base = `observe-${Math.floor(next() * 1e6)}`;
      const text = base.length < min ? base.padEnd(min, 'x') : base.slice(0, Math.max(min, Math.min(max, base.length)));
      if (fits(text)) return text;
      if (typeof s.pattern !== 'string') return undefined;
      // Patterns: the pattern's literal text with our word after it, then samples of the pattern (a subset of
      // regular expressions, see pattern.ts); what no attempt fits is reported, not guessed.
      const literal = literalOf(s.pattern);
      const plain = literal ? [`${literal}${text}`, literal].find(fits) : undefined;
      if (plain !== undefined) return plain;
      for (let attempt = 0; attempt < 12; attempt++) {
        const sample = samplePattern(s.pattern, next, attempt, {
          min: typeof s.minLength === 'number' ? s.minLength : 0,
          max: typeof s.maxLength === 'number' ? s.maxLength : Number.POSITIVE_INFINITY,
        });
        if (sample === undefined) return undefined;
        if (fits(sample)) return sample;
      }
      return undefined;
    }
    case 'integer':
    case 'number':
      return generateNumber(s, type === 'integer', next);
    case 'boolean':
      return next() < 0.5;
    case 'null':
      return null;
    default:
      return type === undefined ? 'observe' : undefined;
  }
}

/**
 * The schema with its references and conjunctions folded in: `$ref` (and the
 * keywords beside it), `allOf`, and `if`/`then` (the value is made to satisfy
 * `if` and `then` together, which satisfies the conditional). `true` is `{}`;
 * `false`, a missing reference or too deep a nesting is `undefined`.
 */
function normalize(schema: unknown, root: Schema, depth: number): Schema | undefined {
  if (schema === true) return {};
  if (depth > 8 || typeof schema !== 'object' || schema === null || Array.isArray(schema)) return undefined;
  let s = schema as Schema;
  if (typeof s.$ref === 'string') {
    const { $ref, ...rest } = s;
    const target = normalize(resolveRef(root, $ref as string), root, depth + 1);
    if (target === undefined) return undefined;
    s = merge(target, rest);
  }
  if (Array.isArray(s.allOf)) {
    const { allOf, ...rest } = s;
    s = rest;
    for (const part of allOf) {
      const folded = normalize(part, root, depth + 1);
      if (folded === undefined) return undefined;
      s = merge(s, folded);
    }
  }
  if (s.if !== undefined) {
    // `if` and `then` together satisfy the conditional; when they contradict the rest, `else` is the way out.
    const { if: condition, then: consequence, else: otherwise, ...rest } = s;
    const fold = (parts: unknown[]) => {
      let folded: Schema | undefined = rest;
      for (const part of parts) {
        const schema = normalize(part, root, depth + 1);
        folded = schema && folded && merge(folded, schema);
      }
      return folded;
    };
    const taken = fold(consequence === undefined ? [condition] : [condition, consequence]);
    return taken && !contradicts(taken, root, depth) ? taken : fold(otherwise === undefined ? [] : [otherwise]);
  }
  return s;
}

/** Whether a folded schema visibly asks for the impossible: a type no value has, at the top or in a property. */
function contradicts(s: Schema, root: Schema, depth: number): boolean {
  if (s.type === NEVER) return true;
  return Object.values(isRecord(s.properties) ? s.properties : {}).some((sub) => {
    const folded = normalize(sub, root, depth + 1);
    return folded === undefined || folded.type === NEVER;
  });
}

/** Whether a value meets a schema's plain keywords (type, enum, bounds, lengths, pattern): for a `const` or `enum` beside them. */
function valueFits(value: unknown, s: Schema): boolean {
  const kind =
    value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value;
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    const integer = typeof value === 'number' && Number.isInteger(value);
    if (!types.some((t) => t === kind || (t === 'integer' && integer))) return false;
  }
  if (Array.isArray(s.enum) && !s.enum.some((v) => JSON.stringify(v) === JSON.stringify(value))) return false;
  if (typeof value === 'number') {
    if (typeof s.multipleOf === 'number' && !isMultiple(value, s.multipleOf)) return false;
    if (typeof s.minimum === 'number' && value < s.minimum) return false;
    if (typeof s.maximum === 'number' && value > s.maximum) return false;
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum) return false;
    if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum) return false;
  }
  if (typeof value === 'string') {
    if (typeof s.minLength === 'number' && value.length < s.minLength) return false;
    if (typeof s.maxLength === 'number' && value.length > s.maxLength) return false;
    if (typeof s.pattern === 'string' && !patternMatches(s.pattern, value)) return false;
  }
  return true;
}

const LOWER_BOUNDS = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains']);
const UPPER_BOUNDS = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains']);

/** Keywords whose value is one subschema: both sides' apply at once. */
const SUBSCHEMAS = new Set([
  'items',
  'contains',
  'additionalProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
]);

/** Two schemas a value must satisfy at once, as one (bounds tightened, properties and required joined, types intersected). */
function merge(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a };
  for (const [name, value] of Object.entries(b)) {
    const prev = out[name];
    if (prev === undefined) out[name] = value;
    else if (name === 'properties' && isRecord(prev) && isRecord(value)) {
      const properties: Schema = { ...prev };
      for (const [p, sub] of Object.entries(value)) {
        properties[p] = p in properties ? { allOf: [properties[p], sub] } : sub;
      }
      out.properties = properties;
    } else if (name === 'required' && Array.isArray(prev) && Array.isArray(value)) {
      out.required = [...new Set([...prev, ...value])];
    } else if (name === 'allOf' && Array.isArray(prev) && Array.isArray(value)) out.allOf = [...prev, ...value];
    else if (name === 'not') out.not = { anyOf: [prev, value] };
    else if (name === 'multipleOf' && typeof prev === 'number' && typeof value === 'number') {
      out.multipleOf = commonMultiple(prev, value);
    } else if (SUBSCHEMAS.has(name)) out[name] = { allOf: [prev, value] };
    else if (name === 'patternProperties' && isRecord(prev) && isRecord(value)) {
      const patterns: Schema = { ...prev };
      for (const [p, sub] of Object.entries(value)) patterns[p] = p in patterns ? { allOf: [patterns[p], sub] } : sub;
      out.patternProperties = patterns;
    } else if (name === 'type') out.type = intersectTypes(prev, value);
    else if (name === 'enum' && Array.isArray(prev) && Array.isArray(value)) {
      out.enum = prev.filter((p) => value.some((v) => JSON.stringify(v) === JSON.stringify(p)));
      if ((out.enum as unknown[]).length === 0) out.type = NEVER;
    } else if (LOWER_BOUNDS.has(name) && typeof prev === 'number' && typeof value === 'number') {
      out[name] = Math.max(prev, value);
    } else if (UPPER_BOUNDS.has(name) && typeof prev === 'number' && typeof value === 'number') {
      out[name] = Math.min(prev, value);
    } else if (name === 'const' && JSON.stringify(prev) !== JSON.stringify(value)) out.type = NEVER;
    else out[name] = value;
  }
  if ('const' in out && out.type !== NEVER && !valueFits(out.const, out)) out.type = NEVER;
  if (Array.isArray(out.enum) && out.type !== NEVER) {
    const { enum: values, ...rest } = out;
    out.enum = (values as unknown[]).filter((v) => valueFits(v, rest));
    if ((out.enum as unknown[]).length === 0) out.type = NEVER;
  }
  // Positions: each side's `items` rules every position past its own prefixItems, the other side's prefix included.
  if (Array.isArray(a.prefixItems) || Array.isArray(b.prefixItems)) {
    const at = (side: Schema, i: number) =>
      Array.isArray(side.prefixItems) && i < side.prefixItems.length ? side.prefixItems[i] : (side.items ?? true);
    const length = Math.max(
      Array.isArray(a.prefixItems) ? a.prefixItems.length : 0,
      Array.isArray(b.prefixItems) ? b.prefixItems.length : 0,
    );
    out.prefixItems = Array.from({ length }, (_, i) => ({ allOf: [at(a, i), at(b, i)] }));
    if (a.items !== undefined || b.items !== undefined) out.items = { allOf: [a.items ?? true, b.items ?? true] };
  }
  // additionalProperties of either side still rules the properties only the other side declares.
  if (isRecord(out.properties)) {
    const properties: Schema = { ...out.properties };
    for (const side of [a, b]) {
      if (side.additionalProperties === undefined) continue;
      for (const name of Object.keys(properties)) {
        const declared = isRecord(side.properties) && name in side.properties;
        const patterned =
          isRecord(side.patternProperties) && Object.keys(side.patternProperties).some((p) => patternMatches(p, name));
        if (!declared && !patterned) properties[name] = { allOf: [properties[name], side.additionalProperties] };
      }
    }
    out.properties = properties;
  }
  return out;
}

/** `value / step` is a whole number, written out as one (validators such as Ajv reject quotients of 1e21 and up). */
function isMultiple(value: number, step: number): boolean {
  const quotient = value / step;
  return Number.isInteger(quotient) && Math.abs(quotient) < 1e21;
}

/** A number both steps divide: the larger when it is a multiple of the smaller, the least common multiple of integers. */
function commonMultiple(a: number, b: number): number {
  const [small, large] = a < b ? [a, b] : [b, a];
  if (Number.isInteger(large / small)) return large;
  if (!Number.isInteger(a) || !Number.isInteger(b)) return a * b;
  let [x, y] = [a, b];
  while (y !== 0) [x, y] = [y, x % y];
  return (a / x) * b;
}

/** A type no value has: the generator gives up on it. */
const NEVER = 'never';

function intersectTypes(a: unknown, b: unknown): unknown {
  const list = (t: unknown) => (Array.isArray(t) ? (t as string[]) : [t as string]);
  const left = list(a);
  const both = list(b).flatMap((t) =>
    left.includes(t)
      ? [t]
      : t === 'integer' && left.includes('number')
        ? ['integer']
        : t === 'number' && left.includes('integer')
          ? ['integer']
          : [],
  );
  return both.length === 0 ? NEVER : both.length === 1 ? both[0] : [...new Set(both)];
}

function isRecord(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function generateObject(s: Schema, next: () => number, paths: Paths, root: Schema, depth: number): unknown {
  // Dependencies of the properties that will be present: dependentRequired names and dependentSchemas, until nothing changes.
  let obj = s;
  const applied = new Set<string>();
  for (let round = 0; round < 8; round++) {
    const properties = isRecord(obj.properties) ? obj.properties : {};
    const required = Array.isArray(obj.required) ? (obj.required as string[]) : [];
    const present = new Set([
      ...required,
      ...Object.keys(properties).filter((name) => paths.optional || isSurelyPath(name)),
    ]);
    let changed = false;
    for (const name of present) {
      const names = isRecord(obj.dependentRequired) ? obj.dependentRequired[name] : undefined;
      if (Array.isArray(names) && names.some((n) => !required.includes(n))) {
        obj = merge(obj, { required: names });
        changed = true;
      }
      const dependent = isRecord(obj.dependentSchemas) ? obj.dependentSchemas[name] : undefined;
      if (dependent !== undefined && !applied.has(name)) {
        applied.add(name);
        const folded = normalize(dependent, root, depth + 1);
        if (folded === undefined) return undefined;
        obj = merge(obj, folded);
        changed = true;
      }
    }
    if (!changed) break;
  }
  const out: Record<string, unknown> = {};
  const properties = isRecord(obj.properties) ? obj.properties : {};
  const required = new Set(Array.isArray(obj.required) ? (obj.required as string[]) : []);
  for (const name of new Set([...Object.keys(properties), ...required])) {
    // Required properties always; optional ones when asked, or when they name a path (to keep calls inside the workdir).
    if (!required.has(name) && !paths.optional && !isSurelyPath(name)) continue;
    const value = generate(propertySchema(obj, name), name, next, paths, root, depth + 1);
    if (value === undefined) {
      if (required.has(name)) return undefined;
      continue;
    }
    out[name] = value;
  }
  // minProperties: the optional properties in order, then names the schema allows beyond them.
  const min = typeof obj.minProperties === 'number' ? obj.minProperties : 0;
  const candidates = [...Object.keys(properties), ...extraNames(obj)];
  for (const name of candidates) {
    if (Object.keys(out).length >= min) break;
    if (name in out) continue;
    const sub = propertySchema(obj, name);
    const value = sub === false ? undefined : generate(sub, name, next, paths, root, depth + 1);
    if (value !== undefined) out[name] = value;
  }
  return Object.keys(out).length >= min ? out : undefined;
}

/** The subschema a property's value must satisfy: its own, a matching patternProperties one, or additionalProperties. */
function propertySchema(s: Schema, name: string): unknown {
  const own = isRecord(s.properties) ? s.properties[name] : undefined;
  const patterned = isRecord(s.patternProperties)
    ? Object.entries(s.patternProperties)
        .filter(([pattern]) => patternMatches(pattern, name))
        .map(([, sub]) => sub)
    : [];
  const all = [...(own === undefined ? [] : [own]), ...patterned];
  if (all.length === 0) return s.additionalProperties ?? true;
  return all.length === 1 ? all[0] : { allOf: all };
}

/** Property names beyond the declared ones that patternProperties and propertyNames allow. */
function extraNames(s: Schema): string[] {
  const names = isRecord(s.propertyNames) ? s.propertyNames : {};
  const fromNames = 'const' in names ? [names.const] : Array.isArray(names.enum) ? names.enum : [];
  const fromPatterns = isRecord(s.patternProperties)
    ? Object.keys(s.patternProperties).map((pattern) => `${literalOf(pattern)}observe`)
    : [];
  return [...fromNames, ...fromPatterns, 'observe', 'observex', 'observey']
    .filter((name): name is string => typeof name === 'string')
    .filter(
      (name) =>
        (typeof names.pattern !== 'string' || patternMatches(names.pattern, name)) &&
        name.length >= (typeof names.minLength === 'number' ? names.minLength : 0) &&
        name.length <= (typeof names.maxLength === 'number' ? names.maxLength : Number.POSITIVE_INFINITY) &&
        !(isRecord(s.properties) && name in s.properties),
    );
}

function generateArray(
  s: Schema,
  key: string,
  next: () => number,
  paths: Paths,
  root: Schema,
  depth: number,
): unknown[] | undefined {
  const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
  const items = s.items ?? { type: 'string' };
  const least = typeof s.minItems === 'number' ? s.minItems : 0;
  const most = typeof s.maxItems === 'number' ? s.maxItems : Number.POSITIVE_INFINITY;
  const containing = s.contains === undefined ? 0 : typeof s.minContains === 'number' ? s.minContains : 1;
  // One item at least (so the tool sees a non-empty list), every prefix item, and enough to contain.
  const want = Math.min(most, Math.max(least, 1, prefix.length, prefix.length + containing));
  // Fewer is fine when an item cannot be made, as long as minItems and minContains still hold.
  const needed = Math.max(least, containing > 0 ? prefix.length + containing : 0);
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < want; i++) {
    const sub = i < prefix.length ? prefix[i] : i < prefix.length + containing ? { allOf: [items, s.contains] } : items;
    let value: unknown;
    // uniqueItems: a few more draws for a value not seen yet.
    for (let attempt = 0; attempt < (s.uniqueItems === true ? 8 : 1); attempt++) {
      const drawn = generate(sub, key, next, paths, root, depth + 1);
      if (drawn !== undefined && !(s.uniqueItems === true && seen.has(JSON.stringify(drawn)))) {
        value = drawn;
        break;
      }
    }
    if (value === undefined) return i >= needed ? out : undefined;
    seen.add(JSON.stringify(value));
    out.push(value);
  }
  return out.length >= needed ? out : undefined;
}

function generateNumber(s: Schema, integer: boolean, next: () => number): number | undefined {
  // The tightest bound on each side, and whether it is exclusive.
  const bound = (inclusive: unknown, exclusive: unknown, pick: (a: number, b: number) => number) => {
    const bounds: Array<[number, boolean]> = [];
    if (typeof inclusive === 'number') bounds.push([inclusive, false]);
    if (typeof exclusive === 'number') bounds.push([exclusive, true]);
    if (bounds.length === 0) return undefined;
    return bounds.reduce((a, b) => (a[0] === b[0] ? [a[0], a[1] || b[1]] : pick(a[0], b[0]) === a[0] ? a : b));
  };
  const low = bound(s.minimum, s.exclusiveMinimum, Math.max);
  const high = bound(s.maximum, s.exclusiveMaximum, Math.min);
  let lo = low ? low[0] : high ? Math.min(1, high[0] - 10) : 1;
  let hi = high ? high[0] : lo + 10;
  const ok = (x: number) =>
    Number.isFinite(x) &&
    (low ? (low[1] ? x > low[0] : x >= low[0]) : true) &&
    (high ? (high[1] ? x < high[0] : x <= high[0]) : true) &&
    (!integer || Number.isInteger(x)) &&
    (typeof s.multipleOf !== 'number' || isMultiple(x, s.multipleOf));
  if (integer) {
    lo = low?.[1] ? Math.floor(lo) + 1 : Math.ceil(lo);
    hi = high?.[1] ? Math.ceil(hi) - 1 : Math.floor(hi);
  }
  if (hi < lo) return undefined;
  if (typeof s.multipleOf === 'number' && s.multipleOf > 0) {
    const step = s.multipleOf;
    const first = Math.ceil(lo / step);
    const count = Math.floor(hi / step) - first + 1;
    if (count <= 0) return undefined;
    const start = Math.floor(next() * count);
    for (let i = 0; i < Math.min(count, 16); i++) {
      const k = first + ((start + i) % count);
      const found = [k * step, Number((k * step).toPrecision(15))].find(ok);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (integer) return lo + Math.floor(next() * (hi - lo + 1));
  // A whole number where the bounds allow one: `limit`, `page` or `lines` typed as number are
  // counted in whole units by most servers, and a fraction makes them fail.
  const [first, last] = [low?.[1] ? Math.floor(lo) + 1 : Math.ceil(lo), high?.[1] ? Math.ceil(hi) - 1 : Math.floor(hi)];
  if (first <= last) {
    const whole = first + Math.floor(next() * (last - first + 1));
    if (ok(whole)) return whole;
  }
  const value = lo + next() * (hi - lo);
  return ok(value) ? value : ok((lo + hi) / 2) ? (lo + hi) / 2 : undefined;
}

/**
 * The plain text a pattern requires: its leading literal run (after `^`) for an
 * anchored pattern, the whole pattern for an unanchored one without special
 * characters; '' when there is none.
 */
function literalOf(pattern: string): string {
  const anchored = pattern.startsWith('^');
  const body = anchored ? pattern.slice(1) : pattern;
  const run = /^[^\\^$.|?*+()[\]{}]*/.exec(body)?.[0] ?? '';
  // A quantifier after the run applies to its last character: leave that one out.
  const quantified = /^[?*{]/.test(body.slice(run.length));
  const literal = quantified ? run.slice(0, -1) : run;
  return anchored || literal === body ? literal : '';
}

/** Values for the string formats tools use most. */
const FORMATS: Record<string, string> = {
  uri: 'file:///observe',
  email: 'observe@example.com',
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  uuid: '00000000-0000-4000-8000-000000000000',
  hostname: 'localhost',
  ipv4: '127.0.0.1',
};

interface Paths {
  style: PathStyle;
  workdir: string;
  existing: string | undefined;
  optional: boolean;
}

function pathFor(key: string, paths: Paths, next: () => number): string {
  const fresh = `${paths.workdir}/observe-${Math.floor(next() * 1000)}`;
  if (paths.style === 'folder') return paths.workdir;
  if (paths.style === 'existing') return isFolderish(key) ? paths.workdir : (paths.existing ?? `${fresh}.txt`);
  return isFolderish(key) ? fresh : `${fresh}.txt`;
}

/**
 * Whether `text` matches a schema pattern (ECMA-262, unanchored); a pattern JS
 * cannot compile matches nothing. The pattern comes from the server under
 * observation: one whose quantifiers nest or that refers back (`(a+)+`,
 * `(x|y)*\1`) can backtrack for minutes, so such a pattern is tested under a
 * time budget (node:vm interrupts a running RegExp) and counts as no match
 * when it runs out — the tool is then reported as not exercised, never hung.
 */
export function patternMatches(pattern: string, text: string): boolean {
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'u');
  } catch {
    return false;
  }
  if (!RISKY_PATTERN.test(pattern)) return re.test(text);
  guard ??= { script: new Script('re.test(text)'), context: createContext({}) };
  guard.context.re = re;
  guard.context.text = text;
  try {
    return guard.script.runInContext(guard.context, { timeout: PATTERN_BUDGET_MS }) === true;
  } catch {
    return false;
  }
}

/** A group with a quantifier inside that is itself quantified, or a back-reference. */
const RISKY_PATTERN = /\([^)]*[+*}][^)]*\)[+*{?]|\\[1-9]|\\k</;
const PATTERN_BUDGET_MS = 100;
let guard: { script: Script; context: Context } | undefined;

function resolveRef(root: Schema, ref: string): unknown {
  if (ref === '#') return root;
  if (/^#[A-Za-z_][-A-Za-z0-9._]*$/.test(ref)) return findAnchor(root, ref.slice(1), 0);
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Schema)[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/** The subschema of `node` that declares `$anchor: name` (a plain-name fragment reference). */
function findAnchor(node: unknown, name: string, depth: number): unknown {
  if (depth > 32 || typeof node !== 'object' || node === null) return undefined;
  if ((node as Schema).$anchor === name) return node;
  for (const child of Object.values(node as Schema)) {
    const found = findAnchor(child, name, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
