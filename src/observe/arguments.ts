/**
 * Arguments for observed calls (issue 12), generated from a tool's input
 * schema: seeded and reproducible, smallest valid values first, and strings
 * that name files or folders pointed inside the throwaway workdir. A schema the
 * generator cannot satisfy gives `undefined` (reported, never a crash).
 * Measured choice: a small generator of our own over the common keywords
 * rather than json-schema-faker, whose random strings (lorem, any format) make
 * poor paths and whose 0.6 line has no 2020-12 `prefixItems`/`$defs` support.
 */

type Schema = Record<string, unknown>;

/** A seeded PRNG (mulberry32): the same seed gives the same arguments. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PATHISH = /(^|_)(path|file|filename|dir|directory|folder|source|destination|dest|target)s?$/i;
const FOLDERISH = /(^|_)(dir|directory|folder)s?$/i;

/**
 * How path-like strings point into the workdir: at a file that exists (so
 * readers have something to read), at a new file (so writers create), or at the
 * workdir itself (so listers list). observe() tries them in that order until a
 * call succeeds.
 */
export type PathStyle = 'existing' | 'new' | 'folder';

/** Options of {@link generateArguments}. */
export interface GenerateOptions {
  seed: number;
  /** The sandbox's copy of the workdir: every generated path lies inside it. */
  workdir: string;
  /** Default `new`. */
  pathStyle?: PathStyle;
  /** A file inside `workdir` that exists, for the `existing` style. */
  existingFile?: string;
}

/**
 * Generate one argument object for a tool's input schema.
 *
 * @example
 * ```ts
 * generateArguments({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }, { seed: 1, workdir: '/tmp/w' });
 * // { path: '/tmp/w/observe-1.txt' }
 * ```
 */
export function generateArguments(schema: Schema, options: GenerateOptions): Record<string, unknown> | undefined {
  const next = random(options.seed);
  const paths = { style: options.pathStyle ?? 'new', workdir: options.workdir, existing: options.existingFile };
  const value = generate(schema, '', next, paths, schema, 0);
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function generate(
  schema: unknown,
  key: string,
  next: () => number,
  paths: Paths,
  root: Schema,
  depth: number,
): unknown {
  if (depth > 8 || typeof schema !== 'object' || schema === null) return undefined;
  const s = schema as Schema;
  if (typeof s.$ref === 'string') {
    const target = resolveRef(root, s.$ref);
    return target ? generate(target, key, next, paths, root, depth + 1) : undefined;
  }
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[Math.floor(next() * s.enum.length)];
  if ('default' in s) return s.default;
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const options = s[keyword];
    if (Array.isArray(options) && options.length > 0) return generate(options[0], key, next, paths, root, depth + 1);
  }
  if (Array.isArray(s.allOf) && s.allOf.length > 0) {
    return generate(Object.assign({}, ...(s.allOf as Schema[])), key, next, paths, root, depth + 1);
  }
  const type = Array.isArray(s.type)
    ? s.type.find((t) => t !== 'null')
    : (s.type ?? (s.properties ? 'object' : undefined));
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      for (const [name, sub] of Object.entries(properties)) {
        // Required properties always; optional ones only when they name a path (to keep calls inside the workdir).
        if (!required.has(name) && !PATHISH.test(name)) continue;
        const value = generate(sub, name, next, paths, root, depth + 1);
        if (value === undefined) {
          if (required.has(name)) return undefined;
          continue;
        }
        out[name] = value;
      }
      return out;
    }
    case 'array': {
      const min = typeof s.minItems === 'number' ? s.minItems : 1;
      const items: unknown[] = [];
      for (let i = 0; i < Math.max(1, min); i++) {
        const value = generate(s.items ?? { type: 'string' }, key, next, paths, root, depth + 1);
        if (value === undefined) return min === 0 ? [] : undefined;
        items.push(value);
      }
      return items;
    }
    case 'string': {
      const fits = (text: string) =>
        text.length >= (typeof s.minLength === 'number' ? s.minLength : 0) &&
        text.length <= (typeof s.maxLength === 'number' ? s.maxLength : Number.POSITIVE_INFINITY) &&
        (typeof s.pattern !== 'string' || matches(s.pattern, text));
      if (PATHISH.test(key) || s.format === 'uri-reference') {
        const file = pathFor(key, paths, next);
        if (fits(file)) return file;
      }
      const formatted = typeof s.format === 'string' ? FORMATS[s.format] : undefined;
      if (formatted !== undefined) return fits(formatted) ? formatted : undefined;
      const min = typeof s.minLength === 'number' ? s.minLength : 1;
      const max = typeof s.maxLength === 'number' ? s.maxLength : Math.max(min, 12);
      const base = `observe-${Math.floor(next() * 1e6)}`;
      const text = base.length < min ? base.padEnd(min, 'x') : base.slice(0, Math.max(min, Math.min(max, base.length)));
      // Patterns: only a plain word that happens to match; anything else is reported, not guessed.
      return fits(text) ? text : undefined;
    }
    case 'integer':
    case 'number': {
      const min =
        typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 1;
      const max = typeof s.maximum === 'number' ? s.maximum : min + 10;
      if (max < min) return undefined;
      const value = min + next() * (max - min);
      return type === 'integer' ? (Math.ceil(value) <= max ? Math.ceil(value) : Math.floor(value)) : value;
    }
    case 'boolean':
      return next() < 0.5;
    case 'null':
      return null;
    default:
      return type === undefined ? 'observe' : undefined;
  }
}

/** Values for the string formats tools use most. */
const FORMATS: Record<string, string> = {
  uri: 'file:///observe',
  email: 'observe@example.com',
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  time: '00:00:00Z',
  uuid: '00000000-0000-4000-8000-000000000000',
  hostname: 'localhost',
  ipv4: '127.0.0.1',
};

interface Paths {
  style: PathStyle;
  workdir: string;
  existing: string | undefined;
}

function pathFor(key: string, paths: Paths, next: () => number): string {
  const fresh = `${paths.workdir}/observe-${Math.floor(next() * 1000)}`;
  if (paths.style === 'folder') return paths.workdir;
  if (paths.style === 'existing') return FOLDERISH.test(key) ? paths.workdir : (paths.existing ?? `${fresh}.txt`);
  return FOLDERISH.test(key) ? fresh : `${fresh}.txt`;
}

/** Whether `text` matches a schema pattern (ECMA-262, unanchored); a pattern JS cannot compile matches nothing. */
function matches(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return false;
  }
}

function resolveRef(root: Schema, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Schema)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}
