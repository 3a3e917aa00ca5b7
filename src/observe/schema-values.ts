/**
 * What a schema says a value is: one for each common string `format`, and whether
 * a given value (an example, a value an earlier answer offered) fits a folded
 * schema's type, bounds, pattern and enum.
 */
import { patternMatches } from './pattern-match.js';
import type { Schema } from './schema-fold.js';

/** Whether a string or number meets a (folded) schema's type, bounds, pattern and enum. */
export function accepts(s: Schema, value: unknown): boolean {
  const types = Array.isArray(s.type) ? s.type : s.type === undefined ? undefined : [s.type];
  if (typeof value === 'string') {
    return (
      (types === undefined || types.includes('string')) &&
      value.length >= (typeof s.minLength === 'number' ? s.minLength : 0) &&
      value.length <= (typeof s.maxLength === 'number' ? s.maxLength : Number.POSITIVE_INFINITY) &&
      (typeof s.pattern !== 'string' || patternMatches(s.pattern, value)) &&
      (!Array.isArray(s.enum) || s.enum.includes(value))
    );
  }
  if (typeof value === 'number') {
    return (
      (types === undefined || types.includes('number') || (types.includes('integer') && Number.isInteger(value))) &&
      (typeof s.minimum !== 'number' || value >= s.minimum) &&
      (typeof s.maximum !== 'number' || value <= s.maximum) &&
      (!Array.isArray(s.enum) || s.enum.includes(value))
    );
  }
  return (
    types === undefined ||
    types.includes(
      typeof value === 'boolean' ? 'boolean' : Array.isArray(value) ? 'array' : value === null ? 'null' : 'object',
    )
  );
}

/** Values for the string formats tools use. */
export const FORMATS: Record<string, string> = {
  uri: 'file:///observe',
  iri: 'file:///observe',
  'uri-template': 'file:///observe/{id}',
  email: 'observe@example.com',
  'idn-email': 'observe@example.com',
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  duration: 'PT1M',
  uuid: '00000000-0000-4000-8000-000000000000',
  hostname: 'localhost',
  'idn-hostname': 'localhost',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  'json-pointer': '/observe',
  'relative-json-pointer': '0',
  regex: '^observe$',
};
