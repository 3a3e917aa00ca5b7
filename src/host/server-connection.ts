/**
 * One server, reached through the official SDK v2 client: stdio or Streamable
 * HTTP (or any SDK transport), either protocol era, with list-changed
 * notifications wired to a callback and reconnection for retries.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  Client,
  PROTOCOL_VERSION_META_KEY,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { z } from 'zod';
import { CredentialsStore } from '../auth/client/credentials-store.js';
import { enterpriseAuthProvider } from '../auth/client/enterprise-provider.js';
import { CandorOAuthProvider } from '../auth/client/provider.js';
import { findSignInRequired } from '../auth/client/sign-in-required.js';
import { CandorError } from '../errors.js';
import { httpFailure } from '../targets/http-failure.js';
import { closedDuringProbe, InPlaceStdioTransport } from '../targets/in-place-stdio.js';
import type { WireToolLike } from '../tool/annotations.js';
import type { CallToolResult } from '../tool/types.js';
import { LeanToolCalls } from './lean-calls.js';
import { useLeanReader } from './lean-read-buffer.js';
import { asksForTasks, callAsTask, requiresTask } from './task-calls.js';
import type { ConnectionCallOptions, HostConnection, ServerConfig } from './types.js';
import { openedUrlsFor } from './url-required.js';

/** A `tools/list` page, loosely: entries are checked by the host, not dropped by a schema. */
const TOOLS_PAGE = z.looseObject({
  tools: z.array(z.unknown()).default([]),
  nextCursor: z.string().nullable().optional(),
});

/** A server whose cursors never end must not hang the host. */
const MAX_PAGES = 1_000;

/** The client's name on the wire. */
const CLIENT_INFO = { name: 'candor-host', version: '0.1.0' };

/** The connection state of one server. */
export type ConnectionStatus = 'idle' | 'connecting' | 'connected' | 'failed' | 'closed';

/** Options for one connection. */
export interface ServerConnectionOptions {
  name: string;
  config: ServerConfig;
  /** Called with the server's new tool list after `notifications/tools/list_changed`. */
  onToolsChanged?: (tools: WireToolLike[]) => void;
  /** Called when a refresh after list-changed fails. */
  onError?: (error: Error) => void;
  /** Debounce of list-changed refreshes (default 50 ms). */
  refreshDebounceMs?: number;
  /** Client capabilities to declare (default none). */
  capabilities?: Record<string, unknown>;
  /** Called with each new SDK client before it connects (request and notification handlers). */
  onClient?: (client: Client) => void;
  /** Where OAuth sign-ins are read and refreshed, for a server with `auth` (default: the user's credentials file). */
  credentials?: CredentialsStore;
  /** The OAuth provider to use instead of one over `credentials` (the gateway's per-person sign-ins). */
  oauthProvider?: CandorOAuthProvider;
  /**
   * A bearer token source instead of any OAuth sign-in (the gateway's exchanged tokens):
   * asked before each request; `onUnauthorized` runs once on a 401 before one retry.
   */
  bearer?: { token(): Promise<string | undefined>; onUnauthorized?(): Promise<void> };
  /**
   * Send tools/call to a stdio server on the lean path (default true); false sends every call
   * through the SDK client, to compare the two paths or to rule the lean one out.
   */
  leanCalls?: boolean;
}

/**
 * A connection to one MCP server.
 *
 * @example
 * ```ts
 * const memory = new ServerConnection({ name: 'memory', config: { command: 'npx', args: ['@modelcontextprotocol/server-memory'] } });
 * await memory.connect();
 * const tools = await memory.listTools();
 * ```
 */
export class ServerConnection implements HostConnection {
  readonly name: string;
  readonly config: ServerConfig;
  #client: Client | undefined;
  #status: ConnectionStatus = 'idle';
  #error: Error | undefined;
  #connecting: Promise<void> | undefined;
  #options: ServerConnectionOptions;
  #usedTransport = false;
  #lean: LeanToolCalls | undefined;
  /** Tools that run only as a task (listed so in 2025-11-25; refused without the extension in 2026-07-28). */
  readonly #taskOnly = new Set<string>();
  /** Tools whose schema asks for `Mcp-Param-*` headers: handed to the SDK so the first call carries them. */
  readonly #headerTools = new Map<string, { name: string; inputSchema: unknown }>();

  constructor(options: ServerConnectionOptions) {
    this.name = options.name;
    this.config = options.config;
    this.#options = options;
    const kinds = [options.config.command, options.config.url, options.config.transport].filter((k) => k !== undefined);
    if (kinds.length !== 1) {
      throw new CandorError(
        `Server "${options.name}" needs exactly one of command (stdio), url (Streamable HTTP) or transport; it has ${kinds.length}.`,
        { code: 'invalid_server_config' },
      );
    }
  }

  get status(): ConnectionStatus {
    return this.#status;
  }

  get error(): Error | undefined {
    return this.#error;
  }

  /** The negotiated era (`legacy` = 2025, `modern` = 2026-07-28), once connected. */
  get era(): 'legacy' | 'modern' | undefined {
    return this.#client?.getProtocolEra();
  }

  /** The negotiated protocol version, once connected. */
  get protocolVersion(): string | undefined {
    return this.#client?.getNegotiatedProtocolVersion();
  }

  /** The server's self-reported name and version. */
  get serverInfo(): { name: string; version: string } | undefined {
    return this.#client?.getServerVersion();
  }

  /**
   * Connect (or reconnect after a transport failure). Callers that ask while a
   * connection is being made share it: concurrent calls after an upstream crash
   * once each started their own, every one spawning a stdio server and all but
   * the last left running (bench/faults.ts).
   */
  connect(): Promise<void> {
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #connect(era: 'legacy' | 'modern' | 'auto' = this.config.era ?? 'auto'): Promise<void> {
    this.#status = 'connecting';
    const previous = this.#client;
    this.#client = undefined;
    this.#lean = undefined;
    await previous?.close().catch(() => {});
    const client = new Client(CLIENT_INFO, {
      capabilities: (this.#options.capabilities ?? {}) as NonNullable<ClientOptions['capabilities']>,
      ...negotiation(era),
      listChanged: {
        tools: {
          // The SDK's refreshed list is parsed and strips what the host must see (snake_case hints,
          // unknown keys); re-list raw instead. Era-transparent: on 2026-07-28 the SDK opens
          // subscriptions/listen for us.
          autoRefresh: false,
          debounceMs: this.#options.refreshDebounceMs ?? 50,
          onChanged: (error) => {
            if (error) {
              this.#options.onError?.(error);
              return;
            }
            this.listTools().then(
              (tools) => this.#options.onToolsChanged?.(tools),
              (failure: Error) => this.#options.onError?.(failure),
            );
          },
        },
      },
    });
    this.#options.onClient?.(client);
    const transport = this.#transport();
    try {
      const connecting = client.connect(transport);
      const limit = this.config.connectTimeoutMs;
      if (limit === undefined) await connecting;
      else {
        let timer: ReturnType<typeof setTimeout> | undefined;
        try {
          await Promise.race([
            connecting,
            new Promise<never>((_, reject) => {
              timer = setTimeout(() => reject(new Error(`no answer to the handshake within ${limit} ms`)), limit);
            }),
          ]);
        } finally {
          clearTimeout(timer);
          connecting.catch(() => {});
        }
      }
    } catch (error) {
      if (era === 'auto' && transport instanceof InPlaceStdioTransport && closedDuringProbe(error)) {
        // It quits on a request before initialize (targets/in-place-stdio.ts): start it again in 2025-11-25.
        await client.close().catch(() => {});
        await transport.close().catch(() => {});
        return this.#connect('legacy');
      }
      this.#status = 'failed';
      const required = findSignInRequired(error);
      // fetch says only "fetch failed": name the cause (refused, DNS, TLS, 404…) and the next step.
      const cause = this.config.url === undefined ? undefined : httpFailure(this.config.url, error);
      const failure = new CandorError(`Cannot connect to server "${this.name}": ${cause ?? (error as Error).message}`, {
        code: 'connect_failed',
        cause: error,
      });
      this.#error = required ?? failure;
      await client.close().catch(() => {});
      // A handshake given up on may leave the client unattached: close the transport
      // itself, so a stdio server that never answered is stopped, not orphaned.
      await transport.close().catch(() => {});
      // "needs sign-in: candor auth login …" says it all.
      if (required) throw required;
      throw failure;
    }
    client.onclose = () => {
      if (this.#client === client) this.#status = 'closed';
    };
    // tools/call to a 2025-era stdio server skips the SDK's request machinery
    // (lean-calls.ts); everything else stays the SDK client's.
    if (transport instanceof StdioClientTransport && this.#options.leanCalls !== false) {
      const version = client.getNegotiatedProtocolVersion();
      this.#lean = new LeanToolCalls(transport, {
        // The SDK's 2026-07-28 envelope, from the same material it uses.
        ...(client.getProtocolEra() === 'modern' && version !== undefined
          ? {
              envelope: {
                [PROTOCOL_VERSION_META_KEY]: version,
                [CLIENT_INFO_META_KEY]: CLIENT_INFO,
                [CLIENT_CAPABILITIES_META_KEY]: { ...this.#options.capabilities },
              },
            }
          : {}),
        fallback: (name, args, options) => this.#sdkCall(client, name, args, options),
      });
    }
    this.#client = client;
    this.#status = 'connected';
    this.#error = undefined;
  }

  /**
   * All tools (every page), fetched fresh and kept as sent: the SDK's typed
   * `listTools()` drops keys its schema does not know, such as snake_case hints.
   */
  async listTools(): Promise<WireToolLike[]> {
    const client = this.#connected();
    const tools: WireToolLike[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await client.request(
        { method: 'tools/list', params: cursor === undefined ? {} : { cursor } },
        TOOLS_PAGE,
      );
      for (const tool of result.tools) {
        if (typeof tool === 'object' && tool !== null && typeof (tool as { name?: unknown }).name === 'string') {
          tools.push(tool as WireToolLike);
          const { name, inputSchema } = tool as WireToolLike & { inputSchema?: unknown };
          if (requiresTask(tool)) this.#taskOnly.add(name);
          if (JSON.stringify(inputSchema ?? {}).includes('"x-mcp-header"'))
            this.#headerTools.set(name, { name, inputSchema });
        }
      }
      const next = result.nextCursor;
      if (typeof next !== 'string' || next === '') return tools;
      if (seen.has(next)) {
        throw new CandorError(`Server "${this.name}" returned the tools/list cursor ${JSON.stringify(next)} twice.`, {
          code: 'protocol_error',
        });
      }
      seen.add(next);
      cursor = next;
    }
    throw new CandorError(`Server "${this.name}" still had tools/list pages after ${MAX_PAGES}.`, {
      code: 'protocol_error',
    });
  }

  /**
   * Call a tool. Errors the server sends (JSON-RPC) and transport failures
   * are thrown; `isError` results are returned.
   */
  async callTool(name: string, args: Record<string, unknown>, options: ConnectionCallOptions): Promise<CallToolResult> {
    const client = this.#connected();
    const declared = { capabilities: this.#options.capabilities ?? {}, clientInfo: CLIENT_INFO };
    if (this.#taskOnly.has(name)) return callAsTask(client, name, args, options, declared);
    try {
      if (this.#lean) return await this.#lean.call(name, args, options);
      return await this.#sdkCall(client, name, args, options);
    } catch (error) {
      // 2026-07-28 lists do not say which tools need a task: the refusal does (task-calls.ts).
      if (asksForTasks(error)) {
        this.#taskOnly.add(name);
        return callAsTask(client, name, args, options, declared);
      }
      // 2025-11-25 URLElicitationRequired: show the person the URLs, then try once more.
      if (!(await openedUrlsFor(client, error))) throw error;
      if (this.#lean) return this.#lean.call(name, args, options);
      return this.#sdkCall(client, name, args, options);
    }
  }

  async #sdkCall(
    client: Client,
    name: string,
    args: Record<string, unknown>,
    options: ConnectionCallOptions,
  ): Promise<CallToolResult> {
    const request: {
      signal?: AbortSignal;
      timeout?: number;
      onprogress?: (p: { progress: number; total?: number; message?: string }) => void;
      resetTimeoutOnProgress?: boolean;
      toolDefinition?: never;
    } = {};
    // 2026-07-28 over HTTP: the SDK mirrors x-mcp-header arguments from the definition it is given.
    const definition = this.#headerTools.get(name);
    if (definition) request.toolDefinition = definition as never;
    if (options.onProgress) {
      request.onprogress = options.onProgress;
      request.resetTimeoutOnProgress = true;
    }
    if (options.signal) request.signal = options.signal;
    else if (options.onAbort) {
      const controller = new AbortController();
      options.onAbort((reason) => controller.abort(reason));
      request.signal = controller.signal;
    }
    // The SDK's timeout rejects with RequestTimeout and cancels the request on the server.
    if (options.timeoutMs !== undefined) request.timeout = options.timeoutMs;
    const params = options.meta ? { name, arguments: args, _meta: options.meta } : { name, arguments: args };
    return (await client.callTool(params, request)) as unknown as CallToolResult;
  }

  /** The SDK client while connected. */
  get client(): Client | undefined {
    return this.#status === 'connected' ? this.#client : undefined;
  }

  /** Whether the transport is gone (a retry must reconnect first). */
  get needsReconnect(): boolean {
    return this.#status !== 'connected';
  }

  /** Close the connection (stops a stdio child). */
  async close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    this.#lean = undefined;
    this.#status = 'closed';
    await client?.close().catch(() => {});
  }

  #connected(): Client {
    if (!this.#client || this.#status !== 'connected') {
      throw new CandorError(`Server "${this.name}" is not connected (${this.#status}).`, { code: 'not_connected' });
    }
    return this.#client;
  }

  /** The headless OAuth provider of a server with `auth`. */
  #oauthProvider(): CandorOAuthProvider | undefined {
    const { auth, url, loginTarget } = this.config;
    if (this.#options.oauthProvider) return this.#options.oauthProvider;
    if (auth === undefined || url === undefined) return undefined;
    return new CandorOAuthProvider({
      serverUrl: url,
      store: this.#options.credentials ?? new CredentialsStore(),
      ...(auth === 'oauth' ? {} : { client: auth }),
      label: this.name,
      loginCommand: `candor auth login ${loginTarget ?? url}`,
    });
  }

  #transport(): Transport {
    const { config } = this;
    if (config.transport) {
      if (this.#usedTransport) {
        throw new CandorError(`Server "${this.name}" was given a ready transport, which cannot be reopened.`, {
          code: 'not_connected',
        });
      }
      this.#usedTransport = true;
      return config.transport;
    }
    if (config.url) {
      let url: URL;
      try {
        url = new URL(config.url);
      } catch {
        throw new CandorError(`Server "${this.name}": ${JSON.stringify(config.url)} is not a URL.`, {
          code: 'invalid_server_config',
        });
      }
      const bearer =
        this.#options.bearer ?? (config.enterprise ? enterpriseAuthProvider(config.enterprise, config.url) : undefined);
      if (bearer) {
        const authProvider = {
          token: () => bearer.token(),
          ...(bearer.onUnauthorized ? { onUnauthorized: () => bearer.onUnauthorized!() } : {}),
        };
        return new StreamableHTTPClientTransport(url, {
          ...(config.headers ? { requestInit: { headers: config.headers } } : {}),
          authProvider,
        });
      }
      const provider = this.#oauthProvider();
      return new StreamableHTTPClientTransport(url, {
        ...(config.headers ? { requestInit: { headers: config.headers } } : {}),
        ...(provider ? { authProvider: provider, fetch: provider.fetch } : {}),
      });
    }
    const params: ConstructorParameters<typeof StdioClientTransport>[0] = { command: config.command! };
    if (config.args) params.args = config.args;
    if (config.env) params.env = config.env;
    if (config.cwd) params.cwd = config.cwd;
    params.stderr = config.stderr ?? 'inherit';
    // The era is asked of this process itself, not of a second copy (targets/in-place-stdio.ts).
    const transport = new InPlaceStdioTransport(params);
    // Answers to lean calls are parsed once and not schema-checked twice (lean-read-buffer.ts).
    if (this.#options.leanCalls !== false) useLeanReader(transport);
    return transport;
  }
}

type ClientOptions = NonNullable<ConstructorParameters<typeof Client>[1]>;

function negotiation(
  era: 'legacy' | 'modern' | 'auto',
): Pick<ConstructorParameters<typeof Client>[1] & object, 'versionNegotiation'> {
  switch (era) {
    case 'legacy':
      return {};
    case 'modern':
      return { versionNegotiation: { mode: { pin: '2026-07-28' } } };
    default:
      // A silent stdio server is a legacy one; do not wait the SDK's full minute to learn that.
      return { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 5_000 } } };
  }
}
