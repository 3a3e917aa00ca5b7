/**
 * JSON Schema validation without generated code, for runtimes that forbid
 * `eval`/`new Function` (Cloudflare workerd) or have no Node.js `require`
 * to load Ajv with: @cfworker/json-schema interprets the schema (draft
 * 2020-12, MCP's default dialect). Ajv stays the validator on Node.js, where
 * its compiled validators are faster.
 */
import { Validator } from '@cfworker/json-schema';
import type { JsonSchema, ValidationIssue, ValidationResult } from './types.js';

/** Output units that only say a sub-schema failed; the unit beneath says why. */
const WRAPPERS = new Set(['properties', 'items', 'prefixItems', 'allOf', '$ref', 'additionalProperties']);

/**
 * A validator for one JSON Schema, interpreted on each call.
 *
 * @example
 * ```ts
 * const validate = portableValidator<{ text: string }>({ type: 'object', required: ['text'] });
 * validate({}); // { ok: false, issues: [{ path: ['text'], message: 'is required' }] }
 * ```
 */
export function portableValidator<T>(schema: JsonSchema): (value: unknown) => ValidationResult<T> {
  // A copy: the validator annotates the schema it is given, and candor's schemas are frozen and shared.
  const copy = structuredClone(schema) as ConstructorParameters<typeof Validator>[0];
  const validator = new Validator(copy, '2020-12', false);
  return (value) => {
    const result = validator.validate(value);
    if (result.valid) return { ok: true, value: value as T };
    const issues: ValidationIssue[] = [];
    for (const unit of result.errors) {
      if (WRAPPERS.has(unit.keyword)) continue;
      issues.push(issueOf(unit));
    }
    return { ok: false, issues: issues.length > 0 ? issues : result.errors.map(issueOf) };
  };
}

function issueOf(unit: { keyword: string; instanceLocation: string; error: string }): ValidationIssue {
  const path: Array<string | number> = unit.instanceLocation
    .replace(/^#/, '')
    .split('/')
    .slice(1)
    .map((seg) => decodeURIComponent(seg).replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((seg) => (/^\d+$/.test(seg) ? Number(seg) : seg));
  const missing = /required property "([^"]+)"/i.exec(unit.error);
  if (unit.keyword === 'required' && missing) return { path: [...path, missing[1]!], message: 'is required' };
  // `additionalProperties: false` fails as the `false` schema at the unknown property.
  if (unit.keyword === 'false') return { path, message: 'unknown property' };
  return { path, message: unit.error };
}
