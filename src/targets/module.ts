/**
 * Local module targets: a .js/.ts file exporting a `ToolRegistry`, an array of tools
 * (`defineTool` results, `BaseTool` instances or plain wire tools) or a server object
 * that holds one. Lint reads its manifest in process, with no transport.
 */

import { pathToFileURL } from 'node:url';
import { CandorError } from '../errors.js';
import { isRecord } from '../util/is-record.js';
import type { ModuleTarget } from './types.js';

/** What a module offers for linting: its wire tools, and its resources when it says. */
export interface ModuleManifest {
  tools: unknown[];
  resources?: Array<{ uri: string }>;
  resourceTemplates?: Array<{ uriTemplate: string }>;
  /** Which export it came from (`default`, `registry`, …). */
  exportName: string;
}

/** A ToolRegistry (or anything with its `manifest({ cursor })`): every page of wire tools. */
function fromRegistry(value: unknown): unknown[] | undefined {
  if (!isRecord(value) || typeof value.manifest !== 'function') return undefined;
  const manifest = value.manifest as (o?: { cursor?: string }) => { tools: unknown[]; nextCursor?: string };
  const tools: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100_000; page++) {
    const result = manifest.call(value, cursor === undefined ? {} : { cursor });
    tools.push(...result.tools);
    if (!result.nextCursor) return tools;
    cursor = result.nextCursor;
  }
  return tools;
}

/** One tool as it goes on the wire: a definition's `wire`, a BaseTool's definition's, or the object itself. */
function toWire(tool: unknown): unknown {
  if (isRecord(tool) && isRecord(tool.wire)) return tool.wire;
  if (isRecord(tool) && typeof tool.toDefinition === 'function') {
    const def = (tool.toDefinition as () => unknown).call(tool);
    if (isRecord(def) && isRecord(def.wire)) return def.wire;
  }
  return tool;
}

function fromValue(value: unknown, depth = 0): { tools: unknown[]; holder?: Record<string, unknown> } | undefined {
  if (Array.isArray(value)) return { tools: value.map(toWire) };
  const registry = fromRegistry(value);
  if (registry) return { tools: registry };
  if (!isRecord(value) || depth > 1) return undefined;
  // A server object (createServer's result): { registry | tools, resources? }.
  for (const key of ['registry', 'tools']) {
    const inner = fromValue(value[key], depth + 1);
    if (inner) return { tools: inner.tools, holder: value };
  }
  return undefined;
}

/** Every page of a paged list method (`list({ cursor })` → `{ [key]: [...], nextCursor }`), or a plain array. */
async function allPages(owner: Record<string, unknown>, method: string, key: string): Promise<unknown[] | undefined> {
  const fn = owner[method];
  if (typeof fn !== 'function') return undefined;
  const out: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10_000; page++) {
    const result: unknown = await fn.call(owner, cursor === undefined ? {} : { cursor });
    if (Array.isArray(result)) return result;
    if (!isRecord(result) || !Array.isArray(result[key])) return out;
    out.push(...(result[key] as unknown[]));
    if (typeof result.nextCursor !== 'string') return out;
    cursor = result.nextCursor;
  }
  return out;
}

/** The resources a server object holds: an array of definitions, or a ResourceRegistry. */
async function resourcesOf(value: unknown): Promise<Pick<ModuleManifest, 'resources' | 'resourceTemplates'>> {
  const wire = (r: unknown) => (isRecord(r) && isRecord(r.wire) ? r.wire : r);
  const list = Array.isArray(value) ? value : isRecord(value) ? await allPages(value, 'list', 'resources') : undefined;
  if (list === undefined) return {};
  const templates = isRecord(value) ? ((await allPages(value, 'listTemplates', 'resourceTemplates')) ?? []) : [];
  const entries = [...list, ...templates].map(wire);
  return {
    resources: entries.filter((r): r is { uri: string } => isRecord(r) && typeof r.uri === 'string'),
    resourceTemplates: entries.filter(
      (r): r is { uriTemplate: string } => isRecord(r) && typeof r.uriTemplate === 'string',
    ),
  };
}

async function importModule(file: string): Promise<Record<string, unknown>> {
  const url = pathToFileURL(file).href;
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'ERR_UNKNOWN_FILE_EXTENSION' || !/\.[cm]?tsx?$/.test(file)) throw error;
    // Node 20 cannot import TypeScript; tsx can, when it is installed.
    let tsImport: ((specifier: string, parent: string) => Promise<unknown>) | undefined;
    try {
      const api = 'tsx/esm/api';
      ({ tsImport } = (await import(api)) as { tsImport: typeof tsImport });
    } catch {
      throw new CandorError(
        `${file} is TypeScript and this Node cannot import it; install tsx (npm i -D tsx) or point at the compiled .js file.`,
        { code: 'invalid_target', cause: error },
      );
    }
    return (await tsImport!(url, import.meta.url)) as Record<string, unknown>;
  }
}

async function importForTarget(target: ModuleTarget): Promise<Record<string, unknown>> {
  try {
    return await importModule(target.path);
  } catch (error) {
    if (error instanceof CandorError) throw error;
    throw new CandorError(`${target.label}: importing the module failed: ${(error as Error)?.message ?? error}`, {
      code: 'target_exited',
      cause: error,
    });
  }
}

/**
 * Import a module target and read its tools (and resources, if it holds them).
 *
 * @example
 * ```ts
 * // tools.ts: export default [defineTool({ name: 'read_file', … })];
 * const { tools } = await loadModuleTarget({ kind: 'module', path: '/abs/tools.ts', label: 'tools.ts' });
 * ```
 */
export async function loadModuleTarget(target: ModuleTarget): Promise<ModuleManifest> {
  const mod = await importForTarget(target);
  const preferred = ['default', 'registry', 'tools', 'server'];
  const names = [...preferred.filter((n) => n in mod), ...Object.keys(mod).filter((n) => !preferred.includes(n))];
  for (const name of names) {
    const found = fromValue(mod[name]);
    if (!found) continue;
    const resources = found.holder ? await resourcesOf(found.holder.resources) : {};
    return { tools: found.tools, ...resources, exportName: name };
  }
  throw new CandorError(
    `${target.label} exports no ToolRegistry, array of tools, or server holding one (exports: ${Object.keys(mod).join(', ') || 'none'}).`,
    { code: 'invalid_target' },
  );
}

/** The part of a `createServer` result that connecting needs. */
interface ServableServer {
  connectMemory(): unknown;
  close(): Promise<void>;
}

/**
 * A running server for a module target: the module's own `createServer` result when it
 * exports one (`owned: false`, the module keeps it), or a new server around the tools or
 * registry it exports (`owned: true`, close it when done).
 *
 * @example
 * ```ts
 * const { server } = await loadModuleServer({ kind: 'module', path: '/abs/server.ts', label: 'server.ts' });
 * await client.connect(server.connectMemory());
 * ```
 */
export async function loadModuleServer(target: ModuleTarget): Promise<{ server: ServableServer; owned: boolean }> {
  const mod = await importForTarget(target);
  for (const value of [mod.default, mod.server, ...Object.values(mod)]) {
    if (isRecord(value) && typeof value.connectMemory === 'function' && typeof value.close === 'function') {
      return { server: value as unknown as ServableServer, owned: false };
    }
  }
  const manifest = await loadModuleTarget(target);
  const value = mod[manifest.exportName];
  // Built lazily so that lint, which never needs a server, does not load the engine.
  const { createServer } = await import('../server/create-server.js');
  const tools = Array.isArray(value) ? value : undefined;
  const registry = !tools && isRecord(value) && typeof value.manifest === 'function' ? value : undefined;
  if (!tools && !registry) {
    throw new CandorError(
      `${target.label}: export ${manifest.exportName} cannot be served; export a createServer() result.`,
      {
        code: 'invalid_target',
      },
    );
  }
  const server = createServer({
    name: target.label,
    version: '0.0.0',
    ...(tools ? { tools } : {}),
    ...(registry ? { registry: registry as never } : {}),
  } as never) as unknown as ServableServer;
  return { server, owned: true };
}
