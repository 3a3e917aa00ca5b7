/**
 * The typed API a model reads before it writes a script: TypeScript
 * declarations of the `tools` object, one method per tool, its parameter type
 * from the input schema and its result type from the output schema, with the
 * tool's honest hints in the doc comment. Schemas come from servers: the
 * conversion is bounded (depth, members, text) and never evaluates anything.
 */
import type { JsonSchema } from '../../tool/types.js';

/** What a declaration needs of a tool. */
export interface ApiTool {
  name: string;
  title?: string | undefined;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema | undefined;
  hints: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

const MAX_DEPTH = 6;
const MAX_MEMBERS = 60;
const MAX_DOC = 600;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * The declarations of `tools` for the given tools.
 *
 * @example
 * ```ts
 * apiDeclarations([{ name: 'notes__search', description: 'Search notes.', inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }, hints }]);
 * // declare const tools: {
 * //   /** Search notes. … *\/
 * //   notes__search(args: { q: string }): Promise<string>;
 * // };
 * ```
 */
export function apiDeclarations(tools: readonly ApiTool[]): string {
  const members = tools.map((tool) => {
    const doc = docComment([
      ...(tool.title && tool.title !== tool.name ? [tool.title] : []),
      clip(tool.description, MAX_DOC),
      `Effects: ${effectText(tool.hints)}.`,
      tool.outputSchema
        ? 'Resolves to the structured result; rejects with the tool error.'
        : 'Resolves to the text result; rejects with the tool error.',
    ]);
    const args = typeOf(tool.inputSchema, 1, tool.inputSchema);
    const result = tool.outputSchema ? typeOf(tool.outputSchema, 1, tool.outputSchema) : 'string';
    return `${indent(doc, '  ')}\n  ${key(tool.name)}(args: ${args}): Promise<${result}>;`;
  });
  return `declare const tools: {\n${members.join('\n')}\n};\n`;
}

/** The hints in words: `read-only, closed world`, `writes (destructive), open world`. */
export function effectText(hints: ApiTool['hints']): string {
  const what = hints.readOnlyHint
    ? 'read-only'
    : `writes (${hints.destructiveHint ? 'destructive' : 'additive'}${hints.idempotentHint ? ', idempotent' : ''})`;
  return `${what}, ${hints.openWorldHint ? 'open world' : 'closed world'}`;
}

function typeOf(schema: unknown, depth: number, root: JsonSchema, level = depth): string {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return schema === false ? 'never' : 'unknown';
  if (depth > MAX_DEPTH) return 'unknown';
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string') return typeOf(localRef(root, s.$ref), depth + 1, root, level);
  if (Array.isArray(s.enum)) return union(s.enum.slice(0, MAX_MEMBERS).map(literal));
  if ('const' in s) return literal(s.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = s[key];
    if (Array.isArray(options))
      return union(options.slice(0, MAX_MEMBERS).map((o) => typeOf(o, depth + 1, root, level)));
  }
  if (Array.isArray(s.allOf)) {
    const parts = s.allOf.slice(0, MAX_MEMBERS).map((o) => typeOf(o, depth + 1, root, level));
    return parts.length === 0 ? 'unknown' : parts.map((p) => (p.includes('|') ? `(${p})` : p)).join(' & ');
  }
  const type = s.type;
  if (Array.isArray(type)) return union(type.map((t) => typeOf({ ...s, type: t }, depth, root, level)));
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const items = typeOf(s.items, depth + 1, root, level);
      return /^[\w$.]+$/.test(items) ? `${items}[]` : `Array<${items}>`;
    }
    case 'object':
      return objectType(s, depth, root, level);
    default:
      return s.properties !== undefined ? objectType(s, depth, root, level) : 'unknown';
  }
}

function objectType(s: Record<string, unknown>, depth: number, root: JsonSchema, level: number): string {
  const properties = (typeof s.properties === 'object' && s.properties !== null ? s.properties : {}) as Record<
    string,
    unknown
  >;
  const required = new Set(Array.isArray(s.required) ? s.required.filter((r) => typeof r === 'string') : []);
  const pad = '  '.repeat(level + 1);
  const lines: string[] = [];
  for (const [name, sub] of Object.entries(properties).slice(0, MAX_MEMBERS)) {
    const description = (sub as { description?: unknown } | null)?.description;
    if (typeof description === 'string' && description.length > 0)
      lines.push(indent(docComment([clip(description, 200)]), pad));
    lines.push(`${pad}${key(name)}${required.has(name) ? '' : '?'}: ${typeOf(sub, depth + 1, root, level + 1)};`);
  }
  const extra = s.additionalProperties;
  if (typeof extra === 'object' && extra !== null)
    lines.push(`${pad}[key: string]: ${typeOf(extra, depth + 1, root, level + 1)};`);
  else if (lines.length === 0 && extra !== false) return 'Record<string, unknown>';
  if (lines.length === 0) return '{}';
  return `{\n${lines.join('\n')}\n${'  '.repeat(level)}}`;
}

/** `#/$defs/x` and `#/definitions/x` inside the same schema; anything else is unknown. */
function localRef(root: JsonSchema, ref: string): unknown {
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (!match) return undefined;
  const defs = (root as Record<string, unknown>)[match[1]!];
  return typeof defs === 'object' && defs !== null ? (defs as Record<string, unknown>)[match[2]!] : undefined;
}

function union(parts: string[]): string {
  const unique = [...new Set(parts)];
  if (unique.length === 0) return 'never';
  if (unique.includes('unknown')) return 'unknown';
  return unique.join(' | ');
}

function literal(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null)
    return JSON.stringify(value);
  return 'unknown';
}

function key(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

function docComment(lines: string[]): string {
  // A server's text cannot end the comment early.
  const body = lines
    .join('\n')
    .replaceAll('*/', '*\\/')
    .split('\n')
    .map((line) => ` * ${line}`.trimEnd());
  return `/**\n${body.join('\n')}\n */`;
}

function indent(text: string, pad: string): string {
  return text
    .split('\n')
    .map((line) => pad + line)
    .join('\n');
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
