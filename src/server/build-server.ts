/**
 * A candor MCP server — one dispatcher over a tool registry (and optional
 * resources and prompts), served over stdio, Streamable HTTP or an in-memory
 * pair for tests — built on the services of one runtime (platform.ts).
 * `createServer` (Node.js) and the fetch runtimes' `createServer` are this with
 * their platform.
 */
import { createResourceServer, type ResourceServer } from '../auth/resource-server.js';
import type { AuthOptions } from '../auth/types.js';
import { createDispatcher, type Dispatcher } from '../engine/dispatcher.js';
import type { ServerCapabilities, ServerInfo, ToolScope } from '../engine/engine.js';
import type { ModernOptions } from '../engine/modern/modern-engine.js';
import type { TasksOptions } from '../engine/tasks/task-runtime.js';
import { DefinitionError } from '../errors.js';
import type { PipelineOptions } from '../pipeline/pipeline.js';
import { PromptRegistry } from '../prompts/registry.js';
import type { PromptDefinition } from '../prompts/types.js';
import { ToolRegistry } from '../registry/registry.js';
import { ResourceRegistry } from '../resources/registry.js';
import type { ResourceDefinition, ResourceTemplateDefinition } from '../resources/types.js';
import type { ToolLike } from '../tool/define.js';
import { createHttpHandler, type FetchHandlerExtra, type HttpHandler } from '../transports/http/create-http-handler.js';
import type { HttpHandlerOptions } from '../transports/http/handler-options.js';
import type { HttpListener, HttpListenOptions } from '../transports/http/listen.js';
import { connectMemory, type MemoryClientTransport, type MemoryTransportOptions } from '../transports/memory.js';
import type { StdioConnection, StdioOptions } from '../transports/stdio.js';
import type { ServerLogger } from '../util/logger.js';
import type { ServerPlatform } from './platform.js';
import type { RedisOption, SharedState } from './shared-state.js';

/** Everything `createServer` accepts. One object; every option is a key. */
export interface ServerOptions extends PipelineOptions {
  /** `serverInfo.name`. */
  name: string;
  /** `serverInfo.version`. */
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: ServerInfo['icons'];
  /** Sent in the `initialize` result: how a model should use this server. */
  instructions?: string;
  /** Tools to serve (added to `registry` when both are given). */
  tools?: readonly ToolLike[];
  /** A registry you keep a handle on (enable/disable at runtime). Default: a new one. */
  registry?: ToolRegistry;
  /** Resources and resource templates, or a registry of them. */
  resources?: ReadonlyArray<ResourceDefinition | ResourceTemplateDefinition> | ResourceRegistry;
  /** Prompts, or a registry of them. */
  prompts?: readonly PromptDefinition[] | PromptRegistry;
  /** The server's own log (stderr by default; never stdout). */
  logger?: ServerLogger;
  /** Most entries in one 2025-03-26 batch. Default 32. */
  maxBatchSize?: number;
  /**
   * The 2026-07-28 era (served next to the 2025 era on the same endpoint and
   * over stdio): `requestState` secret and expiry (share the secret across
   * instances), caching hints, subscription limits and change source, and
   * `only: true` for a server that speaks 2026-07-28 alone (`initialize` is
   * refused with the versions it speaks). See docs/modern-era.md.
   */
  modern?: ModernOptions;
  /**
   * Shared state on Redis for several instances behind a load balancer
   * (docs/deployment.md): sessions, resumable events, rate-limit
   * counters, tool toggles with list_changed everywhere, answers to
   * server→client requests, the requestState secret. A `redis://` URL, an
   * ioredis client, or `createRedisCluster()`. Default: `REDIS_URL` when set,
   * else in memory (one process). `false`: in memory even with `REDIS_URL`.
   */
  redis?: RedisOption;
  /** Extra capabilities to advertise (e.g. `extensions`), merged over the derived ones. */
  capabilities?: ServerCapabilities;
  /**
   * MCP tasks: where task state lives (`store`, default in memory;
   * `createRedisTaskStore(url)` to share it across instances), TTLs, poll
   * interval and the owner lease. Tasks are served (and the capability
   * advertised) when this is set or when a tool declares `task`.
   */
  tasks?: TasksOptions;
  /**
   * Make the HTTP endpoint an OAuth 2.1 resource server (MCP authorization):
   * RFC 9728 metadata, bearer tokens verified against the issuer's JWKS (or
   * `introspect` / `verify`), and tool scopes derived from effects. stdio and
   * in-memory connections are not affected (the spec: stdio takes credentials
   * from its environment). See src/auth.
   */
  auth?: AuthOptions;
  /**
   * Narrow the tools per request: per session or per person (the
   * gateway's search mode, profiles and rules). Applied after `auth`'s scopes.
   */
  toolScope?: ToolScope;
  /** How long `close()` waits for running calls before aborting them. Default 10 000 ms. */
  shutdownTimeoutMs?: number;
  /**
   * When the server owns the process (`stdio()`, `listen()`), log stray promise
   * rejections instead of letting Node exit (see src/server/stray-rejections.ts). Default true.
   */
  keepAliveOnStrayRejection?: boolean;
  /**
   * Lint the served tools when `stdio()` or `listen()` starts and log the
   * findings. Default: on, unless NODE_ENV is "production".
   */
  lintOnStart?: boolean;
}

/** Options of `server.stdio()`. */
export interface ServerStdioOptions extends StdioOptions {
  /** Drain and exit on SIGTERM/SIGINT. Default true when serving the process's own stdin. */
  handleSignals?: boolean;
}

/** Options of `server.listen()`: the HTTP endpoint's, plus where to listen. */
export interface ServerListenOptions extends Omit<HttpListenOptions, 'dispatcher'> {
  /** Drain and exit on SIGTERM/SIGINT. Default true. */
  handleSignals?: boolean;
}

/** Options of the embedding handlers (`nodeHandler`, `fetchHandler`, `httpHandler`). */
export type ServerHttpOptions = Omit<HttpHandlerOptions, 'dispatcher'>;

/** A candor server. */
export interface CandorServer {
  readonly dispatcher: Dispatcher;
  readonly registry: ToolRegistry;
  readonly resources: ResourceRegistry | undefined;
  readonly prompts: PromptRegistry | undefined;
  /** The OAuth resource server made from `auth` (its metadata and scope policy), when configured. */
  readonly auth: ResourceServer | undefined;
  /** The shared state on Redis, when configured (`redis` or `REDIS_URL`). */
  readonly shared: SharedState | undefined;
  /** Serve over stdio (newline-delimited JSON on stdin/stdout; logs on stderr). */
  stdio(options?: ServerStdioOptions): StdioConnection;
  /**
   * Serve Streamable HTTP on `/mcp` of a new node:http server (host 127.0.0.1
   * by default). Resolves once listening; `url` says where.
   */
  listen(options?: ServerListenOptions): Promise<HttpListener>;
  /**
   * The Streamable HTTP endpoint for an existing app. Created on first use
   * (with the options of that first call) and shared by `nodeHandler` and
   * `fetchHandler`, so both see the same sessions.
   */
  httpHandler(options?: ServerHttpOptions): HttpHandler;
  /** A node:http / Express handler: `http.createServer(server.nodeHandler())`. */
  nodeHandler(options?: ServerHttpOptions): HttpHandler['nodeHandler'];
  /** A fetch-style handler `(Request) => Promise<Response>` (Hono, Bun, Deno, workers). */
  fetchHandler(options?: ServerHttpOptions): (request: Request, extra?: FetchHandlerExtra) => Promise<Response>;
  /** An in-memory client transport linked to this server (for tests; SDK `Transport`-shaped). */
  connectMemory(options?: MemoryTransportOptions): MemoryClientTransport;
  /**
   * The start-up lint report as lines, once: later calls (and the automatic one
   * in `stdio()` / `listen()`) get none. Empty when `lintOnStart` is false or
   * NODE_ENV is "production".
   */
  startupLint(): Promise<string[]>;
  /** Stop taking calls, drain running ones (up to `shutdownTimeoutMs`), close connections. */
  close(): Promise<void>;
}

/**
 * Build a server on a runtime's services. Call `createServer` (from `candor`, or
 * `candor/fetch` on a fetch runtime) rather than this.
 *
 * @example
 * ```ts
 * const server = buildServer({ name: 'files', version: '1.0.0', tools: [readFile] }, platform);
 * ```
 */
export function buildServer(options: ServerOptions, platform: ServerPlatform): CandorServer {
  if (typeof options !== 'object' || options === null)
    throw new DefinitionError('createServer takes one options object.');
  if (typeof options.name !== 'string' || options.name.length === 0) {
    throw new DefinitionError('createServer: name must be a non-empty string (it becomes serverInfo.name).', {
      fields: ['name'],
    });
  }
  if (typeof options.version !== 'string' || options.version.length === 0) {
    throw new DefinitionError('createServer: version must be a non-empty string (it becomes serverInfo.version).', {
      fields: ['version'],
    });
  }
  // A server's operator sets CANDOR_LOG_LEVEL / CANDOR_LOG_FORMAT; createServer is where they enter.
  const env = platform.env;
  const logger = options.logger ?? platform.defaultLogger(env);
  const registry = options.registry ?? new ToolRegistry({ logger: (line) => logger.info(line) });
  if (options.tools && options.tools.length > 0) registry.add(...options.tools);
  const resources = toResourceRegistry(options.resources);
  const prompts = toPromptRegistry(options.prompts);
  const serverInfo: ServerInfo = { name: options.name, version: options.version };
  if (options.title !== undefined) serverInfo.title = options.title;
  if (options.description !== undefined) serverInfo.description = options.description;
  if (options.websiteUrl !== undefined) serverInfo.websiteUrl = options.websiteUrl;
  if (options.icons !== undefined) serverInfo.icons = options.icons;

  const shared = platform.openSharedState(options.redis, { env, registry, logger });
  const modern =
    shared === undefined || options.modern?.requestState?.secret !== undefined
      ? options.modern
      : { ...options.modern, requestState: { ...options.modern?.requestState, secret: shared.requestStateSecret } };
  const tasks = tasksOptionsOf(options.tasks, registry, shared, platform);
  const dispatcher = createDispatcher({
    ...options,
    tasks,
    ...(modern === undefined ? {} : { modern }),
    ...(shared === undefined || options.rateLimitStore !== undefined ? {} : { rateLimitStore: shared.rateLimitStore }),
    serverInfo,
    tools: registry,
    resources,
    prompts,
    logger,
  });

  // 2026-07-28: a list that varies by authorization must not be cached for everyone.
  if (options.auth !== undefined && options.modern?.cache?.lists?.scope === 'public') {
    throw new DefinitionError(
      'createServer: with auth, tools/list depends on the token\'s scopes, so modern.cache.lists.scope cannot be "public" (leave it "auto" or set "private").',
      { fields: ['modern', 'auth'] },
    );
  }
  // Built now so a bad auth configuration fails at createServer, not at the first request.
  const auth =
    options.auth === undefined ? undefined : createResourceServer({ ...options.auth, tools: registry, logger });
  const httpDefaults: Omit<HttpHandlerOptions, 'dispatcher'> = { logger, env };
  if (auth !== undefined) httpDefaults.authorizer = auth;
  if (shared !== undefined) {
    httpDefaults.cluster = shared.link;
    httpDefaults.rateLimitStore = shared.rateLimitStore;
  }

  const closers = new Set<() => Promise<void> | void>();
  let releaseGuard: (() => void) | undefined;
  const ownProcess = () => {
    if (options.keepAliveOnStrayRejection !== false && releaseGuard === undefined) {
      releaseGuard = platform.guardStrayRejections(logger);
    }
  };
  let closing: Promise<void> | undefined;
  let linted = false;
  const lintOnce = async (): Promise<string[]> => {
    if (linted || options.lintOnStart === false) return [];
    linted = true;
    return platform.startupLint(registry.manifest().tools, env);
  };
  const printLint = () => {
    lintOnce().then(
      (lines) => {
        for (const line of lines) logger.warn(line);
      },
      (error: unknown) => logger.warn(`start-up lint failed: ${(error as Error)?.message ?? String(error)}`),
    );
  };
  const onSignals = (): void => {
    const release = platform.onSignals((signal) => {
      logger.info(`${signal} received: draining running calls before exit`);
      return server.close();
    });
    closers.add(release);
  };
  let http: HttpHandler | undefined;

  const server: CandorServer = {
    dispatcher,
    registry,
    resources,
    prompts,
    auth,
    shared,
    stdio(stdioOptions = {}) {
      const connection = platform.stdio(dispatcher, stdioOptions);
      ownProcess();
      printLint();
      closers.add(() => connection.close());
      if (stdioOptions.handleSignals ?? platform.ownsStdin(stdioOptions)) onSignals();
      return connection;
    },
    startupLint: lintOnce,
    async listen(listenOptions = {}) {
      printLint();
      const { handleSignals = true, ...rest } = listenOptions;
      // Shared state first: a misconfigured Redis fails here, and no request is taken before the bus listens.
      await shared?.ready;
      // Redis down is degraded, not unready: this instance still serves its sessions.
      const readiness =
        shared === undefined
          ? undefined
          : async () => ({ redis: (await shared.ping()) ? (true as const) : ('degraded' as const) });
      const listener = await platform.listen({ ...httpDefaults, readiness, ...rest, dispatcher });
      ownProcess();
      closers.add(() => listener.close());
      if (handleSignals) onSignals();
      return listener;
    },
    httpHandler(httpOptions) {
      if (http === undefined) {
        http = createHttpHandler({ ...httpDefaults, ...httpOptions, dispatcher });
        const created = http;
        closers.add(() => created.close({ timeoutMs: options.shutdownTimeoutMs ?? 10_000 }));
      } else if (httpOptions !== undefined) {
        throw new DefinitionError(
          'The HTTP handler already exists; pass its options on the first call of httpHandler/nodeHandler/fetchHandler.',
        );
      }
      return http;
    },
    nodeHandler(httpOptions) {
      return server.httpHandler(httpOptions).nodeHandler;
    },
    fetchHandler(httpOptions) {
      return server.httpHandler(httpOptions).fetchHandler;
    },
    connectMemory(memoryOptions) {
      return connectMemory(dispatcher, memoryOptions);
    },
    close() {
      closing ??= (async () => {
        // Transports stop taking requests and wait for theirs while the dispatcher
        // refuses new calls and drains running ones (aborting them after the timeout).
        const transports = [...closers];
        closers.clear();
        await Promise.all([
          dispatcher.drain({ timeoutMs: options.shutdownTimeoutMs ?? 10_000 }),
          ...transports.map(async (close) => close()),
        ]);
        for (const peer of [...dispatcher.peers]) peer.close(new Error('The server closed.'));
        // Tasks still running are marked failed (their work is lost) and the task store is closed.
        await dispatcher.tasks?.close();
        await shared?.close();
        releaseGuard?.();
      })();
      return closing;
    },
  };
  return server;
}

/**
 * Tasks are on when configured or when a tool can run as one (tools added
 * later need `tasks` set). With Redis configured (`redis` / `REDIS_URL`) they
 * live there too, on the same connection, unless a store is given.
 */
function tasksOptionsOf(
  configured: TasksOptions | undefined,
  registry: ToolRegistry,
  shared: SharedState | undefined,
  platform: ServerPlatform,
): TasksOptions | undefined {
  const tasks = configured ?? (registry.list().some((tool) => tool.task !== undefined) ? {} : undefined);
  if (tasks === undefined || tasks.store !== undefined || shared === undefined) return tasks;
  return { ...tasks, store: platform.sharedTaskStore(shared) };
}

function toResourceRegistry(value: ServerOptions['resources']): ResourceRegistry | undefined {
  if (value === undefined) return undefined;
  if (value instanceof ResourceRegistry) return value;
  if (!Array.isArray(value)) {
    throw new DefinitionError('createServer: resources must be a list of resource definitions or a ResourceRegistry.', {
      fields: ['resources'],
    });
  }
  return new ResourceRegistry().add(...value);
}

function toPromptRegistry(value: ServerOptions['prompts']): PromptRegistry | undefined {
  if (value === undefined) return undefined;
  if (value instanceof PromptRegistry) return value;
  if (!Array.isArray(value)) {
    throw new DefinitionError('createServer: prompts must be a list of prompt definitions or a PromptRegistry.', {
      fields: ['prompts'],
    });
  }
  return new PromptRegistry().add(...value);
}
