/**
 * Tool arguments from the command line: one JSON object
 * (`'{"path": "README.md"}'`) and/or `--arg key=value` pairs. A pair's value is
 * read by the type the tool's input schema gives the key (so `--arg path=123`
 * stays a string and `--arg limit=5` becomes a number); `key:=<json>` forces
 * JSON; a key repeated for an array property collects its values.
 */
import type { JsonSchema } from '../tool/types.js';
import { findJsonError, pointAt } from '../util/json-position.js';
import { CliError, EXIT } from './cli-error.js';

export type ToolArguments = { [key: string]: unknown };

/**
 * Parse the JSON-object argument of `candor call`.
 *
 * @example
 * ```ts
 * parseJsonArguments('{"path": "a.txt"}'); // { path: 'a.txt' }
 * parseJsonArguments('{"path": }'); // throws CliError: Invalid JSON arguments at line 1, column 10: …
 * ```
 */
export function parseJsonArguments(text: string): ToolArguments {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const problem = findJsonError(text) ?? { offset: text.length, message: (error as Error).message };
    const { line, column, excerpt } = pointAt(text, problem.offset);
    throw new CliError(
      `Invalid JSON arguments at line ${line}, column ${column} (position ${problem.offset}): ${problem.message}.`,
      {
        exitCode: EXIT.usage,
        details: [
          ...excerpt.map((l) => `  ${l}`),
          'Quote the JSON for your shell, e.g. \'{"path": "README.md"}\', or use --arg key=value.',
        ],
      },
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
    throw new CliError(`Tool arguments must be a JSON object such as {"path": "README.md"}; got ${kind}.`, {
      exitCode: EXIT.usage,
    });
  }
  return value as ToolArguments;
}

/** The JSON Schema types a property allows (from `type`, `anyOf`/`oneOf` branches). */
function typesOf(schema: unknown): Set<string> {
  const out = new Set<string>();
  const visit = (s: unknown) => {
    if (typeof s !== 'object' || s === null) return;
    const node = s as { type?: unknown; anyOf?: unknown[]; oneOf?: unknown[]; enum?: unknown[]; const?: unknown };
    if (typeof node.type === 'string') out.add(node.type);
    if (Array.isArray(node.type)) for (const t of node.type) if (typeof t === 'string') out.add(t);
    for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) visit(branch);
    if (Array.isArray(node.enum)) for (const v of node.enum) out.add(v === null ? 'null' : typeof v);
  };
  visit(schema);
  return out;
}

function coerce(key: string, raw: string, property: unknown): unknown {
  const types = typesOf(property);
  const itemTypes = types.has('array') ? typesOf((property as { items?: unknown } | undefined)?.items) : undefined;
  const effective = itemTypes && itemTypes.size > 0 ? itemTypes : types;
  if (effective.has('string') || effective.size === 0) {
    if (effective.size === 0) {
      // No schema to go by: JSON when it parses as a number/boolean/null/object/array, else the string.
      try {
        return JSON.parse(raw);
      } catch {
        return raw;
      }
    }
    return raw;
  }
  if ((effective.has('number') || effective.has('integer')) && raw.trim() !== '' && Number.isFinite(Number(raw))) {
    return Number(raw);
  }
  if (effective.has('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  if (effective.has('null') && raw === 'null') return null;
  try {
    return JSON.parse(raw);
  } catch {
    throw new CliError(
      `--arg ${key}=${raw}: the tool expects ${[...effective].join(' or ')} for "${key}"; pass ${key}:=<json> for JSON values.`,
      { exitCode: EXIT.usage },
    );
  }
}

/**
 * Turn `--arg` pairs into arguments, using the tool's input schema for types.
 *
 * @example
 * ```ts
 * const schema = { type: 'object', properties: { path: { type: 'string' }, startLine: { type: 'integer' } } };
 * parseArgPairs(['path=README.md', 'startLine=3'], schema); // { path: 'README.md', startLine: 3 }
 * parseArgPairs(['include:=["*.ts"]'], schema); // { include: ['*.ts'] }
 * ```
 */
export function parseArgPairs(pairs: readonly string[], inputSchema?: object): ToolArguments {
  const properties = ((inputSchema as JsonSchema | undefined)?.properties ?? {}) as Record<string, unknown>;
  const out: ToolArguments = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) {
      throw new CliError(`--arg ${pair}: expected key=value (or key:=<json>).`, { exitCode: EXIT.usage });
    }
    const isJson = pair[eq - 1] === ':';
    const key = pair.slice(0, isJson ? eq - 1 : eq);
    const raw = pair.slice(eq + 1);
    if (key === '') throw new CliError(`--arg ${pair}: the key is empty.`, { exitCode: EXIT.usage });
    let value: unknown;
    if (isJson) {
      try {
        value = JSON.parse(raw);
      } catch {
        const problem = findJsonError(raw);
        const where = problem ? ` at position ${problem.offset}: ${problem.message}` : '';
        throw new CliError(`--arg ${key}:=…: invalid JSON${where}.`, {
          exitCode: EXIT.usage,
          details: problem ? pointAt(raw, problem.offset).excerpt.map((l) => `  ${l}`) : [],
        });
      }
    } else {
      value = coerce(key, raw, properties[key]);
    }
    const isArray = typesOf(properties[key]).has('array');
    if (isArray && !isJson) {
      const previous = out[key];
      out[key] = Array.isArray(previous) ? [...previous, value] : [value];
    } else {
      out[key] = value;
    }
  }
  return out;
}
