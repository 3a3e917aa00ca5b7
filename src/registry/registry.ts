/**
 * The tool registry: holds tool definitions, decides what is listed and
 * callable, serves the precomputed `tools/list` manifest and searches.
 */
import { DefinitionError, ProtocolError } from '../errors.js';
import { type ToolLike, toToolDefinition } from '../tool/define.js';
import type { ToolDefinition } from '../tool/types.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { disableVariable, disablingVariables, processEnv } from './env.js';
import { Manifest, type ManifestPage } from './manifest.js';
import { compareNames, SearchIndex, type SearchQuery } from './search.js';

/** Why the listed/callable set changed. */
export type ChangeReason = 'added' | 'removed' | 'replaced' | 'enabled' | 'disabled' | 'env';

export interface RegistryEvents {
  /** Tools were added (one event per `add` call). */
  registered: { tools: ToolDefinition[] };
  /** Tools were removed (one event per `remove` call). */
  removed: { names: string[] };
  /** What is listed or callable changed: one event per call, however many tools it touched. */
  changed: { reason: ChangeReason; names: string[] };
}

export interface ToolRegistryOptions {
  /** Where `TOOL_<NAME>_DISABLED` is read from (default: `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Where log lines go (default: `console.error`, never stdout: stdio servers own it). */
  logger?: (line: string) => void;
  /** Tools to start with. */
  tools?: readonly ToolLike[];
}

export interface SearchPage {
  tools: ToolDefinition[];
  nextCursor?: string;
  /** How many tools match in all (across pages). */
  total: number;
}

/** Selects tools by name and/or tag (a tool matching either is selected). */
export interface ToolSelector {
  names?: readonly string[];
  tags?: readonly string[];
}

const DEFAULT_SEARCH_LIMIT = 50;
const MAX_SEARCH_LIMIT = 1000;

/**
 * A registry of tools.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry();
 * registry.add(readFile, writeFile);
 * registry.on('changed', ({ names }) => console.error('changed:', names));
 * registry.disable({ tags: ['write'] });
 * registry.manifest().tools.map((t) => t.name); // ['read_file']
 * registry.search({ readOnly: true, text: 'file' }).total; // 1
 * ```
 */
export class ToolRegistry {
  readonly #tools = new Map<string, ToolDefinition>();
  readonly #disabled = new Set<string>();
  #envDisabled = new Set<string>();
  #env: Readonly<Record<string, string | undefined>>;
  #envVars: ReadonlySet<string>;
  readonly #log: (line: string) => void;
  readonly #index = new SearchIndex();
  readonly #listeners: { [K in keyof RegistryEvents]: Set<(event: RegistryEvents[K]) => void> } = {
    registered: new Set(),
    removed: new Set(),
    changed: new Set(),
  };
  #sortedNames: string[] | undefined;
  readonly #manifest = new Manifest(() =>
    this.#names()
      .filter((n) => this.#isListed(n))
      .map((n) => this.#tools.get(n)!),
  );
  #version = 0;

  constructor(options: ToolRegistryOptions = {}) {
    this.#env = options.env ?? processEnv();
    this.#envVars = disablingVariables(this.#env);
    this.#log = options.logger ?? ((line) => console.error(line));
    if (options.tools && options.tools.length > 0) this.add(...options.tools);
  }

  /** Increments on every change to what is listed or callable. */
  get version(): number {
    return this.#version;
  }

  /** How many tools are registered (listed or not). */
  get size(): number {
    return this.#tools.size;
  }

  /** Register tools. Refuses a name that is already registered (nothing is added then). */
  add(...tools: ToolLike[]): this {
    const defs = tools.map(toToolDefinition);
    const seen = new Set<string>();
    for (const def of defs) {
      if (this.#tools.has(def.name) || seen.has(def.name)) {
        throw new DefinitionError(
          `A tool named "${def.name}" is already registered; tool names must be unique per server. Remove it first or choose another name.`,
          { fields: ['name'] },
        );
      }
      seen.add(def.name);
    }
    if (defs.length === 0) return this;
    for (const def of defs) {
      this.#tools.set(def.name, def);
      this.#index.add(def);
      if (this.#disabledByEnv(def.name)) {
        this.#envDisabled.add(def.name);
        this.#log(`candor: tool "${def.name}" is disabled by ${disableVariable(def.name)}`);
      }
    }
    this.#invalidate(true);
    this.#emit('registered', { tools: defs });
    this.#emit('changed', { reason: 'added', names: defs.map((d) => d.name) });
    return this;
  }

  /** Remove tools by name. Returns true when at least one was removed. */
  remove(...names: string[]): boolean {
    const removed: string[] = [];
    for (const name of names) {
      const def = this.#tools.get(name);
      if (def === undefined) continue;
      this.#tools.delete(name);
      this.#index.remove(def);
      this.#disabled.delete(name);
      this.#envDisabled.delete(name);
      removed.push(name);
    }
    if (removed.length === 0) return false;
    this.#invalidate(true);
    this.#emit('removed', { names: removed });
    this.#emit('changed', { reason: 'removed', names: removed });
    return true;
  }

  /**
   * Remove some tools and add others as one change: one `changed` event (so one
   * `list_changed` to clients), e.g. when a proxied server's list changes.
   * Nothing changes when an added name is taken by a tool not being removed.
   *
   * @example
   * ```ts
   * registry.replace({ remove: ['fs__old'], add: [newTool] });
   * ```
   */
  replace(change: { remove?: readonly string[]; add?: readonly ToolLike[] }): this {
    const removing = new Set((change.remove ?? []).filter((name) => this.#tools.has(name)));
    const defs = (change.add ?? []).map(toToolDefinition);
    const seen = new Set<string>();
    for (const def of defs) {
      if ((this.#tools.has(def.name) && !removing.has(def.name)) || seen.has(def.name)) {
        throw new DefinitionError(
          `A tool named "${def.name}" is already registered; tool names must be unique per server.`,
          { fields: ['name'] },
        );
      }
      seen.add(def.name);
    }
    if (removing.size === 0 && defs.length === 0) return this;
    for (const name of removing) {
      const def = this.#tools.get(name)!;
      this.#tools.delete(name);
      this.#index.remove(def);
    }
    for (const def of defs) {
      this.#tools.set(def.name, def);
      this.#index.add(def);
      if (!removing.has(def.name)) {
        this.#disabled.delete(def.name);
        this.#envDisabled.delete(def.name);
      }
      if (this.#disabledByEnv(def.name)) this.#envDisabled.add(def.name);
    }
    for (const name of removing) {
      if (!seen.has(name)) {
        this.#disabled.delete(name);
        this.#envDisabled.delete(name);
      }
    }
    this.#invalidate(true);
    if (removing.size > 0) this.#emit('removed', { names: [...removing] });
    if (defs.length > 0) this.#emit('registered', { tools: defs });
    this.#emit('changed', { reason: 'replaced', names: [...new Set([...removing, ...seen])] });
    return this;
  }

  /** The definition of a registered tool, listed or not. */
  get(name: string): ToolDefinition | undefined {
    return this.#tools.get(name);
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** The definition when the tool may be called now (registered, enabled, not disabled by env). */
  callable(name: string): ToolDefinition | undefined {
    const def = this.#tools.get(name);
    return def !== undefined && this.#isListed(name) ? def : undefined;
  }

  /** Why a registered tool is not callable, or undefined when it is (or is unknown). */
  unavailableReason(name: string): string | undefined {
    if (!this.#tools.has(name)) return undefined;
    if (this.#envDisabled.has(name)) return `disabled by ${disableVariable(name)}`;
    if (this.#disabled.has(name)) return 'disabled';
    return undefined;
  }

  /** Whether the tool is enabled by the API and not disabled by the environment. */
  isEnabled(name: string): boolean {
    return this.#tools.has(name) && this.#isListed(name);
  }

  /** Every registered definition, sorted by name (disabled ones included). */
  list(): ToolDefinition[] {
    return this.#names().map((n) => this.#tools.get(n)!);
  }

  /** Enable tools by name or tag; one `changed` event if anything changed. */
  enable(selector: ToolSelector): string[] {
    return this.#toggle(selector, true);
  }

  /** Disable tools by name or tag; one `changed` event if anything changed. */
  disable(selector: ToolSelector): string[] {
    return this.#toggle(selector, false);
  }

  /** Re-read `TOOL_<NAME>_DISABLED` (from `env`, or the environment given at construction). */
  reloadEnv(env?: Readonly<Record<string, string | undefined>>): string[] {
    if (env !== undefined) this.#env = env;
    this.#envVars = disablingVariables(this.#env);
    const next = new Set<string>();
    for (const name of this.#tools.keys()) if (this.#disabledByEnv(name)) next.add(name);
    const changed = [...new Set([...next, ...this.#envDisabled])].filter(
      (n) => next.has(n) !== this.#envDisabled.has(n),
    );
    this.#envDisabled = next;
    if (changed.length === 0) return [];
    for (const name of changed) {
      this.#log(
        next.has(name)
          ? `candor: tool "${name}" is disabled by ${disableVariable(name)}`
          : `candor: tool "${name}" is no longer disabled by ${disableVariable(name)}`,
      );
    }
    changed.sort(compareNames);
    this.#invalidate(false);
    this.#emit('changed', { reason: 'env', names: changed });
    return changed;
  }

  /**
   * The `tools/list` result: listed tools in name order, each entry precomputed at
   * definition. Without `limit`, one page holds every tool.
   */
  manifest(options: { cursor?: string; limit?: number } = {}): ManifestPage {
    return this.#manifest.page(options);
  }

  /**
   * The same page as {@link manifest}, as JSON text, built from per-tool JSON cached
   * at first use. The engine writes it into the response without re-serialising.
   */
  manifestJson(options: { cursor?: string; limit?: number } = {}): string {
    return this.#manifest.json(options);
  }

  /** Search listed tools by text and resolved hints, tags and category. */
  search(query: SearchQuery = {}): SearchPage {
    const limit = clampLimit(query.limit);
    const key = searchKey(query);
    let offset = 0;
    if (query.cursor !== undefined) {
      const cursor = decodeCursor<{ o: number; q: string }>(
        query.cursor,
        (v) => Number.isInteger(v.o) && v.o >= 0 && typeof v.q === 'string',
      );
      if (cursor.q !== key) {
        throw new ProtocolError(
          -32602,
          'Invalid cursor: it belongs to a different search; repeat the search without it.',
        );
      }
      offset = cursor.o;
    }
    const all = this.#index.match(query, this.#unlisted(), offset + limit);
    const tools = all.tools.slice(offset, offset + limit);
    const page: SearchPage = { tools, total: all.total };
    if (offset + limit < all.total) page.nextCursor = encodeCursor({ o: offset + limit, q: key });
    return page;
  }

  /** Listen for an event; returns a function that stops listening. */
  on<K extends keyof RegistryEvents>(event: K, listener: (event: RegistryEvents[K]) => void): () => void {
    this.#listeners[event].add(listener);
    return () => this.#listeners[event].delete(listener);
  }

  #toggle(selector: ToolSelector, enable: boolean): string[] {
    const names = this.#select(selector);
    const changed = names.filter((n) => this.#disabled.has(n) === enable);
    for (const name of changed) {
      if (enable) this.#disabled.delete(name);
      else this.#disabled.add(name);
    }
    if (changed.length === 0) return [];
    this.#invalidate(false);
    this.#emit('changed', { reason: enable ? 'enabled' : 'disabled', names: changed });
    return changed;
  }

  #select(selector: ToolSelector): string[] {
    const unknown = (selector.names ?? []).filter((n) => !this.#tools.has(n));
    if (unknown.length > 0) {
      throw new DefinitionError(`No tool named ${unknown.map((n) => `"${n}"`).join(', ')} is registered.`, {
        fields: ['names'],
      });
    }
    const picked = new Set(selector.names ?? []);
    if (selector.tags && selector.tags.length > 0) {
      const tags = new Set(selector.tags);
      for (const def of this.#tools.values()) if (def.tags.some((t) => tags.has(t))) picked.add(def.name);
    }
    return [...picked].sort(compareNames);
  }

  #disabledByEnv(name: string): boolean {
    return this.#envVars.size > 0 && this.#envVars.has(disableVariable(name));
  }

  #unlisted(): ReadonlySet<string> {
    if (this.#envDisabled.size === 0) return this.#disabled;
    if (this.#disabled.size === 0) return this.#envDisabled;
    return new Set([...this.#disabled, ...this.#envDisabled]);
  }

  #isListed(name: string): boolean {
    return !this.#disabled.has(name) && !this.#envDisabled.has(name);
  }

  #names(): string[] {
    this.#sortedNames ??= [...this.#tools.keys()].sort(compareNames);
    return this.#sortedNames;
  }

  #invalidate(membership: boolean): void {
    if (membership) this.#sortedNames = undefined;
    this.#manifest.invalidate();
    this.#version++;
  }

  #emit<K extends keyof RegistryEvents>(event: K, payload: RegistryEvents[K]): void {
    for (const listener of this.#listeners[event]) {
      try {
        listener(payload);
      } catch (error) {
        this.#log(`candor: a registry "${event}" listener threw: ${(error as Error)?.message ?? String(error)}`);
      }
    }
  }
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_SEARCH_LIMIT;
  if (!Number.isFinite(limit) || limit < 1) return 1;
  return Math.min(MAX_SEARCH_LIMIT, Math.floor(limit));
}

function searchKey(query: SearchQuery): string {
  const { cursor: _cursor, limit: _limit, ...rest } = query;
  const text = JSON.stringify(rest, Object.keys(rest).sort());
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}
