/**
 * Input/output schemas: a Standard Schema with JSON Schema support (zod 4 first)
 * or a raw JSON Schema object validated by a compiled Ajv validator on Node.js
 * (portable-validator.ts elsewhere). JSON Schema is produced once, here, at
 * definition time.
 */

import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { Ajv2020, ErrorObject } from 'ajv/dist/2020.js';
import { CandorError, DefinitionError } from '../errors.js';
import { onNode, requireOnNode } from '../util/node-require.js';
import { portableValidator } from './portable-validator.js';
import { cachedJsonSchema, intern } from './schema-cache.js';
import type { CompiledSchema, JsonSchema, ValidationIssue, ValidationResult } from './types.js';

/** A schema candor accepts: Standard Schema + Standard JSON Schema (zod 4, …) or raw JSON Schema. */
export type SchemaInput<T = unknown> = (StandardSchemaV1<unknown, T> & StandardJSONSchemaV1<unknown, T>) | JsonSchema;

/** The schema of a tool that takes no arguments (spec: no-arg tools). */
export const EMPTY_INPUT_SCHEMA: JsonSchema = Object.freeze({ type: 'object', additionalProperties: false });

let ajv: Ajv2020 | undefined;
/**
 * Ajv, loaded for the first raw JSON Schema: importing it costs a process about 10 MiB
 * of RSS, and servers whose tools all use zod never need it. CommonJS, so
 * a plain require is synchronous.
 */
function sharedAjv(): Ajv2020 {
  if (ajv === undefined) {
    const { Ajv2020: AjvClass } = requireOnNode<typeof import('ajv/dist/2020.js')>(
      'ajv/dist/2020.js',
      'A tool with a raw JSON Schema input or output (validated by Ajv)',
    );
    ajv = new AjvClass({ allErrors: true, strict: false, validateFormats: false });
  }
  return ajv;
}

function isStandard(schema: unknown): schema is StandardSchemaV1 & Partial<StandardJSONSchemaV1> {
  return typeof schema === 'object' && schema !== null && '~standard' in schema;
}

/**
 * Compile a schema for tool `input` or `output`. The input root must be
 * `type: "object"` (spec: inputSchema is an object schema).
 */
export function compileSchema<T>(
  toolName: string,
  role: 'input' | 'output',
  schema: SchemaInput<T> | undefined,
): CompiledSchema<T> {
  const field = role;
  if (schema === undefined) {
    if (role === 'output')
      throw new CandorError('compileSchema: output schema is required here', { code: 'invalid_definition' });
    return compileJsonSchema<T>(toolName, field, EMPTY_INPUT_SCHEMA);
  }
  if (isStandard(schema)) {
    const cached = Object.hasOwn(schema, '~standard');
    const converter = schema['~standard'].jsonSchema;
    if (!converter) {
      throw new DefinitionError(
        `tool "${toolName}": the ${field} schema (${schema['~standard'].vendor}) does not support Standard JSON Schema, so candor cannot put it on the wire. Use zod 4 (or another library that implements ~standard.jsonSchema), or pass a JSON Schema object.`,
        { fields: [field] },
      );
    }
    let jsonSchema: JsonSchema;
    try {
      // Once per schema object, shared and interned (schema-cache.ts;).
      jsonSchema = cachedJsonSchema(schema, role, () =>
        stripDialect(converter[role]({ target: 'draft-2020-12' }) as JsonSchema),
      );
    } catch (error) {
      throw new DefinitionError(
        `tool "${toolName}": the ${field} schema cannot be represented as JSON Schema (${(error as Error).message}). Replace transforms, custom refinements, dates, bigints or functions with JSON-representable types (strings with a format, numbers), or describe the wire shape with z.pipe/z.codec.`,
        { fields: [field], cause: error },
      );
    }
    checkRoot(toolName, role, jsonSchema);
    forgetLazyStandard(schema, cached);
    return {
      jsonSchema,
      validate(value) {
        // Read per call: see forgetLazyStandard.
        const out = schema['~standard'].validate(value);
        return out instanceof Promise ? out.then(fromStandard<T>) : fromStandard<T>(out);
      },
    };
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new DefinitionError(
      `tool "${toolName}": ${field} must be a zod schema (or another Standard Schema) or a JSON Schema object.`,
      { fields: [field] },
    );
  }
  return compileJsonSchema<T>(toolName, field, schema as JsonSchema);
}

/**
 * zod builds `~standard` on first read (an object, its validator and two JSON Schema
 * converters, about 370 bytes with their closures) and keeps it on the schema. Reading
 * it only to convert to JSON Schema would keep one for every tool, called or not
 * (10,000 tools); when it was built just now by a getter further up the
 * prototype chain, drop it again, so it is built back only for tools that get called.
 */
function forgetLazyStandard(schema: object, wasOwn: boolean): void {
  if (wasOwn) return;
  const own = Object.getOwnPropertyDescriptor(schema, '~standard');
  if (own === undefined || !('value' in own) || !own.configurable) return;
  for (let proto = Object.getPrototypeOf(schema); proto !== null; proto = Object.getPrototypeOf(proto)) {
    const inherited = Object.getOwnPropertyDescriptor(proto, '~standard');
    if (inherited === undefined) continue;
    if (typeof inherited.get === 'function') delete (schema as Record<string, unknown>)['~standard'];
    return;
  }
}

function compileJsonSchema<T>(toolName: string, role: 'input' | 'output', schema: JsonSchema): CompiledSchema<T> {
  checkRoot(toolName, role, schema);
  // A frozen copy, its sub-schemas shared with equal ones of other tools (schema-cache.ts): equal
  // schemas are one object, so Ajv compiles each distinct schema once (180 µs per tool).
  const jsonSchema = intern(schema) as JsonSchema;
  // Off Node.js (workerd forbids the code Ajv generates): an interpreting validator.
  if (!onNode()) return { jsonSchema, validate: portableValidator<T>(jsonSchema) };
  let validateFn = compiled.get(jsonSchema);
  if (validateFn === undefined) {
    try {
      validateFn = sharedAjv().compile(jsonSchema);
    } catch (error) {
      throw new DefinitionError(
        `tool "${toolName}": the ${role} JSON Schema does not compile: ${(error as Error).message}. Check $ref targets and keyword spelling.`,
        { fields: [role], cause: error },
      );
    }
    compiled.set(jsonSchema, validateFn);
  }
  const validate = validateFn;
  return {
    jsonSchema,
    validate(value) {
      if (validate(value)) return { ok: true, value: value as T };
      return { ok: false, issues: (validate.errors ?? []).map(fromAjv) };
    },
  };
}

/** Compiled validators by (interned) schema object. */
const compiled = new WeakMap<object, ReturnType<Ajv2020['compile']>>();

function checkRoot(toolName: string, role: 'input' | 'output', schema: JsonSchema): void {
  // 2025-era outputSchema is an object schema too; 2026-07-28 allows any root, but a
  // 2025 client must still accept the tool, so candor keeps object roots for both.
  if (schema.type !== 'object') {
    throw new DefinitionError(
      `tool "${toolName}": the ${role} schema's root must be type "object" (got ${JSON.stringify(schema.type ?? null)}). Wrap the value in an object, e.g. z.object({ value: … }).`,
      { fields: [role] },
    );
  }
}

function stripDialect(schema: JsonSchema): JsonSchema {
  // 2020-12 is MCP's default dialect; the explicit $schema only adds bytes to every list.
  if (schema.$schema === 'https://json-schema.org/draft/2020-12/schema') {
    const { $schema: _dialect, ...rest } = schema;
    return rest;
  }
  return schema;
}

function fromStandard<T>(result: StandardSchemaV1.Result<unknown>): ValidationResult<T> {
  if (result.issues === undefined) return { ok: true, value: result.value as T };
  return {
    ok: false,
    issues: result.issues.map((issue) => ({
      path: (issue.path ?? []).map((p) =>
        typeof p === 'object' ? (p.key as string | number) : (p as string | number),
      ),
      message: issue.message,
    })),
  };
}

function fromAjv(error: ErrorObject): ValidationIssue {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((seg) => seg.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((seg) => (/^\d+$/.test(seg) ? Number(seg) : seg));
  if (error.keyword === 'required') path.push((error.params as { missingProperty: string }).missingProperty);
  if (error.keyword === 'additionalProperties') {
    path.push((error.params as { additionalProperty: string }).additionalProperty);
    return { path, message: 'unknown property' };
  }
  return { path, message: error.keyword === 'required' ? 'is required' : (error.message ?? 'is invalid') };
}

/** Format validation issues for a model: one line per problem, with its path. */
export function formatIssues(issues: ReadonlyArray<ValidationIssue>): string {
  return issues.map((i) => `- ${i.path.length > 0 ? i.path.join('.') : '(root)'}: ${i.message}`).join('\n');
}
