/**
 * Secrets stay where they were. A server's env values and headers are written to
 * the gateway config as `${NAME}` references; the values themselves go into the
 * env of the one gateway entry in the client's own file (which held them already),
 * and the client hands them to the gateway when it starts it. A value that is
 * already a plain environment reference stays as it is.
 */
import type { ServerEntry } from './types.js';

const REFERENCE = /^\$\{(?:env:)?[A-Za-z_][A-Za-z0-9_]*\}$/;

/** An environment variable name made of `parts`. */
function variableName(...parts: string[]): string {
  return parts
    .join('_')
    .toUpperCase()
    .replace(/[^A-Z0-9_]+/g, '_')
    .replace(/^(\d)/, '_$1');
}

/**
 * Move the values of `entries` behind references; `env` (the gateway entry's env) gains
 * the values. Names already in `env` with another value are not reused.
 *
 * @example
 * ```ts
 * const env = {};
 * referenceSecrets({ gh: { command: 'gh-mcp', env: { GITHUB_TOKEN: 'ghp_x' } } }, env);
 * // gh.env.GITHUB_TOKEN === '${GITHUB_TOKEN}', env.GITHUB_TOKEN === 'ghp_x'
 * ```
 */
export function referenceSecrets(
  entries: Record<string, ServerEntry>,
  env: Record<string, string>,
): Record<string, ServerEntry> {
  const place = (preferred: string, fallback: string, value: string): string => {
    for (const name of [preferred, fallback]) {
      if (env[name] === undefined || env[name] === value) {
        env[name] = value;
        return `\${${name}}`;
      }
    }
    let n = 2;
    while (env[`${fallback}_${n}`] !== undefined && env[`${fallback}_${n}`] !== value) n++;
    env[`${fallback}_${n}`] = value;
    return `\${${fallback}_${n}}`;
  };
  const out: Record<string, ServerEntry> = {};
  for (const [server, entry] of Object.entries(entries)) {
    const copy: ServerEntry = { ...entry };
    if (entry.env) {
      copy.env = Object.fromEntries(
        Object.entries(entry.env).map(([key, value]) => [
          key,
          REFERENCE.test(value) ? value : place(variableName(key), variableName(server, key), value),
        ]),
      );
    }
    if (entry.headers) {
      copy.headers = Object.fromEntries(
        Object.entries(entry.headers).map(([key, value]) => [
          key,
          REFERENCE.test(value) ? value : place(variableName(server, key), variableName(server, key), value),
        ]),
      );
    }
    out[server] = copy;
  }
  return out;
}

/**
 * An entry with its `${NAME}` references filled from `env` (what the gateway will see),
 * for starting the server during setup; references to other variables stay.
 */
export function resolveReferences(entry: ServerEntry, env: Readonly<Record<string, string>>): ServerEntry {
  const fill = (map: Record<string, string> | undefined) =>
    map &&
    Object.fromEntries(
      Object.entries(map).map(([key, value]) => {
        const name = /^\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value)?.[1];
        return [key, name !== undefined && env[name] !== undefined ? env[name]! : value];
      }),
    );
  const env2 = fill(entry.env);
  const headers = fill(entry.headers);
  return { ...entry, ...(env2 ? { env: env2 } : {}), ...(headers ? { headers } : {}) };
}
