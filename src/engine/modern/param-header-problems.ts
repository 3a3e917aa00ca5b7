/**
 * Whether a tool's `x-mcp-header` declarations are valid, as a client must check
 * before calling it (Streamable HTTP 2026-07-28, "Custom Headers from Tool
 * Parameters": a client MUST exclude a tool whose declarations violate the
 * constraints). A declaration must sit on a property reached from the root
 * through `properties` alone (not under `items`, `$defs`, composition or
 * conditional keywords), name an HTTP token (RFC 9110 §5.6.2), be on a
 * string, integer or boolean property, and be unique ignoring case.
 * The server side (param-headers.ts) skips invalid declarations instead.
 */

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVES = new Set(['string', 'integer', 'boolean']);

/**
 * The first problem with a schema's `x-mcp-header` declarations, or undefined
 * when they are valid (or there are none).
 *
 * @example
 * ```ts
 * paramHeaderProblem({ type: 'object', properties: { n: { type: 'number', 'x-mcp-header': 'N' } } });
 * // 'n: x-mcp-header "N" is on a "number" property; only string, integer and boolean properties may carry one'
 * ```
 */
export function paramHeaderProblem(schema: unknown): string | undefined {
  const names = new Map<string, string>();
  const visit = (node: unknown, path: readonly string[], reachable: boolean): string | undefined => {
    if (typeof node !== 'object' || node === null) return undefined;
    if (Array.isArray(node)) {
      for (const item of node) {
        const problem = visit(item, path, false);
        if (problem) return problem;
      }
      return undefined;
    }
    const record = node as Record<string, unknown>;
    if ('x-mcp-header' in record) {
      const problem = declarationProblem(record, path, reachable, names);
      if (problem) return problem;
    }
    for (const [key, child] of Object.entries(record)) {
      const viaProperties =
        key === 'properties' && typeof child === 'object' && child !== null && !Array.isArray(child);
      if (viaProperties) {
        for (const [name, property] of Object.entries(child as Record<string, unknown>)) {
          const problem = visit(property, [...path, name], reachable);
          if (problem) return problem;
        }
      } else if (key !== 'x-mcp-header') {
        const problem = visit(child, [...path, key], false);
        if (problem) return problem;
      }
    }
    return undefined;
  };
  return visit(schema, [], true);
}

function declarationProblem(
  record: Record<string, unknown>,
  path: readonly string[],
  reachable: boolean,
  names: Map<string, string>,
): string | undefined {
  const where = path.length > 0 ? path.join('.') : '(the root)';
  const name = record['x-mcp-header'];
  if (!reachable || path.length === 0) {
    return `${where}: x-mcp-header is allowed only on a property reached through "properties" alone`;
  }
  if (typeof name !== 'string' || name === '') return `${where}: x-mcp-header must be a non-empty string`;
  if (!TOKEN.test(name)) return `${where}: x-mcp-header ${JSON.stringify(name)} is not an HTTP token`;
  if (typeof record.type !== 'string' || !PRIMITIVES.has(record.type)) {
    return `${where}: x-mcp-header "${name}" is on a ${JSON.stringify(record.type ?? 'untyped')} property; only string, integer and boolean properties may carry one`;
  }
  const prior = names.get(name.toLowerCase());
  if (prior !== undefined) return `x-mcp-header "${name}" is declared twice (also as "${prior}"; names ignore case)`;
  names.set(name.toLowerCase(), name);
  return undefined;
}
