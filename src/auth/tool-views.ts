/**
 * What a caller sees of the tools, by the scopes they hold: a filtered
 * `ToolSource` per distinct set of relevant scopes, not per request, so the
 * cached `tools/list` stays one string lookup (nothing is rebuilt per
 * request). With the three default scopes there are at most eight views.
 * 2026-07-28: a list MAY vary by authorization (and is then `cacheScope:
 * private`, which the engine's `auto` cache scope already gives an
 * authenticated request).
 */
import type { ToolSource } from '../pipeline/types.js';
import { pageOfNamed } from '../registry/cursor.js';
import type { ToolDefinition, WireTool } from '../tool/types.js';
import type { ToolScopePolicy } from './tool-scopes.js';

/** More distinct scope sets than this (many per-tool scopes) start the cache over. */
const MAX_VIEWS = 256;

/**
 * Views of one tool source, cached by scope set.
 *
 * @example
 * ```ts
 * const views = new ToolViews(registry, new ToolScopePolicy());
 * views.forScopes(['tools:read']).manifest(); // only read-only tools
 * ```
 */
export class ToolViews {
  readonly #source: ToolSource;
  readonly #policy: ToolScopePolicy;
  readonly #views = new Map<string, ScopedTools>();
  /** Every scope some tool needs (the only ones that tell views apart). */
  #relevant: readonly string[] | undefined;

  constructor(source: ToolSource, policy: ToolScopePolicy) {
    this.#source = source;
    this.#policy = policy;
    source.on('changed', () => {
      this.#relevant = undefined;
      for (const view of this.#views.values()) view.invalidate();
      this.#views.clear();
    });
  }

  /** The view for a caller holding `scopes`. */
  forScopes(scopes: readonly string[] | undefined): ScopedTools {
    const granted = new Set(scopes);
    let key = '';
    for (const scope of this.#relevantScopes()) if (granted.has(scope)) key += `${scope} `;
    let view = this.#views.get(key);
    if (view === undefined) {
      if (this.#views.size >= MAX_VIEWS) this.#views.clear();
      view = new ScopedTools(this.#source, this.#policy, new Set(key.split(' ').filter((s) => s.length > 0)));
      this.#views.set(key, view);
    }
    return view;
  }

  #relevantScopes(): readonly string[] {
    if (this.#relevant === undefined) {
      const all = new Set<string>();
      for (const wire of this.#source.manifest().tools) {
        const tool = this.#source.get(wire.name);
        if (tool !== undefined) for (const scope of this.#policy.required(tool)) all.add(scope);
      }
      this.#relevant = [...all].sort();
    }
    return this.#relevant;
  }
}

/** The tools one scope set may list and call. */
export class ScopedTools implements ToolSource {
  readonly #source: ToolSource;
  readonly #policy: ToolScopePolicy;
  readonly #granted: ReadonlySet<string>;
  #listed: readonly WireTool[] | undefined;
  #json: string | undefined;

  constructor(source: ToolSource, policy: ToolScopePolicy, granted: ReadonlySet<string>) {
    this.#source = source;
    this.#policy = policy;
    this.#granted = granted;
  }

  /** Forget the cached list (the source changed). */
  invalidate(): void {
    this.#listed = undefined;
    this.#json = undefined;
  }

  get(name: string): ToolDefinition | undefined {
    return this.#visible(this.#source.get(name));
  }

  callable(name: string): ToolDefinition | undefined {
    return this.#visible(this.#source.callable(name));
  }

  manifest(options: { cursor?: string; limit?: number } = {}): { tools: readonly WireTool[]; nextCursor?: string } {
    return pageOfNamed(this.#list(), options);
  }

  manifestJson(options: { cursor?: string; limit?: number } = {}): string {
    if (options.cursor === undefined && options.limit === undefined) {
      this.#json ??= JSON.stringify({ tools: this.#list() });
      return this.#json;
    }
    return JSON.stringify(this.manifest(options));
  }

  on(event: 'changed', listener: (event: { names: readonly string[] }) => void): () => void {
    return this.#source.on(event, listener);
  }

  #visible(tool: ToolDefinition | undefined): ToolDefinition | undefined {
    return tool !== undefined && this.#policy.allows(tool, this.#granted) ? tool : undefined;
  }

  #list(): readonly WireTool[] {
    this.#listed ??= this.#source.manifest().tools.filter((wire) => this.get(wire.name) !== undefined);
    return this.#listed;
  }
}
