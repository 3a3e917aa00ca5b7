/**
 * The gateway's downstream endpoints: the full gateway and one per profile, each a
 * candor server over the one shared tool registry, narrowed per request by its
 * profile, its search mode (a session lists what it found) and the Cedar rules.
 * A server's rate limit and the quotas are middleware shared by every endpoint, so the
 * budgets hold across profiles.
 */
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { ToolScope } from '../engine/engine.js';
import type { TaintMode } from '../host/types.js';
import { compose } from '../pipeline/compose.js';
import { rateLimit } from '../pipeline/middleware/rate-limit.js';
import type { Middleware } from '../pipeline/types.js';
import type { PromptRegistry } from '../prompts/registry.js';
import type { ToolRegistry } from '../registry/registry.js';
import type { ResourceRegistry } from '../resources/registry.js';
import { type CandorServer, createServer } from '../server/create-server.js';
import { redisFoundTools } from '../stores/found-tools-store.js';
import type { ToolDefinition } from '../tool/types.js';
import type { ServerLogger } from '../util/logger.js';
import type { AuditEntry } from './audit-log.js';
import { CODE_TOOL_NAMES, CodeMode } from './code-mode/code-tools.js';
import type { ScriptStore } from './code-mode/script-store.js';
import type { CallTracer } from './code-mode/script-tracing.js';
import { filteredScope, profileAdmits, profileFilter } from './profiles.js';
import { GATEWAY_META_KEY } from './proxy-tool.js';
import { quotaAuditEntry } from './quotas/quota-audit.js';
import type { QuotaCounts } from './quotas/quota-counts.js';
import { quotaMiddleware } from './quotas/quota-middleware.js';
import { TRUST_ANNOTATIONS } from './results/trust-annotations.js';
import type { GatewayRules } from './rules.js';
import { TAINT_MODE_STATE } from './taint-sessions.js';
import { FIND_TOOLS, ToolSearch } from './tool-search.js';
import type { GatewayOptions } from './types.js';

/** The searches of the endpoints in search mode, made before any endpoint exists. */
export interface ToolSearches {
  /** The full gateway's, when `toolList` is "search". */
  main?: ToolSearch | undefined;
  /** Per profile in search mode. */
  profiles: Map<string, ToolSearch>;
  /** The one whose find_tools definition is registered (the tool is the same for all). */
  findTools?: ToolSearch | undefined;
}

/** The endpoints, once built. */
export interface Endpoints {
  server: CandorServer;
  profiles: Map<string, CandorServer>;
  /** The quotas' counts when there is no Redis (written to `quotaCounts` when configured). */
  quotaCounts: QuotaCounts;
}

/**
 * One search per endpoint in search mode; `endpointOf` finds the endpoint later
 * (undefined: the full gateway), to notify its sessions of what they found.
 *
 * @example
 * ```ts
 * const searches = toolSearches(options, { registry, version, logger, endpointOf: (name) => endpoints.get(name) });
 * ```
 */
export function toolSearches(
  options: GatewayOptions,
  context: {
    registry: ToolRegistry;
    version: () => number | string;
    logger: ServerLogger;
    endpointOf: (profile: string | undefined) => CandorServer;
  },
): ToolSearches {
  const { registry, version, logger, endpointOf } = context;
  const searchFor = (name?: string) =>
    new ToolSearch({
      registry,
      version,
      ...(options.alwaysList ? { alwaysList: options.alwaysList } : {}),
      notify: (target) => endpointOf(name).dispatcher.notifyToolsChanged(target),
      peers: () => endpointOf(name).dispatcher.peers,
      logger,
      ...(name === undefined ? {} : { name }),
    });
  const main = options.toolList === 'search' ? searchFor() : undefined;
  const profiles = new Map<string, ToolSearch>();
  for (const [name, profile] of Object.entries(options.profiles ?? {})) {
    if (profile.toolList === 'search') profiles.set(name, searchFor(name));
  }
  const findTools = main ?? profiles.values().next().value;
  if (findTools) registry.add(findTools.definition);
  return { main, profiles, findTools };
}

/**
 * Build the full gateway's endpoint and one per profile.
 *
 * @example
 * ```ts
 * const { server, profiles } = serveEndpoints(options, { registry, resources, prompts, logger, version, searches, prefix });
 * ```
 */
export function serveEndpoints(
  options: GatewayOptions,
  context: {
    registry: ToolRegistry;
    resources: ResourceRegistry;
    prompts: PromptRegistry;
    logger: ServerLogger;
    version: () => number | string;
    searches: ToolSearches;
    prefix: string;
    rules?: GatewayRules | undefined;
    /** Where audit records go (a call refused by a quota is recorded too). */
    record?: ((entry: AuditEntry) => void) | undefined;
    /** The quotas' counts without Redis: in memory (any window length), and in the `quotaCounts` file when set. */
    quotaCounts: QuotaCounts;
    /** Spans for the calls of code-mode scripts, once OpenTelemetry is loaded. */
    scriptTracer?: () => CallTracer | undefined;
    /** Code mode's stored scripts. */
    scripts?: ScriptStore | undefined;
    /** A tool's pin (the host catalog's hash), for the stored scripts that call it. */
    pinOf?: (tool: ToolDefinition) => string;
  },
): Endpoints {
  const { registry, resources, prompts, logger, version, searches, prefix, rules, record, quotaCounts } = context;
  let server: CandorServer | undefined;
  const middleware = [
    ...serverRateLimits(options, logger, () => server),
    // With shared state, every instance counts on one store (see quotas/quota-middleware.ts).
    ...quotaMiddleware({
      quotas: options.quotas ?? [],
      logger,
      store: (spec) => server?.shared?.rateLimitStore(spec) ?? quotaCounts.limiter(spec),
      ...(record ? { onRefused: (ctx, quota) => record(quotaAuditEntry(ctx, quota)) } : {}),
    }),
  ];
  // Code mode (toolList "code"): one set of tools for every endpoint that uses it; its scripts'
  // calls go through the same shared middleware as the endpoints' own calls.
  const coding =
    options.toolList === 'code' || Object.values(options.profiles ?? {}).some((p) => p.toolList === 'code')
      ? new CodeMode({
          registry,
          // A tool's own rate limit (`rateLimits.tools`) too: the pipeline applies it to direct calls.
          middleware: compose([
            ...middleware,
            rateLimit({
              logger,
              store: (spec) => server?.shared?.rateLimitStore(spec) ?? new RateLimiterMemory(spec),
            }),
          ]),
          limits: options.codeMode,
          record,
          ...(context.scriptTracer ? { tracer: context.scriptTracer } : {}),
          store: context.scripts,
          version,
          ...(context.pinOf ? { pinOf: context.pinOf } : {}),
        })
      : undefined;
  if (coding) registry.add(...coding.definitions);
  // A stored script saved or edited changes the lists of code-mode endpoints (not the registry's).
  context.scripts?.onChange(() => {
    for (const endpoint of [server!, ...profiles.values()]) {
      endpoint.dispatcher.broadcast({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      endpoint.dispatcher.notifyToolsChanged('modern');
    }
  });
  // The gateway's own tools are listed only where their mode is on.
  const own = (t: ToolDefinition) => t.name === FIND_TOOLS || CODE_TOOL_NAMES.has(t.name);
  const endpoint = (label: string | undefined, toolScope: ToolScope | undefined, searching: boolean) => {
    const taint = label === undefined ? undefined : options.profiles?.[label]?.taint;
    return createServer({
      name: `${options.name ?? 'candor-gateway'}${label === undefined ? '' : `/${label}`}`,
      version: options.version ?? '0.1.0',
      instructions: `candor gateway${label === undefined ? '' : ` (profile ${label})`}: tools of several MCP servers${prefix === 'always' ? ', namespaced server__tool,' : ''} with honest annotations. Calls that need a person are confirmed through elicitation.${searching ? ' Only some tools are listed at first: call find_tools to find the others.' : ''}`,
      registry,
      resources,
      prompts,
      logger,
      lintOnStart: false,
      // Upstream tools that can run as tasks can here too, for clients of either era (proxy-tool.ts);
      // they are added after start, so tasks are on from the start. With Redis they live there.
      tasks: {},
      // Labels on guarded results, for clients that declare the extension too (results/trust-annotations.ts).
      capabilities: { extensions: { [TRUST_ANNOTATIONS]: {} } },
      ...(options.auth ? { auth: options.auth } : {}),
      ...(options.redis === undefined ? {} : { redis: options.redis }),
      ...(toolScope ? { toolScope } : {}),
      // A session's list is its own: never cached for everyone (2026-07-28 cacheScope).
      ...(searching ? { modern: { cache: { lists: { ttlMs: 0, scope: 'private' as const } } } } : {}),
      middleware: taint === undefined ? middleware : [...middleware, profileTaint(taint)],
    });
  };
  // In "all" mode find_tools (registered for a profile in search mode) is not part of the full list.
  const mainScope =
    options.toolList === 'code'
      ? filteredScope({ keep: (t) => !own(t), version, tools: registry, search: coding })
      : (searches.main?.scope ??
        (searches.findTools || coding ? filteredScope({ keep: (t) => !own(t), version, tools: registry }) : undefined));
  const withRules = (scope: ToolScope | undefined) => (rules ? rules.scope(registry, version, scope) : scope);
  server = endpoint(undefined, withRules(mainScope), searches.main !== undefined);
  const profiles = new Map<string, CandorServer>();
  for (const [name, profile] of Object.entries(options.profiles ?? {})) {
    const profileSearch = searches.profiles.get(name);
    const keep = profileFilter(profile);
    // A profile's own script limits, over the gateway's.
    const inner =
      profile.toolList === 'code' ? coding?.scopeFor({ ...options.codeMode, ...profile.codeMode }) : profileSearch;
    const admits = profileAdmits(profile, options);
    const scope = filteredScope({
      keep: profileSearch ? (t) => !CODE_TOOL_NAMES.has(t.name) && keep(t) : (t) => !own(t) && keep(t),
      version,
      tools: registry,
      ...(admits
        ? {
            admits,
            refusal: `The profile ${name} is for ${[
              profile.groups ? `the groups ${profile.groups.join(', ')}` : '',
              profile.departments ? `the departments ${profile.departments.join(', ')}` : '',
            ]
              .filter((s) => s !== '')
              .join(' in ')} only (from your token's claims).`,
          }
        : {}),
      ...(inner ? { search: inner } : {}),
    });
    profiles.set(name, endpoint(name, withRules(scope), profileSearch !== undefined));
  }
  // With shared state (Redis), a session's found tools are too: any instance lists and calls them.
  if (searches.main && server.shared) searches.main.share(redisFoundTools(server.shared.ready));
  for (const [name, profileSearch] of searches.profiles) {
    const shared = profiles.get(name)!.shared;
    if (shared) profileSearch.share(redisFoundTools(shared.ready));
  }
  return { server, profiles, quotaCounts };
}

/** A profile's own taint setting, handed to the call path (upstream-call.ts) with the call. */
function profileTaint(mode: TaintMode): Middleware {
  return async function taintSetting(ctx, next) {
    ctx.state.set(TAINT_MODE_STATE, mode);
    return next();
  };
}

/** The per-server rate limits: one count per server, shared by all of its tools and endpoints. */
function serverRateLimits(
  options: GatewayOptions,
  logger: ServerLogger,
  server: () => CandorServer | undefined,
): Middleware[] {
  const limits = options.rateLimits?.servers ?? {};
  if (Object.keys(limits).length === 0) return [];
  return [
    rateLimit({
      logger,
      // With shared state (REDIS_URL), one budget across gateway instances; built at the first call.
      store: (spec) => server()?.shared?.rateLimitStore(spec) ?? new RateLimiterMemory(spec),
      key: () => 'server',
      limitOf: (ctx) => {
        const meta = ctx.tool.meta?.[GATEWAY_META_KEY] as { server?: string } | undefined;
        const limit = meta?.server === undefined ? undefined : limits[meta.server];
        return limit ? { name: `server "${meta!.server}"`, limit } : undefined;
      },
    }),
  ];
}
