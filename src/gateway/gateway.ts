/**
 * `createGateway`: one MCP endpoint in front of many upstream servers.
 * Upstreams are reached by `candor/host` (catalog, trust, overrides,
 * policy, pins, command gate, approvals); downstream clients are served by the
 * engine (`createServer`: both eras, stdio and Streamable HTTP). Every call goes
 * through the host's policy, whatever the downstream host does with the hints.
 */
import path from 'node:path';
import { tokenKeyFrom } from '../auth/client/token-vault.js';
import { CandorError } from '../errors.js';
import { APPROVALS_FILE_NAME } from '../host/approvals-file.js';
import { createHost } from '../host/host.js';
import type { Host } from '../host/host-api.js';
import { Overrides } from '../host/overrides.js';
import { Policy } from '../host/policy.js';
import { routedCalls } from '../host/routed-calls.js';
import { PromptRegistry } from '../prompts/registry.js';
import { ToolRegistry } from '../registry/registry.js';
import { ResourceRegistry } from '../resources/registry.js';
import type { CandorServer } from '../server/create-server.js';
import { stderrLogger } from '../util/logger.js';
import { confirmDownstream } from './ask.js';
import { type AuditEntry, auditSink } from './audit-log.js';
import { CatalogSync } from './catalog-sync.js';
import { checkCodeModeLimits, openScripts } from './code-mode/code-mode-settings.js';
import { CODE_TOOL_NAMES } from './code-mode/code-tools.js';
import { scriptCallTracer } from './code-mode/script-tracing.js';
import { credentialOf } from './credential-sources.js';
import { delegatedServersOf } from './delegated-config.js';
import { DelegatedUpstreams } from './delegated-upstreams.js';
import { Door } from './door.js';
import { type Endpoints, serveEndpoints, toolSearches } from './endpoints.js';
import { ExtrasMirror } from './extras-mirror.js';
import { watchLockfile, watchRules, watchScripts } from './file-watchers.js';
import { callHooks } from './hooks/call-hooks.js';
import { gatewayMetrics } from './metrics.js';
import type { PerUserSignIns } from './per-user.js';
import { perUserServersOf, perUserSignIns } from './per-user-config.js';
import { GATEWAY_META_KEY, proxyTool } from './proxy-tool.js';
import { QuotaCounts } from './quotas/quota-counts.js';
import { resultGuardStep } from './results/guard-step.js';
import { messageGuard } from './results/message-guard.js';
import { GatewayRules } from './rules.js';
import { sandboxUpstreams } from './sandboxing.js';
import { gatewayStatusResource, type UpstreamStatus } from './status.js';
import { TaintSessions } from './taint-sessions.js';
import { clashMessage } from './tool-names.js';
import type { GatewayOptions } from './types.js';
import { unmatchedGlobs } from './unmatched-globs.js';
import { upstreamCall } from './upstream-call.js';
import { FORWARDED_CAPABILITIES, forwardUpstreamRequests, InFlight } from './upstream-requests.js';
import { UpstreamSupervisor } from './upstream-supervisor.js';

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

function codeModeOn(options: GatewayOptions): boolean {
  return options.toolList === 'code' || Object.values(options.profiles ?? {}).some((p) => p.toolList === 'code');
}

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
      : await GatewayRules.load(options.rules, {
          groupsClaim: options.groupsClaim,
          departmentClaim: options.departmentClaim,
        });
  // Read before anything starts: a counts file that is not one stops the gateway here, naming it.
  const quotaCounts = QuotaCounts.open({ file: options.quotaCounts, logger });
  // Code mode's limits and stored scripts: a limit out of range or a broken scripts file stops it here.
  checkCodeModeLimits(options);
  const scripts = codeModeOn(options) ? await openScripts(options) : undefined;
  if (options.scripts !== undefined && scripts === undefined)
    logger.warn(
      `"scripts" is set but no endpoint is in code mode ("toolList": "code"): the stored scripts are not listed.`,
    );
  const policyConfig = options.policy ?? 'default';
  // The host's own Policy class, for the audit's "who decided" label; the host decides the call.
  const policy = new Policy(policyConfig);
  const inFlight = new InFlight();
  // The result guards on the channels besides tool results: resources, prompts, logs, progress, errors.
  const guardMessages = messageGuard({
    gateway: options.results,
    server: (name) => options.servers[name]?.results,
    trusted: (name) => options.servers[name]?.trust === 'trusted',
  });
  const audit = options.audit === undefined ? undefined : auditSink(options.audit);
  // OpenTelemetry metrics when @opentelemetry/api is installed (the application registers the provider).
  const metrics = await gatewayMetrics();
  // Spans for the calls of code-mode scripts, when an OpenTelemetry tracer provider is registered.
  const scriptTracer = codeModeOn(options) ? await scriptCallTracer() : undefined;
  const record =
    audit || metrics
      ? (entry: AuditEntry) => {
          audit?.(entry);
          metrics?.(entry);
        }
      : undefined;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const approvalsFile =
    options.approvalsFile ??
    (options.lock ? path.join(path.dirname(path.resolve(options.lock.file)), APPROVALS_FILE_NAME) : undefined);

  // "oauth-per-user" upstreams: checked before anything starts.
  const perUserServers = perUserServersOf(options);
  // Upstreams called with a token made for the person (token exchange): checked now too.
  const delegatedServers = delegatedServersOf(options);
  const delegated =
    delegatedServers.size > 0
      ? new DelegatedUpstreams({
          servers: delegatedServers,
          logger,
          capabilities: FORWARDED_CAPABILITIES,
          onClient: (name, client) => forwardUpstreamRequests(name, client, inFlight, guardMessages),
        })
      : undefined;
  const tokenKey = perUserServers.size > 0 ? tokenKeyFrom(options.tokenKey) : undefined;
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
      ...(options.leanCalls === false ? { leanCalls: false } : {}),
      policy: policyConfig,
      ...(options.overrides !== undefined ? { overrides: options.overrides } : {}),
      ...(options.lock
        ? { pins: { file: options.lock.file, onChange: options.lock.onChange, onNew: options.lock.onNew } }
        : {}),
      ...(approvalsFile !== undefined ? { approvalsFile } : {}),
      ...(options.commandTools ? { commandTools: options.commandTools } : {}),
      onConfirm: confirmDownstream,
      ...(options.taint !== undefined ? { taint: options.taint } : {}),
      confirmTimeoutMs: options.confirmTimeoutMs ?? 300_000,
      timeoutMs,
      tightenHints: true,
      clientCapabilities: FORWARDED_CAPABILITIES,
      onClient: (server, client) => forwardUpstreamRequests(server, client, inFlight, guardMessages),
    });
  } catch (error) {
    await sandboxed.dispose();
    throw error;
  }

  const registry = new ToolRegistry();
  // A list is cached until the tools change, or the rules (read again when their file changes).
  const version = rules ? () => `${registry.version}.${rules.generation}` : () => registry.version;
  // Search mode: sessions list what they found. The endpoints are built below, before any request.
  let endpoints: Endpoints | undefined;
  const searches = toolSearches(options, {
    registry,
    version,
    logger,
    endpointOf: (profile) => (profile === undefined ? endpoints!.server : endpoints!.profiles.get(profile)!),
  });
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
  const call = upstreamCall({
    routed: routedCalls(host),
    inFlight,
    policy,
    timeoutMs,
    rules,
    record,
    perUser: () => perUser,
    delegated,
    credentialOf: (name) => credentialOf(options.servers[name]),
    remote: (server) => options.servers[server]?.command === undefined,
    taint: new TaintSessions(),
    guard: resultGuardStep({ gateway: options.results, server: (name) => options.servers[name]?.results }),
    messages: guardMessages,
    hooks: callHooks({
      gateway: options.hooks,
      server: (name) => options.servers[name]?.hooks,
      anyServer: Object.values(options.servers).some((server) => server.hooks !== undefined),
      warn: (message) => logger.warn(message),
    }),
  });

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
      ...(delegated?.has(s.name) ? { perUser: { connectedPeople: delegated.connectedPeople(s.name) } } : {}),
    }));

  const prefix = options.prefix ?? 'always';
  const catalog = new CatalogSync({
    host,
    door,
    registry,
    prefix,
    order: Object.keys(options.servers),
    reserved: new Set([
      ...(searches.findTools ? [searches.findTools.definition.name] : []),
      ...(codeModeOn(options) ? CODE_TOOL_NAMES : []),
    ]),
    upstream,
    logger,
    proxy: (tool, name) =>
      proxyTool(tool, {
        name,
        handler: (args, ctx) => call(host.tool(tool.name) ?? tool, args ?? {}, ctx),
        rateLimit: options.rateLimits?.tools?.[tool.name],
        timeoutMs: timeoutMs + (options.confirmTimeoutMs ?? 300_000),
      }),
  });
  host.on('tools-changed', ({ server, report }) => {
    if (report && (report.changed.length > 0 || report.renamed.length > 0)) {
      logger.warn(
        `${server}: tools changed since pinned: ${[...report.changed.map((t) => t.name), ...report.renamed.map((t) => t.to)].join(', ')}`,
      );
    }
    catalog.schedule();
  });
  host.on('warning', ({ server, message }) => logger.warn(`${server ?? 'gateway'}: ${message}`));

  const extras = new ExtrasMirror({ host, resources, prompts, logger, separator: SEPARATOR, guard: guardMessages });
  resources.add(gatewayStatusResource(statusOf));

  // Upstream health: report, retry with backoff, keep the others serving.
  const supervisor = new UpstreamSupervisor({
    host,
    upstream,
    logger,
    reconnect: options.reconnect,
    perUser: new Set([...perUserServers.keys(), ...delegatedServers.keys()]),
    onUp: async (name, wasDown) => {
      // Its tools join the list now (an upstream that was down at start, or signed in since);
      // at start the first sync below lists them.
      if (wasDown) catalog.schedule();
      await extras.load(name).catch((error: Error) => logger.warn(`${name}: ${error.message}`));
    },
  });
  await supervisor.check();
  catalog.sync();
  if (catalog.clashes.length > 0) {
    // prefix "never": two servers offer one name; refuse to start, naming both.
    await host.close();
    await sandboxed.dispose();
    throw new CandorError(clashMessage(catalog.clashes), { code: 'invalid_gateway_config' });
  }
  const down = [...upstream.values()].filter((s) => s.state !== 'up').map((s) => s.name);
  for (const warning of unmatchedGlobs(options, host.catalog(), down)) logger.warn(warning);
  supervisor.start(500);
  const stopWatching: Array<() => void> = [];
  if (options.lock)
    stopWatching.push(watchLockfile(path.resolve(options.lock.file), host, () => catalog.sync(), logger));
  if (rules) {
    const notify = () => {
      for (const endpoint of [server, ...profileServers.values()]) {
        endpoint.dispatcher.broadcast({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
        endpoint.dispatcher.notifyToolsChanged('modern');
      }
    };
    stopWatching.push(watchRules(path.resolve(options.rules!), rules, notify, logger));
  }
  // cedar-wasm is slow until V8 has optimised it: pay that now, in slices, not on someone's first list.
  const warming = new AbortController();
  void rules?.warmUp({ signal: warming.signal });

  endpoints = serveEndpoints(options, {
    registry,
    resources,
    prompts,
    logger,
    version,
    searches,
    prefix,
    rules,
    record,
    quotaCounts,
    scriptTracer: () => scriptTracer,
    scripts,
    pinOf: (tool) => {
      const meta = tool.meta?.[GATEWAY_META_KEY] as { server?: string; tool?: string } | undefined;
      const found = meta?.server === undefined ? undefined : host.tool(`${meta.server}${SEPARATOR}${meta.tool}`);
      return found?.hash ?? 'unpinned';
    },
  });
  if (scripts?.file !== undefined) stopWatching.push(watchScripts(scripts, logger));
  const { server, profiles: profileServers } = endpoints;
  const perUserSide =
    tokenKey === undefined
      ? undefined
      : perUserSignIns(options, {
          server,
          tokenKey,
          servers: perUserServers,
          logger,
          capabilities: FORWARDED_CAPABILITIES,
          onClient: (name, client) => forwardUpstreamRequests(name, client, inFlight, guardMessages),
        });
  perUser = perUserSide?.signIns;
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
      // A person's sign-in link, the gateway's own sign-in and the upstream's return ("oauth-per-user").
      if (perUserSide) Object.assign(mounts, perUserSide.mounts);
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
      supervisor.stop();
      for (const stop of stopWatching) stop();
      warming.abort();
      catalog.close();
      searches.main?.close();
      for (const profileSearch of searches.profiles.values()) profileSearch.close();
      await server.close();
      for (const profile of profileServers.values()) await profile.close();
      await host.approvalsSaved();
      quotaCounts.flush();
      await perUser?.close();
      await delegated?.close();
      await host.close();
      await sandboxed.dispose();
    },
  };
}
