/**
 * JSON Schema from Standard Schemas, made once per schema object and shared
 * (converting zod to JSON Schema was most of the time to define
 * 10,000 tools, and the results most of their memory).
 *
 * - Per schema object: a zod schema used by many tools is converted once (a
 *   WeakMap, so a schema nobody uses any more is forgotten with its result).
 * - Per sub-schema: nodes with the same JSON (`{"type":"string"}`, a shared
 *   `owner`/`repo` object, a whole repeated input schema) become one frozen
 *   object, whichever tool or schema they came from. The table holds them
 *   weakly, so it never keeps a schema alive.
 *
 * Results are deep-frozen: they are shared between definitions, and the wire
 * form of a tool must not change after definition anyway.
 */
import type { JsonSchema } from './types.js';

type Role = 'input' | 'output';

const converted: Record<Role, WeakMap<object, JsonSchema>> = { input: new WeakMap(), output: new WeakMap() };

/** A schema object's JSON Schema for a role, converted by `convert` at most once while the schema lives. */
export function cachedJsonSchema(schema: object, role: Role, convert: () => JsonSchema): JsonSchema {
  const known = converted[role].get(schema);
  if (known !== undefined) return known;
  const json = intern(convert()) as JsonSchema;
  converted[role].set(schema, json);
  return json;
}

const table = new Map<string, WeakRef<object>>();
const forget = new FinalizationRegistry<string>((key) => {
  // Only if the entry still points at a collected object (a new one may have taken the key).
  if (table.get(key)?.deref() === undefined) table.delete(key);
});

/**
 * A deep-frozen copy of a JSON value in which every object or array equal (as
 * JSON) to one interned before is that same object.
 *
 * @example
 * ```ts
 * intern({ a: { type: 'string' } }).a === intern({ b: { type: 'string' } }).b; // true
 * ```
 */
export function intern(value: unknown): unknown {
  return internNode(value).value;
}

function internNode(value: unknown): { value: unknown; json: string } {
  if (typeof value !== 'object' || value === null) return { value, json: JSON.stringify(value) ?? 'null' };
  let json: string;
  let copy: object;
  if (Array.isArray(value)) {
    const items = value.map(internNode);
    copy = items.map((i) => i.value);
    json = `[${items.map((i) => i.json).join(',')}]`;
  } else {
    const entries: Array<[string, unknown]> = [];
    const parts: string[] = [];
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined || typeof item === 'function') continue; // as JSON would drop them
      const node = internNode(item);
      entries.push([key, node.value]);
      parts.push(`${JSON.stringify(key)}:${node.json}`);
    }
    copy = Object.fromEntries(entries);
    json = `{${parts.join(',')}}`;
  }
  const known = table.get(json)?.deref();
  if (known !== undefined) return { value: known, json };
  Object.freeze(copy);
  table.set(json, new WeakRef(copy));
  forget.register(copy, json);
  return { value: copy, json };
}
