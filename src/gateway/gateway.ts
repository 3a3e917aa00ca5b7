/**
 * `createGateway`: one MCP endpoint in front of many upstream servers (issue
 * 10). Upstreams are reached by `candor/host` (catalog, trust, overrides,
 * policy, pins, command gate, approvals); downstream clients are served by the
 * engine (`createServer`: both eras, stdio and Streamable HTTP). Every call goes
 * through the host's policy, whatever the downstream host does with the hints.
 */
import { unwatchFile, watchFile } from 'node:fs';
import path from 'node:path';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { findSignInRequired } from '../auth/client/sign-in-required.js';
import { memoryVaultBackend, redisVaultBackend, TokenVault, tokenKeyFrom } from '../auth/client/token-vault.js';
import type { ToolScope } from '../engine/engine.js';
import { InputRequiredError } from '../engine/modern/call-context.js';
import { CandorError } from '../errors.js';
import { createHost, type Host } from '../host/host.js';
import { Overrides } from '../host/overrides.js';
import { Policy } from '../host/policy.js';
import { routedCalls } from '../host/routed-calls.js';
import type { CallOutcome, CatalogTool, RoutedRunOptions } from '../host/types.js';
import { rateLimit } from '../pipeline/middleware/rate-limit.js';
import { toolErrorResult } from '../pipeline/result.js';
import { PromptRegistry } from '../prompts/registry.js';
import { ToolRegistry } from '../registry/registry.js';
import { ResourceRegistry } from '../resources/registry.js';
import { type CandorServer, createServer } from '../server/create-server.js';
import { redisFoundTools } from '../stores/found-tools-store.js';
import type { CallToolResult, ToolContext } from '../tool/types.js';
import { stderrLogger } from '../util/logger.js';
import { type CallScope, confirmDownstream } from './ask.js';
import { type AuditEntry, auditArgs, auditSink } from './audit-log.js';
import { Door } from './door.js';
import { gatewayMetrics } from './metrics.js';
import { CALLBACK_PATH, type PerUserServer, PerUserSignIns } from './per-user.js';
import { filteredScope, profileFilter } from './profiles.js';
import { GATEWAY_META_KEY, proxyTool } from './proxy-tool.js';
import { GatewayRules } from './rules.js';
import { sandboxUpstreams } from './sandboxing.js';
import { gatewayStatusResource, type UpstreamStatus } from './status.js';
import { clashMessage, downstreamNames, type NameClash } from './tool-names.js';
import { FIND_TOOLS, ToolSearch } from './tool-search.js';
import type { GatewayOptions } from './types.js';
import { upstreamExtras } from './upstream-extras.js';
import { FORWARDED_CAPABILITIES, forwardUpstreamRequests, InFlight } from './upstream-requests.js';

/** A running gateway: serve it like a candor server. */
export interface Gateway {
  /** The downstream server (engine): `listen()`, `stdio()`, `nodeHandler()`, `fetchHandler()`, `connectMemory()`. */
  readonly server: CandorServer;
  /** The upstream side: catalog, policy, pins. */
  readonly host: Host;
  listen: CandorServer['listen'];
  stdio: CandorServer['stdio'];
  nodeHandler: CandorServer['nodeHandler'];
  fetchHandler: CandorServer['fetchHandler'];
  /** A profile's endpoint (serve it with `.stdio()`; over HTTP `listen()` mounts it at `/mcp/<name>`). */
  profile(name: string): CandorServer;
  /** Each upstream's state, as the `candor://gateway/status` resource reports it. */
  status(): UpstreamStatus[];
  /** Stop serving and close every upstream. */
  close(): Promise<void>;
}

const SEPARATOR = '__';
const UPSTREAM_META = Object.freeze({ 'io.modelcontextprotocol/logLevel': 'debug' });

/**
 * Start a gateway: connect the upstreams (those that fail are retried with
 * backoff while the others serve), and build the downstream server.
 *
 * @example
 * ```ts
 * import { createGateway } from 'candor/gateway';
 *
 * const gateway = await createGateway({
 *   servers: {
 *     memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
 *     files: { url: 'http://127.0.0.1:3000/mcp', trust: 'trusted' },
 *   },
 *   policy: 'default',
 *   lock: { file: 'candor.lock.json' },
 *   audit: 'gateway-audit.jsonl',
 * });
 * await gateway.listen({ port: 4000 }); // point Claude Code, Cursor or VS Code at http://127.0.0.1:4000/mcp
 * ```
 */
export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  const logger = options.logger ?? stderrLogger({ name: 'candor gateway' });
  // Rules first: a file that does not parse or validate stops the gateway before any upstream starts.
  const rules =
    options.rules === undefined
      ? undefined
      : await GatewayRules.load(options.rules, options.groupsClaim ? { groupsClaim: options.groupsClaim } : {});
  const policyConfig = options.policy ?? 'default';
  // The host's own Policy class, for the audit's "who decided" label; the host decides the call.
  const policy = new Policy(policyConfig);
  const inFlight = new InFlight();
  const audit = options.audit === undefined ? undefined : auditSink(options.audit);
  // OpenTelemetry metrics when @opentelemetry/api is installed (the application registers the provider).
  const metrics = await gatewayMetrics();
  const timeoutMs = options.timeoutMs ?? 60_000;
  const approvalsFile =
    options.approvalsFile ??
    (options.lock ? path.join(path.dirname(path.resolve(options.lock.file)), 'candor.approvals.json') : undefined);

  // "oauth-per-user" upstreams: checked before anything starts (issue 19).
  const perUserServers = perUserServersOf(options);
  const tokenKey = perUserServers.size > 0 ? tokenKeyFrom(options.tokenKey ?? process.env.CANDOR_TOKEN_KEY) : undefined;
  const sandboxed = await sandboxUpstreams(options, logger);
  const servers = Object.fromEntries(
    Object.entries(sandboxed.servers).map(([name, config]) => [
      name,
      { connectTimeoutMs: 15_000, stderr: 'pipe' as const, ...config, optional: true },
    ]),
  );
  let host: Host;
  try {
    host = await createHost({
      servers,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      policy: policyConfig,
      ...(options.overrides !== undefined ? { overrides: options.overrides } : {}),
      ...(options.lock
        ? { pins: { file: options.lock.file, onChange: options.lock.onChange, onNew: options.lock.onNew } }
        : {}),
      ...(approvalsFile !== undefined ? { approvalsFile } : {}),
      ...(options.commandTools ? { commandTools: options.commandTools } : {}),
      onConfirm: confirmDownstream,
      confirmTimeoutMs: options.confirmTimeoutMs ?? 300_000,
      timeoutMs,
      tightenHints: true,
      clientCapabilities: FORWARDED_CAPABILITIES,
      onClient: (server, client) => forwardUpstreamRequests(server, client, inFlight),
    });
  } catch (error) {
    await sandboxed.dispose();
    throw error;
  }

  const routed = routedCalls(host);
  const registry = new ToolRegistry();
  // A list is cached until the tools change, or the rules (read again when their file changes).
  const version = rules ? () => `${registry.version}.${rules.generation}` : () => registry.version;
  // Search mode (issue 22): sessions list what they found. Servers are built below, before any request.
  let server: CandorServer;
  const profileServers = new Map<string, CandorServer>();
  const searchFor = (endpoint: () => CandorServer, name?: string) =>
    new ToolSearch({
      registry,
      version,
      ...(options.alwaysList ? { alwaysList: options.alwaysList } : {}),
      notify: (target) => endpoint().dispatcher.notifyToolsChanged(target),
      peers: () => endpoint().dispatcher.peers,
      logger,
      ...(name === undefined ? {} : { name }),
    });
  const search = options.toolList === 'search' ? searchFor(() => server) : undefined;
  const profileSearches = new Map<string, ToolSearch>();
  for (const [name, profile] of Object.entries(options.profiles ?? {})) {
    if (profile.toolList === 'search')
      profileSearches.set(
        name,
        searchFor(() => profileServers.get(name)!, name),
      );
  }
  const findTools = search ?? profileSearches.values().next().value;
  if (findTools) registry.add(findTools.definition);
  const resources = new ResourceRegistry();
  const prompts = new PromptRegistry();
  const upstream = new Map<string, UpstreamStatus>();
  for (const name of Object.keys(options.servers)) {
    const config = options.servers[name]!;
    const status: UpstreamStatus = { name, state: 'starting', trust: config.trust ?? 'untrusted', tools: 0 };
    if (config.command !== undefined) status.sandbox = sandboxed.summaries.get(name) ?? false;
    const refusal = sandboxed.refused.get(name);
    if (refusal !== undefined) Object.assign(status, { state: 'down', error: refusal });
    upstream.set(name, status);
  }

  let perUser: PerUserSignIns | undefined;
  const call = async (tool: CatalogTool, args: Record<string, unknown>, ctx: ToolContext): Promise<CallToolResult> => {
    const scope: CallScope = { ctx, server: tool.server };
    if (rules) {
      const principal = rules.principal(ctx.auth);
      // Defence in depth: the person's tool list already leaves out what the rules forbid.
      if (!rules.permits(principal, ctx.tool, 'call')) {
        return toolErrorResult(
          `candor gateway: ${ctx.tool.name} is not permitted to User::"${principal.id}" by the gateway's rules.`,
        );
      }
      scope.unconfirmed = rules.permits(principal, ctx.tool, 'call_unconfirmed');
    }
    const started = performance.now();
    const progress = (_: number, p: { progress: number; total?: number; message?: string }) =>
      void ctx.progress(p.progress, p.total, p.message);
    // 2026-07-28 upstreams send log messages only when the request names a level (SEP-2575);
    // the downstream engine filters by its own client's level.
    const run: RoutedRunOptions = {
      signal: ctx.signal,
      onProgress: progress,
      timeoutMs,
      meta: UPSTREAM_META,
      confirmContext: scope,
    };
    if (perUser?.has(tool.server)) {
      // Each person's own sign-in and connection, asked for once the host has authorised the call.
      run.connection = async (server) => {
        try {
          return await perUser!.connectionFor(server, ctx);
        } catch (error) {
          if (error instanceof InputRequiredError) scope.inputRequired = error;
          throw error;
        }
      };
    }
    const outcome = await inFlight.track(
      scope,
      () =>
        tool.visibility.includes('model')
          ? routed.call(tool.name, args, run)
          : routed.callFromApp({ server: tool.server, tool: tool.toolName, args }, run),
      options.servers[tool.server]?.command === undefined,
    );
    if (scope.inputRequired) throw scope.inputRequired;
    if (audit || metrics) {
      const entry = auditEntry(tool, args, ctx, scope, outcome, performance.now() - started, policy);
      audit?.(entry);
      metrics?.(entry);
    }
    return resultOf(tool, outcome, scope);
  };

  const door = new Door({
    host,
    ...(options.lock ? { lockFile: path.resolve(options.lock.file) } : {}),
    ...(options.configFile ? { configFile: options.configFile } : {}),
    ...(options.sandbox ? { sandbox: true } : {}),
    ...(options.overrides === undefined
      ? {}
      : {
          overrides:
            typeof options.overrides === 'string'
              ? await Overrides.load(options.overrides)
              : new Overrides(options.overrides),
        }),
    logger,
    servers: Object.keys(options.servers),
    trusted: new Set(Object.keys(options.servers).filter((name) => options.servers[name]!.trust === 'trusted')),
  });
  const statusOf = () =>
    [...upstream.values()].map((s) => ({
      ...s,
      ...door.status(s.name),
      ...(perUser?.has(s.name) ? { perUser: { connectedPeople: perUser.connectedPeople(s.name) } } : {}),
    }));

  const defined = new Map<string, string>();
  const prefix = options.prefix ?? 'always';
  const order = Object.keys(options.servers);
  const reserved = new Set(findTools ? [findTools.definition.name] : []);
  let clashes: NameClash[] = [];
  const sync = () => {
    door.review();
    const named = downstreamNames(
      host.offered().filter((tool) => door.admits(tool)),
      prefix,
      order,
      reserved,
    );
    const offered = named.tools;
    const fresh = named.clashes.filter((c) => !clashes.some((o) => o.name === c.name && o.servers[1] === c.servers[1]));
    if (fresh.length > 0) logger.error(`${clashMessage(fresh)} Until then the later server's tool is not listed.`);
    clashes = named.clashes;
    const remove: string[] = [];
    const add = [];
    for (const name of defined.keys()) if (!offered.has(name)) remove.push(name);
    for (const [name, tool] of offered) {
      const key = `${tool.name}|${tool.hash}|${JSON.stringify(tool.hints)}|${tool.pin.status}|${tool.trust}`;
      if (defined.get(name) === key) continue;
      try {
        add.push(
          proxyTool(tool, {
            name,
            handler: (args, ctx) => call(host.tool(tool.name) ?? tool, args ?? {}, ctx),
            rateLimit: options.rateLimits?.tools?.[tool.name],
            timeoutMs: timeoutMs + (options.confirmTimeoutMs ?? 300_000),
          }),
        );
        if (defined.has(name)) remove.push(name);
        defined.set(name, key);
      } catch (error) {
        logger.warn(`tool ${name} cannot be served: ${(error as Error).message}`);
      }
    }
    for (const name of remove) if (!offered.has(name)) defined.delete(name);
    if (remove.length > 0 || add.length > 0) registry.replace({ remove, add });
    for (const state of upstream.values()) state.tools = host.catalog().filter((t) => t.server === state.name).length;
  };

  let syncTimer: ReturnType<typeof setTimeout> | undefined;
  const scheduleSync = () => {
    // A flood of list_changed from one upstream becomes at most one downstream notification per window.
    if (syncTimer) return;
    syncTimer = setTimeout(() => {
      syncTimer = undefined;
      sync();
    }, 100);
  };
  host.on('tools-changed', ({ server, report }) => {
    if (report && (report.changed.length > 0 || report.renamed.length > 0)) {
      logger.warn(
        `${server}: tools changed since pinned: ${[...report.changed.map((t) => t.name), ...report.renamed.map((t) => t.to)].join(', ')}`,
      );
    }
    scheduleSync();
  });
  host.on('warning', ({ server, message }) => logger.warn(`${server ?? 'gateway'}: ${message}`));

  const extrasOf = new Map<string, { resources: string[]; prompts: string[] }>();
  const loadExtras = async (server: string) => {
    const client = host.client(server);
    if (!client) return;
    const extras = await upstreamExtras(server, client, SEPARATOR);
    for (const warning of extras.warnings) logger.warn(warning);
    const previous = extrasOf.get(server);
    if (previous) {
      resources.remove(...previous.resources);
      prompts.remove(...previous.prompts);
    }
    const taken = new Set((await resources.list()).resources.map((r) => r.uri));
    const fresh = extras.resources.filter((r) => {
      const key = r.kind === 'resource' ? r.uri : r.uriTemplate;
      if (r.kind === 'resource' && taken.has(key)) {
        logger.warn(`${server}: resource ${key} is served by another upstream already; skipped`);
        return false;
      }
      return true;
    });
    if (fresh.length > 0) resources.add(...fresh);
    if (extras.prompts.length > 0) prompts.add(...extras.prompts);
    extrasOf.set(server, {
      resources: fresh.map((r) => (r.kind === 'resource' ? r.uri : r.uriTemplate)),
      prompts: extras.prompts.map((p) => p.name),
    });
  };

  resources.add(gatewayStatusResource(statusOf));

  // Upstream health: report, retry with backoff, keep the others serving.
  const initialDelay = options.reconnect?.initialDelayMs ?? 1_000;
  const maxDelay = options.reconnect?.maxDelayMs ?? 60_000;
  const retries = new Map<string, { attempt: number; next: number }>();
  const observe = async () => {
    for (const state of host.servers()) {
      const status = upstream.get(state.name)!;
      status.era = state.era;
      status.protocolVersion = state.protocolVersion;
      if (state.status === 'connected') {
        if (status.state !== 'up') {
          const wasDown = status.state === 'down';
          if (wasDown) logger.info(`${state.name}: upstream is back`);
          status.state = 'up';
          delete status.error;
          delete status.retryAt;
          delete status.signIn;
          retries.delete(state.name);
          // Its tools join the list now (an upstream that was down at start, or signed in since);
          // at start the first sync() below lists them.
          if (wasDown) scheduleSync();
          await loadExtras(state.name).catch((error: Error) => logger.warn(`${state.name}: ${error.message}`));
        }
        continue;
      }
      const now = Date.now();
      const retry = retries.get(state.name) ?? { attempt: 0, next: now };
      if (status.state !== 'down' || (state.signIn !== undefined && status.signIn !== state.signIn)) {
        status.state = 'down';
        if (state.signIn !== undefined) {
          // Not broken, only signed out: say the one thing that fixes it (issue 19).
          status.signIn = state.signIn;
          status.error = signInError(state.name, state.signIn);
          logger.warn(`${state.name}: ${status.error} (its tools join once signed in)`);
        } else {
          status.error = state.error ?? `the connection is ${state.status}`;
          logger.warn(`${state.name}: upstream is down (${status.error}); retrying with backoff`);
        }
      }
      if (now < retry.next) continue;
      retry.attempt += 1;
      retry.next = now + Math.min(maxDelay, initialDelay * 2 ** (retry.attempt - 1));
      status.retryAt = new Date(retry.next).toISOString();
      retries.set(state.name, retry);
      try {
        await host.refresh(state.name);
      } catch (error) {
        const required = findSignInRequired(error);
        status.error = required ? signInError(state.name, required.command) : (error as Error).message;
        if (required) status.signIn = required.command;
      }
    }
  };
  function signInError(name: string, command: string): string {
    const perPerson = perUserServers.has(name)
      ? ' (to list its tools; each person then signs in on their first call)'
      : '';
    return `needs sign-in: ${command}${perPerson}`;
  }
  let observing = false;
  const tick = () => {
    if (observing) return;
    observing = true;
    observe()
      .catch((error: Error) => logger.warn(`upstream check failed: ${error.message}`))
      .finally(() => {
        observing = false;
      });
  };
  await observe();
  sync();
  if (clashes.length > 0) {
    // prefix "never": two servers offer one name; refuse to start (issue 22), naming both.
    await host.close();
    await sandboxed.dispose();
    throw new CandorError(clashMessage(clashes), { code: 'invalid_gateway_config' });
  }
  const watchdog = setInterval(tick, 500);
  watchdog.unref();
  // Pinning is the approval: `candor pin` (or Approve in candor ui) rewrites the lockfile while we run.
  const lockFile = options.lock ? path.resolve(options.lock.file) : undefined;
  const onLockChange = () => {
    host.pins
      .reload()
      .then(sync)
      .catch((error: Error) => logger.warn(`cannot re-read the lockfile: ${error.message}`));
  };
  if (lockFile) watchFile(lockFile, { interval: 250 }, onLockChange).unref();
  // The rules are read again when their file changes; valid rules hold at once, a broken file changes nothing.
  const rulesFile = rules ? path.resolve(options.rules!) : undefined;
  const onRulesChange = () => {
    rules!
      .reload()
      .then(() => {
        logger.info(`rules reloaded from ${rulesFile}`);
        for (const endpoint of [server, ...profileServers.values()]) {
          endpoint.dispatcher.broadcast({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
          endpoint.dispatcher.notifyToolsChanged('modern');
        }
      })
      .catch((error: Error) => logger.error(`${error.message}\nThe rules in force stay until the file is fixed.`));
  };
  if (rulesFile) watchFile(rulesFile, { interval: 250 }, onRulesChange).unref();
  // cedar-wasm is slow until V8 has optimised it: pay that now, in slices, not on someone's first list.
  const warming = new AbortController();
  void rules?.warmUp({ signal: warming.signal });

  const serverLimits = options.rateLimits?.servers ?? {};
  // One middleware for every endpoint: a server's budget holds across profiles.
  const middleware =
    Object.keys(serverLimits).length === 0
      ? []
      : [
          rateLimit({
            logger,
            // With shared state (REDIS_URL), one budget across gateway instances; built at the first call.
            store: (spec) => server.shared?.rateLimitStore(spec) ?? new RateLimiterMemory(spec),
            // One count per server, shared by all of its tools.
            key: () => 'server',
            limitOf: (ctx) => {
              const meta = ctx.tool.meta?.[GATEWAY_META_KEY] as { server?: string } | undefined;
              const limit = meta?.server === undefined ? undefined : serverLimits[meta.server];
              return limit ? { name: `server "${meta!.server}"`, limit } : undefined;
            },
          }),
        ];
  const endpoint = (label: string | undefined, toolScope: ToolScope | undefined, searching: boolean) =>
    createServer({
      name: `${options.name ?? 'candor-gateway'}${label === undefined ? '' : `/${label}`}`,
      version: options.version ?? '0.1.0',
      instructions: `candor gateway${label === undefined ? '' : ` (profile ${label})`}: tools of several MCP servers${prefix === 'always' ? ', namespaced server__tool,' : ''} with honest annotations. Calls that need a person are confirmed through elicitation.${searching ? ' Only some tools are listed at first: call find_tools to find the others.' : ''}`,
      registry,
      resources,
      prompts,
      logger,
      lintOnStart: false,
      ...(options.auth ? { auth: options.auth } : {}),
      ...(options.redis === undefined ? {} : { redis: options.redis }),
      ...(toolScope ? { toolScope } : {}),
      // A session's list is its own: never cached for everyone (2026-07-28 cacheScope).
      ...(searching ? { modern: { cache: { lists: { ttlMs: 0, scope: 'private' as const } } } } : {}),
      middleware,
    });
  // In "all" mode find_tools (registered for a profile in search mode) is not part of the full list.
  const mainScope =
    search?.scope ??
    (findTools ? filteredScope({ keep: (t) => t.name !== FIND_TOOLS, version, tools: registry }) : undefined);
  const withRules = (scope: ToolScope | undefined) => (rules ? rules.scope(registry, version, scope) : scope);
  server = endpoint(undefined, withRules(mainScope), search !== undefined);
  for (const [name, profile] of Object.entries(options.profiles ?? {})) {
    const profileSearch = profileSearches.get(name);
    const keep = profileFilter(profile);
    const scope = filteredScope({
      keep: profileSearch ? keep : (t) => t.name !== FIND_TOOLS && keep(t),
      version,
      tools: registry,
      ...(profileSearch ? { search: profileSearch } : {}),
    });
    profileServers.set(name, endpoint(name, withRules(scope), profileSearch !== undefined));
  }
  // With shared state (Redis), a session's found tools are too: any instance lists and calls them.
  if (search && server.shared) search.share(redisFoundTools(server.shared.ready));
  for (const [name, profileSearch] of profileSearches) {
    const shared = profileServers.get(name)!.shared;
    if (shared) profileSearch.share(redisFoundTools(shared.ready));
  }
  perUser =
    tokenKey === undefined
      ? undefined
      : new PerUserSignIns({
          servers: perUserServers,
          vault: new TokenVault({
            key: tokenKey,
            backend: server.shared
              ? redisVaultBackend(() => server.shared!.ready.then((cluster) => cluster.redis.command))
              : memoryVaultBackend(),
            ...(server.shared ? { prefix: `${server.shared.prefix}oauth:` } : {}),
            clientScope: new URL(CALLBACK_PATH, new URL(options.auth!.resource).origin).href,
          }),
          origin: new URL(options.auth!.resource).origin,
          logger,
          capabilities: FORWARDED_CAPABILITIES,
          onClient: (name, client) => forwardUpstreamRequests(name, client, inFlight),
        });
  const profileOf = (name: string): CandorServer => {
    const found = profileServers.get(name);
    if (found) return found;
    const names = [...profileServers.keys()];
    throw new CandorError(
      `No profile named ${JSON.stringify(name)}; ${names.length > 0 ? `the profiles are ${names.join(', ')}` : 'the gateway config has no "profiles"'}.`,
      { code: 'invalid_gateway_config' },
    );
  };

  let closed = false;
  return {
    server,
    host,
    listen: async (listenOptions = {}) => {
      // Each profile at /mcp/<name> next to the full gateway at /mcp, on one port.
      const base = listenOptions.path === false || listenOptions.path === undefined ? '/mcp' : listenOptions.path;
      const mounts = Object.fromEntries(
        [...profileServers].map(([name, s]) => [
          `${base}/${name}`,
          s.httpHandler({ path: `${base}/${name}`, host: listenOptions.host ?? '127.0.0.1' }),
        ]),
      );
      // The browser comes back here from a person's sign-in to an "oauth-per-user" upstream.
      if (perUser) mounts[CALLBACK_PATH] = perUser.handler;
      return server.listen({ ...listenOptions, ...(Object.keys(mounts).length > 0 ? { mounts } : {}) });
    },
    stdio: (stdioOptions) => server.stdio(stdioOptions),
    profile: profileOf,
    nodeHandler: (httpOptions) => server.nodeHandler(httpOptions),
    fetchHandler: (httpOptions) => server.fetchHandler(httpOptions),
    status: statusOf,
    close: async () => {
      if (closed) return;
      closed = true;
      clearInterval(watchdog);
      if (lockFile) unwatchFile(lockFile, onLockChange);
      if (rulesFile) unwatchFile(rulesFile, onRulesChange);
      warming.abort();
      if (syncTimer) clearTimeout(syncTimer);
      search?.close();
      for (const profileSearch of profileSearches.values()) profileSearch.close();
      await server.close();
      for (const profile of profileServers.values()) await profile.close();
      await host.approvalsSaved();
      await perUser?.close();
      await host.close();
      await sandboxed.dispose();
    },
  };
}

/** The `perUser` upstreams, checked: HTTP, and a gateway that knows who calls. */
function perUserServersOf(options: GatewayOptions): Map<string, PerUserServer> {
  const servers = new Map<string, PerUserServer>();
  for (const [name, config] of Object.entries(options.servers)) {
    if (!config.perUser) continue;
    if (config.url === undefined) {
      throw new CandorError(`${name}: "oauth-per-user" is for servers reached by URL.`, {
        code: 'invalid_gateway_config',
      });
    }
    if (options.auth === undefined) {
      throw new CandorError(
        `${name}: "oauth-per-user" signs each person in separately, so the gateway must know who calls: run it over HTTP with --auth-issuer (or "auth" in createGateway). Without that, use "oauth" (one sign-in, made with candor auth login, shared by everyone).`,
        { code: 'invalid_gateway_config' },
      );
    }
    servers.set(name, {
      url: config.url,
      ...(config.headers ? { headers: config.headers } : {}),
      ...(config.era ? { era: config.era } : {}),
      client: typeof config.auth === 'object' ? config.auth : {},
    });
  }
  return servers;
}

/** What the downstream client gets for an outcome: the upstream's result verbatim, or a refusal it can read. */
function resultOf(tool: CatalogTool, outcome: CallOutcome, scope: CallScope): CallToolResult {
  if (outcome.result && (outcome.status === 'ok' || outcome.status === 'error')) return withoutHopMeta(outcome.result);
  let text = `candor gateway: ${tool.name} was not run (${outcome.status}): ${outcome.message ?? ''}`.trim();
  if (scope.asked?.answer === 'no-elicitation') {
    text =
      `candor gateway: ${tool.name} needs confirmation (${scope.asked.request.reason}), but this client cannot show questions (it did not declare the elicitation capability). ` +
      `Nothing ran. To allow it, add a rule to the gateway config, e.g. "policy": { "rules": [{ "decision": "allow", "tools": "${tool.name}" }] }, ` +
      `mark the server "trust": "trusted", or use a client that supports elicitation.`;
  } else if (scope.asked && (scope.asked.answer === 'decline' || scope.asked.answer === 'cancel')) {
    text = `candor gateway: ${tool.name} was not run: the user ${scope.asked.answer === 'decline' ? 'declined' : 'cancelled'} the confirmation.`;
  }
  const result = toolErrorResult(text);
  result._meta = {
    [GATEWAY_META_KEY]: { status: outcome.status, reason: outcome.message ?? '', pin: tool.pin.status },
  };
  return result;
}

/**
 * The upstream's result, minus `_meta` keys of the protocol itself
 * (`io.modelcontextprotocol/…`, e.g. the upstream's serverInfo): they describe that
 * hop, and the downstream engine adds its own. Everything else passes verbatim.
 */
function withoutHopMeta(result: CallToolResult): CallToolResult {
  const meta = result._meta;
  if (meta === undefined || !Object.keys(meta).some((k) => k.startsWith('io.modelcontextprotocol/'))) return result;
  const kept = Object.fromEntries(Object.entries(meta).filter(([k]) => !k.startsWith('io.modelcontextprotocol/')));
  const { _meta: _drop, ...rest } = result;
  return Object.keys(kept).length > 0 ? { ...rest, _meta: kept } : (rest as CallToolResult);
}

function auditEntry(
  tool: CatalogTool,
  args: Record<string, unknown>,
  ctx: ToolContext,
  scope: CallScope,
  outcome: CallOutcome,
  durationMs: number,
  policy: Policy,
): AuditEntry {
  const verdict = policy.decide({ tool });
  const byRule = verdict.by === 'rule';
  let decision: AuditEntry['decision'];
  let decidedBy: string;
  if (scope.asked) {
    decision = 'ask';
    decidedBy = scope.asked.answer === 'no-elicitation' ? 'no-elicitation' : 'person';
  } else if (outcome.status === 'denied') {
    decision = 'deny';
    const message = outcome.message ?? '';
    decidedBy = /pinned|renamed from|new since/.test(message)
      ? 'pin'
      : /visible only to apps|may not be called by an app/.test(message)
        ? 'visibility'
        : byRule
          ? 'rule'
          : `preset:${policy.preset}`;
  } else if (outcome.status === 'error' && !outcome.result) {
    decision = 'error';
    decidedBy = 'gateway';
  } else {
    decision = 'allow';
    // Allowed without asking: either the verdict allowed, or allow-always was remembered for this pin hash.
    decidedBy =
      verdict.decision === 'allow'
        ? byRule
          ? 'rule'
          : `preset:${policy.preset}`
        : scope.unconfirmed
          ? 'rules:call_unconfirmed'
          : 'remembered';
  }
  const entry: AuditEntry = {
    time: new Date().toISOString(),
    tool: tool.name,
    server: tool.server,
    decision,
    decidedBy,
    pin: tool.pin.status,
    durationMs: Math.round(durationMs * 1000) / 1000,
    outcome: outcome.status === 'error' && outcome.result ? 'error' : outcome.status,
    args: auditArgs(args),
  };
  if (ctx.session) entry.session = ctx.session.id;
  const principal = ctx.auth?.subject ?? ctx.auth?.clientId;
  if (principal !== undefined) entry.principal = principal;
  if (scope.asked && scope.asked.answer !== 'no-elicitation') entry.answer = scope.asked.answer;
  return entry;
}
