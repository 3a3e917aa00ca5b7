/**
 * `x-mcp-header` (Streamable HTTP 2026-07-28, "Custom Headers from Tool
 * Parameters"): a tool's input schema may mark primitive properties, reachable
 * through `properties` alone, to be mirrored by the client into
 * `Mcp-Param-{Name}` headers so gateways can route on them. A server that reads
 * the body MUST check every mirrored header against the argument and refuse a
 * missing, malformed or different one with 400 and -32020.
 *
 * The declarations of a tool are found once per tool definition (a WeakMap
 * keyed by the frozen definition) and never re-scanned per call.
 */
import type { ToolDefinition } from '../../tool/types.js';
import { decodeHeaderValue, type HeaderMap, headerValue } from './header-value.js';

/** One mirrored argument. */
export interface ParamHeader {
  /** The property path from the arguments' root, e.g. `['target', 'region']`. */
  readonly path: readonly string[];
  /** The name after `Mcp-Param-`, as declared. */
  readonly name: string;
  readonly type: 'string' | 'integer' | 'boolean' | 'number';
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const cache = new WeakMap<ToolDefinition, readonly ParamHeader[]>();

/**
 * The `x-mcp-header` declarations of a tool's input schema (empty for most
 * tools). Declarations the spec calls invalid (not a token, not reachable
 * through `properties`, on a non-primitive) are skipped here: clients exclude
 * such tools, and the server checks what a client could have sent.
 *
 * @example
 * ```ts
 * paramHeadersOf(tool); // [{ path: ['region'], name: 'Region', type: 'string' }]
 * ```
 */
export function paramHeadersOf(tool: ToolDefinition): readonly ParamHeader[] {
  let found = cache.get(tool);
  if (found === undefined) {
    found = Object.freeze(scan(tool.input.jsonSchema));
    cache.set(tool, found);
  }
  return found;
}

function scan(schema: unknown): ParamHeader[] {
  const out: ParamHeader[] = [];
  const visit = (node: unknown, path: string[]) => {
    if (typeof node !== 'object' || node === null) return;
    const record = node as Record<string, unknown>;
    const name = record['x-mcp-header'];
    const type = record.type;
    if (
      path.length > 0 &&
      typeof name === 'string' &&
      TOKEN.test(name) &&
      (type === 'string' || type === 'integer' || type === 'boolean' || type === 'number')
    ) {
      out.push({ path, name, type });
    }
    const properties = record.properties;
    if (typeof properties === 'object' && properties !== null && !Array.isArray(properties)) {
      for (const [key, child] of Object.entries(properties)) visit(child, [...path, key]);
    }
  };
  visit(schema, []);
  return out;
}

/**
 * Check the `Mcp-Param-*` headers of one `tools/call` against its arguments.
 * Returns the problem (for a -32020 message), or undefined when they agree.
 * Absent or `null` argument: no header expected (a present one is ignored).
 * Integers are compared as numbers (`42.0` equals `42`).
 *
 * @example
 * ```ts
 * const problem = checkParamHeaders(paramHeadersOf(tool), args, req.headers);
 * if (problem) return refusal(id, 400, HEADER_MISMATCH, `Header mismatch: ${problem}.`);
 * ```
 */
export function checkParamHeaders(
  declared: readonly ParamHeader[],
  args: unknown,
  headers: HeaderMap,
): string | undefined {
  for (const decl of declared) {
    const value = valueAt(args, decl.path);
    if (value === undefined || value === null) continue;
    const header = `Mcp-Param-${decl.name}`;
    const raw = headerValue(headers, header);
    const where = decl.path.join('.');
    if (raw === undefined)
      return `the ${header} header is missing (the arguments carry ${where}=${JSON.stringify(value)})`;
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined)
      return `the ${header} header has an invalid value (bad characters or a malformed =?base64?…?= sentinel)`;
    if (!sameValue(decoded, value)) {
      return `${header} header value '${decoded}' does not match the argument ${where}=${JSON.stringify(value)}`;
    }
  }
  return undefined;
}

function sameValue(header: string, value: unknown): boolean {
  if (typeof value === 'number') return /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(header) && Number(header) === value;
  if (typeof value === 'boolean') return header === (value ? 'true' : 'false');
  if (typeof value === 'string') return header === value;
  return false; // an object or array where a primitive was declared: the header cannot match it
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
