/**
 * Matching URIs against RFC 6570 URI templates (the forms MCP resource
 * templates use: `{var}`, `{+var}`, `{#var}`, `{/var}`, `{.var}`, `{?a,b}`,
 * `{&a}`, with `*` explode). Matching only: the server never expands.
 */
import { DefinitionError } from '../errors.js';

/** Variables read from a URI: a string, or a list for an exploded variable. */
export type TemplateVariables = Record<string, string | string[]>;

interface Part {
  operator: string;
  names: Array<{ name: string; explode: boolean }>;
}

/** A compiled URI template. */
export interface UriTemplate {
  readonly template: string;
  /** The variable names, in order. */
  readonly variables: readonly string[];
  /** The variables of a matching URI, or undefined when it does not match. */
  match(uri: string): TemplateVariables | undefined;
}

const EXPRESSION = /\{([+#./;?&]?)([^{}]+)\}/g;

/**
 * Compile a URI template for matching.
 *
 * @example
 * ```ts
 * const t = compileUriTemplate('file:///{+path}');
 * t.match('file:///src/a.ts'); // { path: 'src/a.ts' }
 * compileUriTemplate('users/{id}{?fields}').match('users/7?fields=name'); // { id: '7', fields: 'name' }
 * ```
 */
export function compileUriTemplate(template: string): UriTemplate {
  if (typeof template !== 'string' || template.length === 0 || template.length > 2048) {
    throw new DefinitionError('A URI template must be a non-empty string of at most 2048 characters.', {
      fields: ['uriTemplate'],
    });
  }
  let source = '^';
  let last = 0;
  const groups: Part[] = [];
  for (const m of template.matchAll(EXPRESSION)) {
    source += escapeRegex(template.slice(last, m.index));
    last = m.index + m[0].length;
    const operator = m[1]!;
    const names = m[2]!.split(',').map((raw) => {
      const explode = raw.endsWith('*');
      const name = (explode ? raw.slice(0, -1) : raw).replace(/:\d+$/, '').trim();
      if (!/^[A-Za-z0-9_.%]+$/.test(name)) {
        throw new DefinitionError(`URI template "${template}": "${raw}" is not a valid variable name.`, {
          fields: ['uriTemplate'],
        });
      }
      return { name, explode };
    });
    const part = { operator, names };
    if (operator === '?' || operator === '&') {
      // Query expressions are read from the query string, in any order.
      source += operator === '?' ? '(?:\\?([^#]*))?' : '(?:&([^#]*))?';
      groups.push(part);
      continue;
    }
    groups.push(part);
    source += groupFor(
      operator,
      names.length,
      names.some((n) => n.explode),
    );
  }
  if (template.slice(last).includes('{') || template.slice(last).includes('}')) {
    throw new DefinitionError(`URI template "${template}" has an unbalanced brace.`, { fields: ['uriTemplate'] });
  }
  source += `${escapeRegex(template.slice(last))}$`;
  const regex = new RegExp(source);
  const variables = groups.flatMap((g) => g.names.map((n) => n.name));
  return {
    template,
    variables,
    match(uri: string) {
      if (typeof uri !== 'string') return undefined;
      const found = regex.exec(uri);
      if (found === null) return undefined;
      const out: TemplateVariables = {};
      groups.forEach((part, index) => {
        const raw = found[index + 1];
        if (raw === undefined || raw === '') return;
        if (part.operator === '?' || part.operator === '&') readQuery(raw, part, out);
        else readPart(raw, part, out);
      });
      return out;
    },
  };
}

function groupFor(operator: string, count: number, explode: boolean): string {
  switch (operator) {
    case '+':
      return '(.+?)';
    case '#':
      return '(?:#(.*))?';
    case '/':
      return explode || count > 1 ? '((?:/[^/?#]*)+)' : '/([^/?#]*)';
    case '.':
      return explode || count > 1 ? '((?:\\.[^/?#.]*)+)' : '\\.([^/?#.]*)';
    case ';':
      return '((?:;[^/?#;]*)+)';
    default:
      return explode || count > 1 ? '([^/?#]+)' : '([^/?#,]+)';
  }
}

function readPart(raw: string, part: Part, out: TemplateVariables): void {
  const separator = part.operator === '/' ? '/' : part.operator === '.' ? '.' : part.operator === ';' ? ';' : ',';
  const body = part.operator === '/' || part.operator === '.' || part.operator === ';' ? raw.slice(1) : raw;
  if (part.names.length === 1) {
    const only = part.names[0]!;
    if (only.explode) out[only.name] = body.split(part.operator === '' ? ',' : separator).map(decode);
    else out[only.name] = part.operator === '+' || part.operator === '#' ? decodeReserved(body) : decode(body);
    return;
  }
  const values = body.split(separator);
  part.names.forEach((n, i) => {
    const value = values[i];
    if (value !== undefined) out[n.name] = decode(value);
  });
}

function readQuery(raw: string, part: Part, out: TemplateVariables): void {
  const wanted = new Map(part.names.map((n) => [n.name, n.explode]));
  for (const pair of raw.split('&')) {
    const eq = pair.indexOf('=');
    const key = decode(eq < 0 ? pair : pair.slice(0, eq));
    if (!wanted.has(key)) continue;
    const value = eq < 0 ? '' : pair.slice(eq + 1);
    out[key] = wanted.get(key)
      ? [...((out[key] as string[] | undefined) ?? []), decode(value)]
      : value.split(',').map(decode).join(',');
  }
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function decodeReserved(value: string): string {
  // Reserved expansion keeps reserved characters; only decode percent-escapes of unreserved ones.
  return value.replace(/%[0-9A-Fa-f]{2}/g, (hex) => {
    const char = String.fromCharCode(Number.parseInt(hex.slice(1), 16));
    return /[A-Za-z0-9\-._~ ]/.test(char) ? char : hex;
  });
}

function escapeRegex(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
