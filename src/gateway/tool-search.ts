/**
 * Search mode: a session starts with the tools named in
 * `alwaysList` plus `find_tools`; every tool `find_tools` returns joins *that
 * session's* `tools/list` (one `notifications/tools/list_changed`) with its own
 * honest annotations, and stays for the session. A tool not (yet) listed to the
 * session is refused with an error that says to call `find_tools`.
 *
 * A session is the client as the protocol knows it: a 2025 session (HTTP) or a
 * connection (stdio, either era). A 2026-07-28 HTTP client has no session; its
 * list is kept per principal (the token's issuer, subject and client), or one
 * shared list without `--auth-*`, and the change reaches the open
 * `subscriptions/listen` streams.
 *
 * With Redis (`--redis`, `REDIS_URL`) the lists live there (`share`), so a
 * tool found through one gateway instance is listed and callable through any
 * other serving the same session; in process otherwise.
 */

import { createHash } from 'node:crypto';
import picomatch from 'picomatch';
import { z } from 'zod';
import type { ToolScope, ToolScopeRequest } from '../engine/engine.js';
import type { Peer } from '../engine/peer.js';
import { CandorError } from '../errors.js';
import type { ToolSource } from '../pipeline/types.js';
import { pageOfNamed } from '../registry/cursor.js';
import type { ToolRegistry } from '../registry/registry.js';
import type { FoundToolsStore } from '../stores/found-tools-store.js';
import { defineTool } from '../tool/define.js';
import type { ToolContext, ToolDefinition, WireTool } from '../tool/types.js';
import { principalKey } from '../transports/http/authorizer.js';
import type { ServerLogger } from '../util/logger.js';
import { GATEWAY_META_KEY } from './proxy-tool.js';

/** The name of the search tool. */
export const FIND_TOOLS = 'find_tools';
const DEFAULT_LIMIT = 8;
const MAX_LIMIT = 50;
/** 2026 HTTP lists kept per principal; past this many the oldest is forgotten. */
const MAX_PRINCIPALS = 10_000;

/** The arguments of find_tools (and of code mode's search_tools). */
export const findToolsInput = z.object({
  query: z.string().min(1).describe('What you want to do, in words (e.g. "create a directory", "search the web").'),
  readOnly: z
    .boolean()
    .optional()
    .describe('true: only tools that change nothing; false: only tools that change something.'),
  server: z.string().optional().describe('Only tools of this upstream server.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_LIMIT)
    .optional()
    .describe(`How many tools at most (default ${DEFAULT_LIMIT}).`),
});
type FindArgs = z.infer<typeof findToolsInput>;

/** The state of one session: the tools it found, and where its list_changed goes. */
class SessionTools {
  found = new Set<string>();
  version = 0;
  readonly views = new WeakMap<ToolSource, SessionView>();
  /**
   * @param key Its list's key in the shared store (undefined: a stdio connection, kept here only).
   */
  constructor(
    readonly target: Peer | 'modern',
    readonly key: string | undefined,
  ) {}

  /** Take the list as the shared store has it; a change makes the views list again. */
  replace(names: readonly string[]): void {
    if (names.length === this.found.size && names.every((name) => this.found.has(name))) return;
    this.found = new Set(names);
    this.version++;
  }
}

/** Requests that read a session's list (others, e.g. ping or initialize, need not wait for the store). */
const READS_LIST = new Set(['tools/list', 'tools/call']);

export interface ToolSearchOptions {
  /** The gateway's registry (every upstream tool, plus find_tools). */
  registry: ToolRegistry;
  /** Changes whenever the tools a session may see change (default: the registry's version). */
  version?: () => number | string;
  /** Globs of namespaced tool names every session lists from the start. */
  alwaysList?: readonly string[];
  /** Send a session its `tools/list_changed`. */
  notify(target: Peer | 'modern'): void;
  /** The upstream server of a tool (for the `server` filter). */
  serverOf?(tool: ToolDefinition): string | undefined;
  /** The endpoint's name in shared list keys (a profile's name; default: the full gateway). */
  name?: string;
  /** The live clients of the endpoint (to find the session another instance's announcement names). */
  peers?(): Iterable<Peer>;
  logger?: ServerLogger;
}

/**
 * Per-session tool lists for the gateway's search mode.
 *
 * @example
 * ```ts
 * const search = new ToolSearch({ registry, alwaysList: ['memory__read_graph'], notify: (t) => dispatcher.notifyToolsChanged(t) });
 * registry.add(search.definition);
 * createServer({ registry, toolScope: search.scope });
 * ```
 */
export class ToolSearch {
  readonly #options: ToolSearchOptions;
  readonly #always: (name: string) => boolean;
  readonly #byPeer = new WeakMap<Peer, SessionTools>();
  readonly #byPrincipal = new Map<string, SessionTools>();
  #store: FoundToolsStore | undefined;
  #stopListening: (() => void) | undefined;
  #warned = false;
  /** find_tools as registered (its handler is replaced per session). */
  readonly definition: ToolDefinition;

  constructor(options: ToolSearchOptions) {
    this.#options = options;
    const globs = options.alwaysList ?? [];
    const match = globs.length > 0 ? picomatch([...globs]) : undefined;
    this.#always = (name) => name === FIND_TOOLS || match?.(name) === true;
    this.definition = defineTool({
      name: FIND_TOOLS,
      title: 'Find tools',
      description:
        'Search the tools of every server behind this gateway by what you want to do. The tools found are added to your tool list (it changes; list the tools again if needed) and can then be called by name. Filter with readOnly (true: only tools that change nothing) and server.',
      input: findToolsInput,
      effect: 'read',
      world: 'closed',
      handler: () => {
        throw new CandorError('find_tools runs only through a session view', { code: 'internal' });
      },
    }) as unknown as ToolDefinition;
  }

  /** The `toolScope` hook for `createServer`. */
  readonly scope: ToolScope = (request) => {
    const base = request.info?.tools ?? this.#options.registry;
    const session = this.#session(request);
    let view = session.views.get(base);
    if (view === undefined) {
      view = new SessionView(this, session, base);
      session.views.set(base, view);
    }
    if (this.#store === undefined || session.key === undefined) return view;
    // A batch or a response has no single method: read the list then too.
    if (request.method !== undefined && !READS_LIST.has(request.method)) return view;
    const settled = view;
    return this.#refresh(session).then(() => settled);
  };

  /**
   * Keep the lists in a shared store (the gateway's Redis), so every instance
   * serves a session the tools it found through any of them.
   */
  share(store: FoundToolsStore): void {
    this.#store = store;
    this.#stopListening?.();
    this.#stopListening = store.listen((key) => this.#heard(key));
  }

  /** Stop listening to the other instances. */
  close(): void {
    this.#stopListening?.();
    this.#stopListening = undefined;
  }

  async #refresh(session: SessionTools): Promise<void> {
    try {
      session.replace(await this.#store!.load(session.key!));
      // Reachable again: a later outage is worth a warning of its own.
      this.#warned = false;
    } catch (error) {
      this.#degraded(error);
    }
  }

  /** Another instance added to a list: the client hears list_changed from the instance that holds its stream. */
  #heard(key: string): void {
    const prefix = `${this.#options.name ?? ''}|`;
    if (!key.startsWith(prefix)) return;
    const rest = key.slice(prefix.length);
    if (rest.startsWith('p:')) {
      this.#options.notify('modern');
      return;
    }
    const id = rest.slice(2);
    for (const peer of this.#options.peers?.() ?? []) {
      if (peer.sessionId === id && !peer.stateless) this.#options.notify(peer);
    }
  }

  #degraded(error: unknown): void {
    if (this.#warned) return;
    this.#warned = true;
    this.#options.logger?.warn(
      'search mode: the shared found-tool lists are unreachable (Redis); this instance serves what it knows until they answer',
      { error },
    );
  }

  /** Whether a tool is listed to a session. */
  listed(session: SessionTools, name: string): boolean {
    return this.#always(name) || session.found.has(name);
  }

  /** The tools' version (views cache their list per tools version and session version). */
  get toolsVersion(): number | string {
    return this.#options.version?.() ?? this.#options.registry.version;
  }

  /** Run find_tools for a session: search, add what was found (to the shared store too), notify once. */
  async find(session: SessionTools, base: ToolSource, args: FindArgs): Promise<{ text: string; tools: FoundTool[] }> {
    const server = args.server;
    const serverOf = this.#options.serverOf ?? defaultServerOf;
    const page = { tools: searchCatalog(this.#options.registry, base, args, serverOf) };
    const added: string[] = [];
    for (const tool of page.tools) {
      if (this.listed(session, tool.name)) continue;
      session.found.add(tool.name);
      added.push(tool.name);
    }
    if (added.length > 0) {
      session.version++;
      const store = this.#store;
      if (store !== undefined && session.key !== undefined) {
        // Stored before the answer: the client may list or call through another instance next.
        try {
          await store.add(session.key, added);
          store.announce(session.key);
        } catch (error) {
          this.#degraded(error);
        }
      }
      this.#options.notify(session.target);
    }
    const tools = page.tools.map((tool) => foundTool(tool, serverOf(tool)));
    if (tools.length === 0) {
      return {
        tools,
        text: `No tool matches ${JSON.stringify(args.query)}${server === undefined ? '' : ` on server ${JSON.stringify(server)}`}. Try other words (what the tool does, or the kind of thing it works on).`,
      };
    }
    const lines = tools.map(
      (t) =>
        `- ${t.name}${t.title ? ` (${t.title})` : ''} [${hintSummary(t.annotations)}]: ${firstLine(t.description)}`,
    );
    return {
      tools,
      text: `${tools.length} tool${tools.length === 1 ? '' : 's'} found${added.length > 0 ? `; ${added.length} added to your tool list` : ''}. Call them by name:\n${lines.join('\n')}`,
    };
  }

  #session(request: ToolScopeRequest): SessionTools {
    const name = this.#options.name ?? '';
    if (!request.peer.stateless) {
      let session = this.#byPeer.get(request.peer);
      if (session === undefined) {
        const id = request.peer.sessionId;
        session = new SessionTools(request.peer, id === undefined ? undefined : `${name}|s:${id}`);
        this.#byPeer.set(request.peer, session);
      }
      return session;
    }
    const key = principalKey(request.info?.auth);
    let session = this.#byPrincipal.get(key);
    if (session === undefined) {
      if (this.#byPrincipal.size >= MAX_PRINCIPALS) this.#byPrincipal.delete(this.#byPrincipal.keys().next().value!);
      // Hashed: a principal key is free text, and braces would break the store's hash tag.
      session = new SessionTools('modern', `${name}|p:${createHash('sha256').update(key).digest('base64url')}`);
      this.#byPrincipal.set(key, session);
    }
    return session;
  }
}

/**
 * The upstream tools of a source that match a search (BM25 over names, titles and
 * descriptions), best first: what find_tools and code mode's search_tools return.
 *
 * @example
 * ```ts
 * searchCatalog(registry, view, { query: 'delete a file', readOnly: false }).map((t) => t.name);
 * ```
 */
export function searchCatalog(
  registry: ToolRegistry,
  base: ToolSource,
  args: { query: string; readOnly?: boolean | undefined; server?: string | undefined; limit?: number | undefined },
  serverOf: (tool: ToolDefinition) => string | undefined = defaultServerOf,
): ToolDefinition[] {
  const { server } = args;
  return registry.search({
    text: args.query,
    ranking: 'bm25',
    ...(args.readOnly === undefined ? {} : { readOnly: args.readOnly }),
    limit: args.limit ?? DEFAULT_LIMIT,
    // Only upstream tools (the gateway's own carry no gateway meta). The registry's search lists
    // only what the registry lists: asking it again per tool is skipped.
    where: (tool) =>
      tool.meta?.[GATEWAY_META_KEY] !== undefined &&
      (base === registry || base.get(tool.name) !== undefined) &&
      (server === undefined || serverOf(tool) === server),
  }).tools;
}

/** What find_tools reports per tool (also its `structuredContent`). */
export interface FoundTool {
  name: string;
  title?: string;
  description: string;
  server?: string;
  annotations: Record<string, unknown>;
}

/** A tool as find_tools and search_tools report it. */
export function foundTool(tool: ToolDefinition, server: string | undefined): FoundTool {
  const wire = tool.wire as WireTool & { annotations?: Record<string, unknown> };
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    ...(server === undefined ? {} : { server }),
    annotations: { ...(wire.annotations ?? {}) },
  };
}

function defaultServerOf(tool: ToolDefinition): string | undefined {
  return (tool.meta?.[GATEWAY_META_KEY] as { server?: string } | undefined)?.server;
}

/** The hints in a few words: read-only, writes (additive), writes (destructive). */
export function hintSummary(a: Record<string, unknown>): string {
  if (a.readOnlyHint === true) return 'read-only';
  return a.destructiveHint === false ? 'writes (additive)' : 'writes (destructive)';
}

/** A description's first line, cut at 200 characters. */
export function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 197)}…` : line;
}

/** One session's view of a tool source (the registry, or an auth-scoped view of it). */
class SessionView implements ToolSource {
  readonly #search: ToolSearch;
  readonly #session: SessionTools;
  readonly #base: ToolSource;
  readonly #find: ToolDefinition;
  #cacheKey = '';
  #listed: readonly WireTool[] = [];
  #json: string | undefined;

  constructor(search: ToolSearch, session: SessionTools, base: ToolSource) {
    this.#search = search;
    this.#session = session;
    this.#base = base;
    const handler = async (args: unknown, _ctx: ToolContext) => {
      const found = await search.find(session, base, args as FindArgs);
      return { content: [{ type: 'text' as const, text: found.text }], structuredContent: { tools: found.tools } };
    };
    this.#find = { ...search.definition, handler } as ToolDefinition;
  }

  get(name: string): ToolDefinition | undefined {
    if (name === FIND_TOOLS) return this.#find;
    return this.#search.listed(this.#session, name) ? this.#base.get(name) : undefined;
  }

  callable(name: string): ToolDefinition | undefined {
    if (name === FIND_TOOLS) return this.#find;
    return this.#search.listed(this.#session, name) ? this.#base.callable(name) : undefined;
  }

  manifest(options: { cursor?: string; limit?: number } = {}): { tools: readonly WireTool[]; nextCursor?: string } {
    return pageOfNamed(this.#list(), options);
  }

  manifestJson(options: { cursor?: string; limit?: number } = {}): string {
    if (options.cursor === undefined && options.limit === undefined) {
      this.#list();
      this.#json ??= JSON.stringify({ tools: this.#listed });
      return this.#json;
    }
    return JSON.stringify(this.manifest(options));
  }

  on(event: 'changed', listener: (event: { names: readonly string[] }) => void): () => void {
    return this.#base.on(event, listener);
  }

  unknownToolMessage(name: string): string {
    if (this.#base.get(name) !== undefined) {
      return `Tool ${name} is not in this session's tool list yet: call ${FIND_TOOLS} with what you want to do (e.g. {"query": "…"}) to add it, then call it.`;
    }
    return `Unknown tool: ${name}. This gateway lists its tools on demand: call ${FIND_TOOLS} with what you want to do to find the right tool.`;
  }

  #list(): readonly WireTool[] {
    const key = `${this.#search.toolsVersion}:${this.#session.version}`;
    if (key !== this.#cacheKey) {
      this.#cacheKey = key;
      this.#json = undefined;
      const tools = this.#base.manifest().tools.filter((wire) => this.get(wire.name) !== undefined);
      this.#listed = tools;
    }
    return this.#listed;
  }
}
