/**
 * What `createHost` takes and gives: the options, the host's interface, its
 * events and each server's state. Types only; `host.ts` builds the host.
 */
import type { CredentialsStore } from '../auth/client/credentials-store.js';
import type { RetryOptions } from './call-failure.js';
import type { AnthropicTool, ExportOptions, OpenAIChatTool, OpenAIResponsesTool } from './model-tools.js';
import type { OverridesFile } from './overrides.js';
import type { PinReport } from './pins/compare.js';
import type { Lockfile } from './pins/lockfile.js';
import type { ConnectionStatus } from './server-connection.js';
import type {
  CallApproval,
  CallDecision,
  CallOutcome,
  CatalogTool,
  CommandToolConfig,
  ConfirmHandler,
  PinsConfig,
  PolicyConfig,
  PolicyPreset,
  RunOptions,
  ServerConfig,
  TaintMode,
  TaintSession,
  ToolCall,
} from './types.js';

/** Everything `createHost` accepts. */
export interface HostOptions {
  /** Servers by name; the name prefixes their tools (`name__tool`). */
  servers: Record<string, ServerConfig>;
  /**
   * tools/call to stdio servers on the lean path (default true): framed and answered
   * without the SDK's request machinery. false sends every call through the SDK client.
   */
  leanCalls?: boolean;
  /**
   * Where OAuth sign-ins of servers with `auth` are read and refreshed (default
   * the user's credentials file, the one `candor auth login` writes).
   */
  credentials?: CredentialsStore;
  /** A preset name or a preset plus rules (default `default`). */
  policy?: PolicyConfig | PolicyPreset;
  /** Pinning: a lockfile path or object, and what to do with changed or new tools. */
  pins?: PinsConfig;
  /** Asked when a call needs a person. Absent: such calls are denied (headless never hangs). */
  onConfirm?: ConfirmHandler;
  /** Deny a confirmation nobody answers within this many milliseconds (default: wait). */
  confirmTimeoutMs?: number;
  /**
   * A file that keeps allow-always answers across restarts (keyed by tool and pin
   * hash, so a changed tool asks again), e.g. `candor.approvals.json` next to the
   * lockfile. Default: answers are kept in memory only.
   */
  approvalsFile?: string;
  /**
   * Capabilities the host's MCP client declares to servers (e.g. `elicitation`,
   * `sampling`, `roots` when the host answers those requests through `onClient`).
   */
  clientCapabilities?: Record<string, unknown>;
  /**
   * Called with each server's SDK client after it connects, before any request:
   * the seam to answer server→client requests (elicitation, sampling, roots) and
   * receive notifications (logging, resource updates).
   */
  onClient?: (server: string, client: import('@modelcontextprotocol/client').Client) => void;
  /** Separator between server and tool names (default `__`), or `{ separator }`. */
  namespace?: string | { separator?: string };
  /** The user's declarations of third-party tools' effects: a path to a JSON file, or its content. */
  overrides?: string | OverridesFile;
  /**
   * Make an untrusted server's hints stricter where lint finds evidence they lie
   * (never relaxed); the catalog tool lists each correction. Default false.
   */
  tightenHints?: boolean;
  /** Shell-running tools (namespaced names or globs) and the argument that holds the command. */
  commandTools?: Record<string, CommandToolConfig>;
  /** Most read-only calls in flight at once per batch (default 8). */
  concurrency?: number;
  /** Default per-call timeout (default 60 s). */
  timeoutMs?: number;
  /** Retries after transport failures (read-only or idempotent tools of trusted servers only). */
  retry?: RetryOptions;
  /**
   * Taint (see `createTaintSession`): after a result from an open-world tool or an untrusted
   * server, a destructive or sending call `ask`s a person (default; denied without
   * `onConfirm`), is refused (`deny`), or taint is not looked at (`off`, the default under
   * the `yolo` preset).
   */
  taint?: TaintMode;
}

/** The state of one server, as `host.servers()` reports it. */
export interface ServerState {
  name: string;
  status: ConnectionStatus;
  era?: 'legacy' | 'modern';
  protocolVersion?: string;
  trust: 'trusted' | 'untrusted';
  tools: number;
  error?: string;
  /** The command that signs in, when the server is down for want of an OAuth sign-in. */
  signIn?: string;
}

/** What the host tells listeners. */
export interface HostEvents {
  /** A server's tool list changed (after `notifications/tools/list_changed`). */
  'tools-changed': { server: string; report?: PinReport };
  /** Something worth a log line: a refresh failed, a tool's annotations are malformed. */
  warning: { server?: string; message: string };
}

/** The host. */
export interface Host {
  /** The tools the model may see and call: visible to the model and offered by the policy. */
  tools(): CatalogTool[];
  /** Every tool of every server, including app-only and plan-hidden ones. */
  catalog(): CatalogTool[];
  /**
   * The tools the policy offers, whoever may call them (model or app): what a
   * gateway lists downstream, leaving `_meta.ui.visibility` to the host there.
   */
  offered(): CatalogTool[];
  /** A tool by namespaced or API name. */
  tool(name: string): CatalogTool | undefined;
  /** Run a model's batch: reads in parallel, writes alone, outcomes in request order. */
  run(calls: readonly ToolCall[], options?: RunOptions): Promise<CallOutcome[]>;
  /** Run one call (a batch of one); `approval` carries a person's answer obtained elsewhere (see `ToolCall`). */
  call(
    tool: string,
    args?: Record<string, unknown>,
    options?: RunOptions & { timeoutMs?: number; approval?: CallApproval },
  ): Promise<CallOutcome>;
  /**
   * What a call would meet now, on the path a call takes (visibility, policy,
   * pins, remembered approvals, the command gate), without side effects: no
   * question, nothing sent, nothing remembered. `pinHash` binds a person's
   * answer to the definition they saw (`ToolCall.approval`).
   *
   * @example
   * ```ts
   * const { decision, reason, pinHash } = await host.decide('fs__write_file', { path: 'a.txt' });
   * if (decision === 'ask' && (await askUser(reason))) await host.call('fs__write_file', args, { approval: { pinHash } });
   * ```
   */
  decide(
    tool: string,
    args?: Record<string, unknown>,
    options?: { origin?: 'model' | 'app'; taint?: TaintSession },
  ): Promise<CallDecision>;
  /** A call from an MCP App view: refused unless the tool's visibility includes "app"; policy still applies. */
  callFromApp(
    request: { server: string; tool: string; args?: Record<string, unknown> },
    options?: RunOptions,
  ): Promise<CallOutcome>;
  /** The model-visible catalog as OpenAI function tools. */
  toOpenAITools(options?: ExportOptions & { api?: 'chat' }): OpenAIChatTool[];
  toOpenAITools(options: ExportOptions & { api: 'responses' }): OpenAIResponsesTool[];
  /** The model-visible catalog as Anthropic tools. */
  toAnthropicTools(options?: ExportOptions): AnthropicTool[];
  /** Pins: drift reports, re-approval, saving. */
  readonly pins: {
    report(server: string): PinReport | undefined;
    /** Re-approve a changed, renamed or new tool at its current definition. */
    approve(name: string): void;
    /** Pin every current tool of a server. */
    pinServer(server: string): void;
    readonly lock: Lockfile | undefined;
    save(path?: string): Promise<void>;
    /** Read the lockfile again and re-check every server against it (pinning while the gateway runs). */
    reload(): Promise<void>;
  };
  /** Re-list one server's tools (or all). */
  refresh(server?: string): Promise<void>;
  servers(): ServerState[];
  /** A connected server's SDK client (for resources, prompts and completions), or undefined. */
  client(server: string): import('@modelcontextprotocol/client').Client | undefined;
  /** Resolves when remembered approvals are written to `approvalsFile` (immediately without one). */
  approvalsSaved(): Promise<void>;
  on<E extends keyof HostEvents>(event: E, listener: (payload: HostEvents[E]) => void): () => void;
  close(): Promise<void>;
}
