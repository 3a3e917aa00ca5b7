/**
 * Load a CommonJS package synchronously, on Node.js only, without importing a
 * Node built-in: `process.getBuiltinModule` (Node ≥ 20.16) hands over
 * `node:module` at call time, so a module that uses this can be imported on
 * any runtime (workerd, Deno, Bun, a browser) and fails only when the part
 * that needs Node is used, with an error that says so.
 */
import { CandorError } from '../errors.js';

type GetBuiltin = (id: string) => unknown;

/**
 * Whether packages can be required from disk here: Node.js (≥ 20.16, where
 * `process.getBuiltinModule` exists) or a runtime compatible with it, running
 * candor from a file. workerd with `nodejs_compat` has `getBuiltinModule` but
 * runs a bundle with no file location and no node_modules, so it is not.
 *
 * @example
 * ```ts
 * if (!onNode()) return portableValidator(schema);
 * ```
 */
export function onNode(): boolean {
  return builtinGetter() !== undefined;
}

function builtinGetter(): GetBuiltin | undefined {
  const getBuiltin = (globalThis as { process?: { getBuiltinModule?: GetBuiltin } }).process?.getBuiltinModule;
  const here: unknown = import.meta.url;
  return typeof getBuiltin === 'function' && typeof here === 'string' && here.startsWith('file:')
    ? getBuiltin
    : undefined;
}

/**
 * `require(specifier)` from candor's own location, or a `node_only` error naming
 * what needed it.
 *
 * @example
 * ```ts
 * const rlf = requireOnNode<typeof import('rate-limiter-flexible')>('rate-limiter-flexible', 'A rate limit');
 * ```
 */
export function requireOnNode<T>(specifier: string, purpose: string): T {
  const getBuiltin = builtinGetter();
  if (getBuiltin === undefined) throw nodeOnly(purpose);
  const { createRequire } = getBuiltin('node:module') as typeof import('node:module');
  return createRequire(import.meta.url)(specifier) as T;
}

/**
 * The error for a part of candor that needs Node.js, used on another runtime.
 *
 * @example
 * ```ts
 * throw nodeOnly('server.stdio()', 'serve HTTP with server.fetchHandler()');
 * ```
 */
export function nodeOnly(purpose: string, instead?: string): CandorError {
  return new CandorError(
    `${purpose} needs Node.js, and this runtime is not Node.js${instead === undefined ? '.' : `: ${instead}.`} (docs/serve/fetch-runtimes.md says what works where.)`,
    { code: 'node_only' },
  );
}
