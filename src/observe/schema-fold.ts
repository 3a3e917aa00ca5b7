/**
 * JSON Schema folded for generation: `$ref` (with its sibling keywords), `allOf`,
 * `if`/`then` and dependent schemas merged into one schema a value must meet,
 * bounds tightened, types intersected, and a schema that asks for the impossible
 * recognised (so the generator says so instead of guessing).
 */
import { isRecord } from '../util/is-record.js';
import { patternMatches } from './pattern-match.js';

export type Schema = Record<string, unknown>;

/**
 * The schema with its references and conjunctions folded in: `$ref` (and the
 * keywords beside it), `allOf`, and `if`/`then` (the value is made to satisfy
 * `if` and `then` together, which satisfies the conditional). `true` is `{}`;
 * `false`, a missing reference or too deep a nesting is `undefined`.
 */
export function normalize(schema: unknown, root: Schema, depth: number): Schema | undefined {
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
export function merge(a: Schema, b: Schema): Schema {
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
export function isMultiple(value: number, step: number): boolean {
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
export const NEVER = 'never';

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
