/**
 * What `candor serve <module>` serves: the module's default export, or else its
 * first named export that is one of
 * - a `createServer` result (served as is),
 * - a `ToolRegistry`,
 * - an array of tools (`defineTool` results or `BaseTool` instances), or one tool,
 * - as the default export only: a function returning any of these (called
 *   with `{ root }`, may be async).
 */

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ToolRegistry } from '../registry/registry.js';
import { type CandorServer, createServer } from '../server/create-server.js';
import { BaseTool, type ToolLike } from '../tool/define.js';
import { isRecord } from '../util/is-record.js';
import { CliError, EXIT } from './cli-error.js';

/** What a module factory export is called with. */
export interface ModuleFactoryOptions {
  /** `--root`, when given. */
  root?: string;
}

function isServer(value: unknown): value is CandorServer {
  return (
    isRecord(value) &&
    isRecord(value.dispatcher) &&
    typeof value.stdio === 'function' &&
    typeof value.connectMemory === 'function' &&
    typeof value.close === 'function'
  );
}

function isRegistry(value: unknown): value is ToolRegistry {
  return (
    value instanceof ToolRegistry ||
    (isRecord(value) &&
      typeof value.manifest === 'function' &&
      typeof value.callable === 'function' &&
      typeof value.add === 'function')
  );
}

function isTool(value: unknown): value is ToolLike {
  return value instanceof BaseTool || (isRecord(value) && value.kind === 'tool' && isRecord(value.wire));
}

/**
 * Turn an export into a server, or undefined when it is none of the accepted shapes.
 * Functions are called (with `factory`) only when `factory` is given.
 *
 * @example
 * ```ts
 * const server = await toServer([readFile], { name: 'tools', version: '1.0.0' }, undefined);
 * ```
 */
export async function toServer(
  value: unknown,
  info: { name: string; version: string },
  factory: ModuleFactoryOptions | undefined,
): Promise<CandorServer | undefined> {
  if (typeof value === 'function' && factory !== undefined && !(value.prototype instanceof BaseTool)) {
    return toServer(await (value as (o: ModuleFactoryOptions) => unknown)(factory), info, undefined);
  }
  if (isServer(value)) return value;
  if (isRegistry(value)) return createServer({ ...info, registry: value });
  if (Array.isArray(value) && value.length > 0 && value.every(isTool)) return createServer({ ...info, tools: value });
  if (isTool(value)) return createServer({ ...info, tools: [value] });
  return undefined;
}

/** Import a module file; TypeScript through tsx when Node cannot import it by itself. */
async function importFile(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && (error as Error).message.includes(file)) {
      throw new CliError(`Module not found: ${file}.`, { exitCode: EXIT.usage });
    }
    if (code !== 'ERR_UNKNOWN_FILE_EXTENSION' || !/\.[cm]?tsx?$/.test(file)) {
      throw new CliError(`Importing ${file} failed: ${(error as Error).message}`, { cause: error });
    }
    let tsImport: ((specifier: string, parent: string) => Promise<unknown>) | undefined;
    try {
      const api = 'tsx/esm/api';
      ({ tsImport } = (await import(api)) as { tsImport: typeof tsImport });
    } catch {
      throw new CliError(
        `${file} is TypeScript and this Node cannot import it; install tsx (npm i -D tsx) or point at the compiled .js file.`,
        { exitCode: EXIT.usage, cause: error },
      );
    }
    return (await tsImport!(url, import.meta.url)) as Record<string, unknown>;
  }
}

/**
 * Load a module and make a server of what it exports.
 *
 * @example
 * ```ts
 * const { server, exportName } = await loadServerModule('./tools.js', { root: '.' });
 * server.stdio();
 * ```
 */
export async function loadServerModule(
  file: string,
  factory: ModuleFactoryOptions = {},
): Promise<{ server: CandorServer; exportName: string }> {
  const absolute = path.resolve(file);
  const mod = await importFile(absolute);
  const info = { name: path.basename(absolute).replace(/\.[cm]?[jt]sx?$/, ''), version: '0.0.0' };
  const names = ['default', ...Object.keys(mod).filter((n) => n !== 'default')].filter((n) => n in mod);
  for (const name of names) {
    const server = await toServer(mod[name], info, name === 'default' ? factory : undefined);
    if (server) return { server, exportName: name };
  }
  throw new CliError(
    `${file} exports nothing candor can serve (exports: ${Object.keys(mod).join(', ') || 'none'}). Export a createServer(...) result, a ToolRegistry, an array of tools, or a function returning one.`,
    { exitCode: EXIT.usage },
  );
}
