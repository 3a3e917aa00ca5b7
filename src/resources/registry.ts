/**
 * The resources a server offers: fixed resources and templates, with the
 * `changed` event behind `notifications/resources/list_changed` and the
 * `updated` event behind `notifications/resources/updated`.
 */

import { DefinitionError, ProtocolError, ToolError } from '../errors.js';
import { decodeCursor, encodeCursor } from '../registry/cursor.js';
import { Emitter } from '../util/emitter.js';
import { toReadResult } from './contents.js';
import type {
  Completer,
  ResourceContents,
  ResourceContext,
  ResourceDefinition,
  ResourceTemplateDefinition,
  WireResource,
  WireResourceTemplate,
} from './types.js';

/** MCP's "resource not found" error code (spec, resources: error handling). */
export const RESOURCE_NOT_FOUND = -32002;

type Events = { changed: []; updated: [uri: string] };

/** Options of {@link ResourceRegistry}. */
export interface ResourceRegistryOptions {
  /** Page size of `resources/list` and `resources/templates/list`. Default 100. */
  pageSize?: number;
}

/** Options of a paginated listing. */
export interface PageOptions {
  cursor?: string;
}

/**
 * The server's resources and resource templates.
 *
 * @example
 * ```ts
 * const resources = new ResourceRegistry();
 * resources.add(readme, userProfile);
 * resources.notifyUpdated('docs://readme'); // subscribed clients get notifications/resources/updated
 * ```
 */
export class ResourceRegistry {
  readonly #resources = new Map<string, ResourceDefinition>();
  readonly #templates = new Map<string, ResourceTemplateDefinition>();
  readonly #events = new Emitter<Events>();
  readonly #pageSize: number;

  constructor(options: ResourceRegistryOptions = {}) {
    this.#pageSize = options.pageSize ?? 100;
  }

  /** Add resources and templates (duplicates by URI / URI template are refused). */
  add(...definitions: Array<ResourceDefinition | ResourceTemplateDefinition>): this {
    for (const d of definitions) {
      if (d?.kind === 'resource') {
        if (this.#resources.has(d.uri))
          throw new DefinitionError(`A resource with uri "${d.uri}" is already registered.`);
      } else if (d?.kind === 'resource-template') {
        if (this.#templates.has(d.uriTemplate)) {
          throw new DefinitionError(`A resource template "${d.uriTemplate}" is already registered.`);
        }
      } else {
        throw new DefinitionError(
          'ResourceRegistry.add takes definitions from defineResource / defineResourceTemplate.',
        );
      }
    }
    for (const d of definitions) {
      if (d.kind === 'resource') this.#resources.set(d.uri, d);
      else this.#templates.set(d.uriTemplate, d);
    }
    if (definitions.length > 0) this.#events.emit('changed');
    return this;
  }

  /** Remove resources (by uri) and templates (by uriTemplate). */
  remove(...keys: string[]): this {
    let changed = false;
    for (const key of keys) changed = this.#resources.delete(key) || this.#templates.delete(key) || changed;
    if (changed) this.#events.emit('changed');
    return this;
  }

  get size(): number {
    return this.#resources.size + this.#templates.size;
  }

  /** Whether any template has completion (the `completions` capability). */
  get hasCompletion(): boolean {
    for (const t of this.#templates.values()) if (Object.keys(t.complete).length > 0) return true;
    return false;
  }

  /** Tell subscribed clients that a resource's content changed. */
  notifyUpdated(uri: string): void {
    this.#events.emit('updated', uri);
  }

  /** Listen for an event; returns a function that stops listening. */
  on<E extends keyof Events>(event: E, listener: (...args: Events[E]) => void): () => void {
    this.#events.on(event, listener);
    return () => this.#events.off(event, listener);
  }

  /** One page of `resources/list` (fixed resources, then what templates' `list` return). */
  async list(options: PageOptions = {}): Promise<{ resources: WireResource[]; nextCursor?: string }> {
    const all: WireResource[] = [...this.#resources.values()].map((r) => r.wire);
    for (const t of this.#templates.values()) if (t.list) all.push(...(await t.list()));
    const { items, nextCursor } = this.#page(all, options.cursor);
    return nextCursor === undefined ? { resources: items } : { resources: items, nextCursor };
  }

  /** One page of `resources/templates/list`. */
  listTemplates(options: PageOptions = {}): { resourceTemplates: WireResourceTemplate[]; nextCursor?: string } {
    const all = [...this.#templates.values()].map((t) => t.wire);
    const { items, nextCursor } = this.#page(all, options.cursor);
    return nextCursor === undefined ? { resourceTemplates: items } : { resourceTemplates: items, nextCursor };
  }

  /**
   * Read a URI: a fixed resource first, then the first template that matches.
   * -32002 when none does. Without `elicit`/`confirm` (a read outside any
   * client request) a handler that asks gets a clear refusal.
   */
  async read(
    uri: string,
    options: Omit<ResourceContext, 'uri' | 'elicit' | 'confirm'> & Partial<Pick<ResourceContext, 'elicit' | 'confirm'>>,
  ): Promise<{ contents: ResourceContents[]; _meta?: { [key: string]: unknown } }> {
    const ctx = { elicit: cannotAsk, confirm: cannotAsk, ...options };
    const fixed = this.#resources.get(uri);
    if (fixed) {
      const value = await fixed.read({ ...ctx, uri });
      return toReadResult(value, { uri, mimeType: fixed.mimeType, _meta: fixed.wire._meta });
    }
    for (const template of this.#templates.values()) {
      const variables = template.matcher.match(uri);
      if (variables === undefined) continue;
      const value = await template.read({ ...ctx, uri, variables });
      return toReadResult(value, { uri, mimeType: template.mimeType });
    }
    throw new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
  }

  /** The completer for a template variable, if any (`ref/resource` completion). */
  completer(uriTemplate: string, variable: string): Completer | undefined | null {
    const template = this.#templates.get(uriTemplate) ?? this.#resources.get(uriTemplate);
    if (template === undefined) return null;
    return template.kind === 'resource-template' ? template.complete[variable] : undefined;
  }

  #page<T>(all: T[], cursor: string | undefined): { items: T[]; nextCursor?: string } {
    let offset = 0;
    if (cursor !== undefined) {
      offset = decodeCursor<{ o: number }>(cursor, (v) => Number.isInteger(v.o) && v.o >= 0).o;
    }
    const items = all.slice(offset, offset + this.#pageSize);
    const next = offset + items.length;
    return next < all.length ? { items, nextCursor: encodeCursor({ o: next }) } : { items };
  }
}

/** `elicit`/`confirm` of a read made outside any client request: there is nobody to ask. */
function cannotAsk(): Promise<never> {
  return Promise.reject(new ToolError('This read cannot ask the user: it is not part of a client request.'));
}
