/**
 * Canonical JSON: object keys sorted at every depth, no whitespace, `undefined`
 * members dropped. Two tool definitions that say the same thing in a different
 * key order hash the same (pins hash canonical JSON).
 */

/**
 * Serialise a JSON value canonically.
 *
 * @example
 * ```ts
 * canonicalJson({ b: 1, a: [true, { d: null, c: 'x' }] }); // '{"a":[true,{"c":"x","d":null}],"b":1}'
 * ```
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    // Non-finite numbers have no JSON form; JSON.stringify would write null.
    const text = JSON.stringify(value);
    return text === undefined ? 'null' : text;
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
}
