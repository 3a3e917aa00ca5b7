/**
 * What one code-mode endpoint lists and calls for one set of reachable tools: code
 * mode's own tools, bound to those tools, and the stored scripts as tools of their
 * own, derived against them. The stored tools are built again whenever the tools
 * underneath or the stored scripts change (the version says when), so their hints
 * and pins follow the tools they call.
 */
import type { ToolSource } from '../../pipeline/types.js';
import { pageOfNamed } from '../../registry/cursor.js';
import type { ToolDefinition, WireTool } from '../../tool/types.js';

/**
 * One endpoint's tools in code mode.
 *
 * @example
 * ```ts
 * const view = new CodeModeView({ own, base, version, stored: () => store.list().map(build), message });
 * view.manifest().tools; // search_tools, tool_api, run_script, save_script and the stored scripts
 * ```
 */
export class CodeModeView implements ToolSource {
  readonly #own: ReadonlyMap<string, ToolDefinition>;
  readonly #base: ToolSource;
  readonly #version: () => string;
  readonly #stored: () => ToolDefinition[];
  readonly #message: (name: string) => string;
  #at: string | undefined;
  #tools = new Map<string, ToolDefinition>();
  #listed: readonly WireTool[] = [];
  #json: string | undefined;

  constructor(options: {
    own: ReadonlyMap<string, ToolDefinition>;
    base: ToolSource;
    /** Changes whenever the tools underneath or the stored scripts may have changed. */
    version: () => string;
    stored: () => ToolDefinition[];
    /** Why a name is not a tool here. */
    message: (name: string) => string;
  }) {
    this.#own = options.own;
    this.#base = options.base;
    this.#version = options.version;
    this.#stored = options.stored;
    this.#message = options.message;
  }

  get(name: string): ToolDefinition | undefined {
    return this.#current().get(name);
  }

  callable(name: string): ToolDefinition | undefined {
    return this.#current().get(name);
  }

  manifest(options: { cursor?: string; limit?: number } = {}): { tools: readonly WireTool[]; nextCursor?: string } {
    this.#current();
    return pageOfNamed(this.#listed, options);
  }

  manifestJson(options: { cursor?: string; limit?: number } = {}): string {
    if (options.cursor !== undefined || options.limit !== undefined) return JSON.stringify(this.manifest(options));
    this.#current();
    this.#json ??= JSON.stringify({ tools: this.#listed });
    return this.#json;
  }

  on(event: 'changed', listener: (event: { names: readonly string[] }) => void): () => void {
    return this.#base.on(event, listener);
  }

  unknownToolMessage(name: string): string {
    return this.#message(name);
  }

  #current(): Map<string, ToolDefinition> {
    const version = this.#version();
    if (version !== this.#at) {
      this.#at = version;
      const stored = this.#stored()
        .filter((tool) => !this.#own.has(tool.name))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      this.#tools = new Map([...this.#own, ...stored.map((tool) => [tool.name, tool] as const)]);
      this.#listed = [...this.#tools.values()].map((tool) => tool.wire);
      this.#json = undefined;
    }
    return this.#tools;
  }
}
