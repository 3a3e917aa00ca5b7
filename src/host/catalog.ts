/**
 * The catalog: every tool of every server, namespaced (`server__tool`),
 * normalised, with its trust, overrides and pin state resolved. Rebuilt per
 * server whenever that server's list changes.
 */
import { createHash } from 'node:crypto';
import { CandorError } from '../errors.js';
import { normaliseTool, type WireToolLike } from '../tool/annotations.js';
import { lintEvidence, tighten } from './hint-evidence.js';
import type { Overrides } from './overrides.js';
import { pinHash } from './pins/pin-hash.js';
import type { CatalogTool, PinState, Trust } from './types.js';

/** The default separator between server and tool names. */
export const DEFAULT_SEPARATOR = '__';

/** What it takes to turn a server's `tools/list` entries into catalog tools. */
export interface CatalogInput {
  server: string;
  trust: Trust;
  tools: readonly WireToolLike[];
  separator: string;
  overrides?: Overrides;
  /** Pin states by the server's own tool names. */
  pins?: ReadonlyMap<string, PinState>;
  /** Make an untrusted server's hints stricter where lint has evidence they lie. */
  tightenHints?: boolean;
}

/**
 * Build the catalog entries of one server.
 *
 * @example
 * ```ts
 * const tools = catalogTools({ server: 'memory', trust: 'untrusted', tools: listed, separator: '__' });
 * tools[0].name; // 'memory__create_entities'
 * ```
 */
export function catalogTools(input: CatalogInput): CatalogTool[] {
  const evidence = input.tightenHints && input.trust !== 'trusted' ? lintEvidence(input.tools) : undefined;
  return input.tools.map((wire) => {
    const normal = normaliseTool(wire);
    const override = input.overrides?.lookup(input.server, wire.name);
    const name = `${input.server}${input.separator}${wire.name}`;
    const tool: CatalogTool = {
      name,
      server: input.server,
      toolName: wire.name,
      apiName: apiNameFor(name),
      title: normal.title,
      description: normal.description,
      inputSchema: normal.inputSchema,
      hints: override ? { ...override.hints } : normal.hints,
      hintSources: override
        ? {
            readOnlyHint: 'override',
            destructiveHint: 'override',
            idempotentHint: 'override',
            openWorldHint: 'override',
          }
        : normal.hintSources,
      trust: override ? 'trusted' : input.trust,
      declaredBy: override ? 'override' : 'server',
      requiresUserInteraction: normal.requiresUserInteraction,
      visibility: normal.visibility,
      // Tags from an override are the user's; a server's own tags only count as claims (see policy).
      tags: override ? [...new Set([...override.tags, ...normal.tags])] : normal.tags,
      hash: pinHash(wire),
      pin: input.pins?.get(wire.name) ?? { status: 'unpinned' },
      warnings: normal.warnings,
      corrections: [],
      wire,
    };
    const found = override ? undefined : evidence?.get(wire.name);
    if (found) {
      const tightened = tighten(tool.hints, found);
      tool.hints = tightened.hints;
      tool.corrections = tightened.corrections;
      for (const correction of tightened.corrections) tool.hintSources[correction.hint] = 'evidence';
    }
    if (normal.outputSchema) tool.outputSchema = normal.outputSchema;
    if (normal.ui) tool.ui = normal.ui;
    return tool;
  });
}

/** Names model APIs accept: OpenAI and Anthropic both allow `^[a-zA-Z0-9_-]{1,64}$`. */
const API_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The model-API name of a namespaced tool: the name itself when it fits,
 * otherwise a sanitised, shortened form with a hash suffix (stable across runs).
 *
 * @example
 * ```ts
 * apiNameFor('fs__read_file'); // 'fs__read_file'
 * apiNameFor('docs__search.v2'); // 'docs__search_v2_1a2b3c4d'
 * ```
 */
export function apiNameFor(name: string): string {
  if (API_NAME.test(name)) return name;
  const suffix = createHash('sha256').update(name).digest('hex').slice(0, 8);
  const clean = name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64 - suffix.length - 1);
  return `${clean}_${suffix}`;
}

/**
 * The catalog of all servers' tools.
 *
 * @example
 * ```ts
 * const catalog = new Catalog();
 * catalog.replace('memory', catalogTools({ server: 'memory', trust: 'untrusted', tools, separator: '__' }));
 * catalog.get('memory__read_graph');
 * ```
 */
export class Catalog {
  readonly #byServer = new Map<string, CatalogTool[]>();
  readonly #byName = new Map<string, CatalogTool>();

  /** Replace one server's tools. Throws when two servers' tools collide on a namespaced name. */
  replace(server: string, tools: CatalogTool[]): void {
    for (const tool of this.#byServer.get(server) ?? []) {
      this.#byName.delete(tool.name);
      this.#byName.delete(tool.apiName);
    }
    for (const tool of tools) {
      const clash = this.#byName.get(tool.name);
      if (clash && clash.server !== server) {
        throw new CandorError(
          `Tool name ${tool.name} is produced by both ${clash.server} and ${server}; rename a server or change the separator.`,
          { code: 'catalog_collision' },
        );
      }
    }
    for (const tool of tools) {
      this.#byName.set(tool.name, tool);
      if (!this.#byName.has(tool.apiName)) this.#byName.set(tool.apiName, tool);
    }
    this.#byServer.set(server, tools);
  }

  /** Drop a server's tools. */
  remove(server: string): void {
    this.replace(server, []);
    this.#byServer.delete(server);
  }

  /** A tool by namespaced or model-API name. */
  get(name: string): CatalogTool | undefined {
    return this.#byName.get(name);
  }

  /** One server's tools. */
  ofServer(server: string): readonly CatalogTool[] {
    return this.#byServer.get(server) ?? [];
  }

  /** Every tool, sorted by namespaced name. */
  all(): CatalogTool[] {
    return [...this.#byServer.values()].flat().sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}
