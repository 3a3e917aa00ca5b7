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

import { isRecord } from '../util/is-record.js';
import { isPathish, isSurelyPath, isUrlish, type PathStyle, type Paths, pathFor } from './path-names.js';
import { samplePattern } from './pattern.js';
import { patternMatches } from './pattern-match.js';
import { isMultiple, merge, NEVER, normalize, type Schema } from './schema-fold.js';
import { accepts, FORMATS } from './schema-values.js';

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
  /**
   * Values earlier answers or seeded data offer a property, by its name, best first
   * (see value-pool.ts). A property gets the first offered value its schema accepts
   * (the `pick`-th, counting round, when several fit); the rest are generated.
   */
  offers?: (name: string) => ReadonlyArray<string | number>;
  /** Which of the fitting offers to take (default 0): later pairs of calls take later values. */
  pick?: number;
}

/** What generation carries besides the schema: where paths point, and what earlier answers offer. */
interface Context extends Paths {
  offers?: ((name: string) => ReadonlyArray<string | number>) | undefined;
  pick: number;
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
  const paths: Context = {
    style: options.pathStyle ?? 'new',
    workdir: options.workdir,
    existing: options.existingFile,
    optional: options.optional === true,
    offers: options.offers,
    pick: options.pick ?? 0,
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
  paths: Context,
  root: Schema,
  depth: number,
): unknown {
  const s = normalize(schema, root, depth);
  if (s === undefined || s.type === NEVER) return undefined;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[Math.floor(next() * s.enum.length)];
  const offered = offeredValue(s, key, paths);
  if (offered !== undefined) return offered;
  // The server's own example of a value, where it gives one (paths and URLs are pointed into the workdir instead).
  const examples = Array.isArray(s.examples) ? s.examples : 'example' in s ? [s.example] : [];
  if (examples.length > 0 && examples[0] !== undefined && !isPathish(key) && !isUrlish(key) && accepts(s, examples[0]))
    return examples[0];
  if ('default' in s && !(s.type !== undefined && overridesDefault(key, s.default, paths))) return s.default;
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
        const file = pathFor(key, paths, next, isFolderDefault(s.default));
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
 * Whether a path-like property gets a generated path rather than its default. The folder
 * style names the workdir for every path default (a string, or a list of strings); the
 * existing style does for a default that names a folder (".", "..", "dir/"), which says
 * the property is a folder, like a `dir` name does. A default such as "." may stand for
 * the server's own state (a session folder another tool sets) rather than where it runs.
 */
function overridesDefault(key: string, value: unknown, paths: Context): boolean {
  if (!isPathish(key)) return false;
  if (paths.style === 'folder')
    return typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string'));
  return paths.style === 'existing' && isFolderDefault(value);
}

/** A default that names a folder: ".", "..", or a path ending in "/". */
function isFolderDefault(value: unknown): boolean {
  return typeof value === 'string' && /^\.{1,2}$|\/$/.test(value);
}

function generateObject(s: Schema, next: () => number, paths: Context, root: Schema, depth: number): unknown {
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
  paths: Context,
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

/**
 * The value an earlier answer or a seed offers a named property, when its schema accepts
 * one (a number-typed property takes a numeric string as its number). Paths keep the
 * workdir's own.
 */
function offeredValue(s: Schema, key: string, paths: Context): unknown {
  if (paths.offers === undefined || key === '' || isPathish(key)) return undefined;
  const fitting: unknown[] = [];
  for (const offer of paths.offers(key)) {
    const value =
      (s.type === 'integer' || s.type === 'number') && typeof offer === 'string' && /^-?\d+(\.\d+)?$/.test(offer)
        ? Number(offer)
        : s.type === 'string' && typeof offer === 'number'
          ? String(offer)
          : offer;
    if (accepts(s, value)) fitting.push(value);
  }
  return fitting.length === 0 ? undefined : fitting[paths.pick % fitting.length];
}
