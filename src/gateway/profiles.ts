/**
 * Profiles: named slices of the gateway, each its own endpoint
 * (`/mcp/<name>` over HTTP, `--profile <name>` over stdio) over the same
 * upstreams: some servers, some tools (globs), only read-only tools, and all
 * tools listed or search mode. A profile is a filter on the gateway's tools,
 * applied per request through the engine's `toolScope`, so it also holds for
 * calls: a tool outside the profile is neither listed nor callable there.
 */
import picomatch from 'picomatch';
import type { ToolScope } from '../engine/engine.js';
import type { ScriptLimits } from '../host/code-mode/types.js';
import type { TaintMode } from '../host/types.js';
import type { ToolSource } from '../pipeline/types.js';
import { pageOfNamed } from '../registry/cursor.js';
import type { AuthInfo, ToolDefinition, WireTool } from '../tool/types.js';
import { departmentOf, groupsOf, type IdentityClaimNames } from './identity-claims.js';
import { GATEWAY_META_KEY } from './proxy-tool.js';
import { FIND_TOOLS } from './tool-search.js';

/** One profile in the gateway config. */
export interface ProfileConfig {
  /** Only these upstream servers (default: all). */
  servers?: string[];
  /** Only tools matching these globs, on the listed name or on `server__tool` (default: all). */
  tools?: string[];
  /** Only tools whose (honest, tightened) hints say read-only. */
  readOnly?: boolean;
  /** `all` (default), `search` (find_tools; see tool-search.ts) or `code` (scripts; see code-mode/). */
  toolList?: 'all' | 'search' | 'code';
  /** Taint on this endpoint (default: the gateway's `taint`); see docs/gateway/taint.md. */
  taint?: TaintMode;
  /** Code mode: this endpoint's script limits, over the gateway's `codeMode`. */
  codeMode?: ScriptLimits;
  /**
   * Only people whose verified token names one of these groups (the `groupsClaim`) see and
   * call this profile's tools; anyone else gets an empty list.
   */
  groups?: string[];
  /** Only people whose token's department (the `departmentClaim`) is one of these. */
  departments?: string[];
}

/**
 * Whether a person's verified token admits them to a profile (its `groups` and
 * `departments`, when set: one of each must match).
 *
 * @example
 * ```ts
 * profileAdmits({ groups: ['finance'] }, {})(ctx.auth); // true for a token with groups: ['finance']
 * ```
 */
export function profileAdmits(
  profile: ProfileConfig,
  claims: IdentityClaimNames,
): ((auth: AuthInfo | undefined) => boolean) | undefined {
  const { groups, departments } = profile;
  if (groups === undefined && departments === undefined) return undefined;
  return (auth) =>
    (groups === undefined || groupsOf(auth, claims.groupsClaim).some((g) => groups.includes(g))) &&
    (departments === undefined || departments.includes(departmentOf(auth, claims.departmentClaim)));
}

/** Profile names are URL path segments and CLI words. */
export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * The test a tool must pass to be in a profile.
 *
 * @example
 * ```ts
 * const keep = profileFilter({ servers: ['memory'], readOnly: true });
 * keep(registry.get('memory__read_graph')!); // true
 * ```
 */
export function profileFilter(profile: ProfileConfig): (tool: ToolDefinition) => boolean {
  const servers = profile.servers ? new Set(profile.servers) : undefined;
  const globs = profile.tools && profile.tools.length > 0 ? picomatch(profile.tools) : undefined;
  return (tool) => {
    if (tool.name === FIND_TOOLS) return true;
    const meta = tool.meta?.[GATEWAY_META_KEY] as { server?: string; tool?: string } | undefined;
    if (servers && (meta?.server === undefined || !servers.has(meta.server))) return false;
    if (globs && !globs(tool.name) && !(meta?.server && meta.tool && globs(`${meta.server}__${meta.tool}`)))
      return false;
    if (profile.readOnly && !tool.hints.readOnlyHint) return false;
    return true;
  };
}

/**
 * A `toolScope` that narrows the tools by `keep` and then, in search mode,
 * hands the narrowed tools to the session's search.
 *
 * @example
 * ```ts
 * createServer({ registry, toolScope: filteredScope({ keep: profileFilter(profile), version: () => registry.version }) });
 * ```
 */
export function filteredScope(options: {
  keep: (tool: ToolDefinition) => boolean;
  /** Changes whenever the underlying tools change (the registry's version; with rules, theirs too). */
  version: () => number | string;
  /** What narrows the filtered tools further per request: search mode's session lists, or code mode. */
  search?: { scope: ToolScope } | undefined;
  /** The tools when no authorizer narrowed them. */
  tools: ToolSource;
  /** Who may use these tools at all (a profile's `groups` / `departments`); others see none. */
  admits?: ((auth: AuthInfo | undefined) => boolean) | undefined;
  /** Why a person not admitted cannot call a tool here. */
  refusal?: string;
}): ToolScope {
  const views = new WeakMap<ToolSource, FilteredTools>();
  let closed: FilteredTools | undefined;
  return (request) => {
    if (options.admits && !options.admits(request.info?.auth)) {
      closed ??= new FilteredTools(
        options.tools,
        () => false,
        options.version,
        () => options.refusal,
      );
      return closed;
    }
    const source = request.info?.tools ?? options.tools;
    let view = views.get(source);
    if (view === undefined) {
      view = new FilteredTools(source, options.keep, options.version);
      views.set(source, view);
    }
    return options.search ? options.search.scope({ ...request, info: { ...request.info, tools: view } }) : view;
  };
}

/** The tools of a source that pass a test (list cached per source version). */
export class FilteredTools implements ToolSource {
  readonly #source: ToolSource;
  readonly #keep: (tool: ToolDefinition) => boolean;
  readonly #version: () => number | string;
  readonly #message: ((name: string) => string | undefined) | undefined;
  #at: number | string = -1;
  #listed: readonly WireTool[] = [];
  #json: string | undefined;

  constructor(
    source: ToolSource,
    keep: (tool: ToolDefinition) => boolean,
    /** Changes whenever what `keep` says or the source's tools may have changed. */
    version: () => number | string,
    /** Why a tool that exists but fails the test is refused (default: the source's message). */
    message?: (name: string) => string | undefined,
  ) {
    this.#source = source;
    this.#keep = keep;
    this.#version = version;
    this.#message = message;
  }

  get(name: string): ToolDefinition | undefined {
    const tool = this.#source.get(name);
    return tool !== undefined && this.#keep(tool) ? tool : undefined;
  }

  callable(name: string): ToolDefinition | undefined {
    const tool = this.#source.callable(name);
    return tool !== undefined && this.#keep(tool) ? tool : undefined;
  }

  manifest(options: { cursor?: string; limit?: number } = {}): { tools: readonly WireTool[]; nextCursor?: string } {
    return pageOfNamed(this.#list(), options);
  }

  manifestJson(options: { cursor?: string; limit?: number } = {}): string {
    if (options.cursor === undefined && options.limit === undefined) {
      const listed = this.#list();
      this.#json ??= JSON.stringify({ tools: listed });
      return this.#json;
    }
    return JSON.stringify(this.manifest(options));
  }

  on(event: 'changed', listener: (event: { names: readonly string[] }) => void): () => void {
    return this.#source.on(event, listener);
  }

  unknownToolMessage(name: string): string | undefined {
    return this.#message?.(name) ?? this.#source.unknownToolMessage?.(name);
  }

  #list(): readonly WireTool[] {
    const version = this.#version();
    if (version !== this.#at) {
      this.#at = version;
      this.#json = undefined;
      this.#listed = this.#source.manifest().tools.filter((wire) => this.get(wire.name) !== undefined);
    }
    return this.#listed;
  }
}
