/**
 * The host's public types: servers, catalog entries, policy, confirmation,
 * calls and their outcomes.
 */
import type { Transport } from '@modelcontextprotocol/client';
import type { EnterpriseSettings } from '../auth/client/enterprise-settings.js';
import type { OAuthClientSettings } from '../auth/client/settings.js';
import type { NormalisedHintSource, Visibility, WireToolLike } from '../tool/annotations.js';
import type { CallToolResult, JsonSchema, ResolvedHints } from '../tool/types.js';
import type { GateVerdict } from './command-gate/gate.js';
import type { FieldChange } from './pins/field-diff.js';

/** Whether a server's annotations may relax policy (`trusted`) or only tighten it (`untrusted`, the default). */
export type Trust = 'trusted' | 'untrusted';

/** Which protocol era to speak: probe and fall back (`auto`), 2025 only (`legacy`), or 2026-07-28 only (`modern`). */
export type EraChoice = 'auto' | 'legacy' | 'modern';

/**
 * How to reach one server. Exactly one of `command` (stdio), `url` (Streamable
 * HTTP) or `transport` (any SDK transport, e.g. in-memory) is required.
 */
export interface ServerConfig {
  /** stdio: the program to start. */
  command?: string;
  args?: string[];
  /** stdio: environment for the child (the SDK's safe default environment when absent). */
  env?: Record<string, string>;
  cwd?: string;
  /** stdio: what to do with the child's stderr (default `inherit`). */
  stderr?: 'inherit' | 'pipe' | 'ignore';
  /** Streamable HTTP endpoint. */
  url?: string;
  /** HTTP headers sent on every request (e.g. `Authorization`). */
  headers?: Record<string, string>;
  /**
   * Sign in with OAuth when the server asks: `'oauth'`, or the client to use
   * (`{ clientId, clientSecret | clientSecretEnv, clientMetadataUrl, scopes, grant }`).
   * The sign-in comes from the credentials store (`candor auth login`); without one the
   * server fails with a message naming that command. Absent: only `headers` are sent.
   */
  auth?: 'oauth' | OAuthClientSettings;
  /**
   * MCP Enterprise-Managed Authorization instead of a sign-in: the person's ID token (from
   * single sign-on, in an environment variable) is exchanged at the IdP for an ID-JAG, which
   * the server's authorization server redeems for an access token.
   */
  enterprise?: EnterpriseSettings;
  /** What follows `candor auth login` in messages about this server (default: its URL). */
  loginTarget?: string;
  /** A ready transport (not yet started). */
  transport?: Transport;
  /** Default `untrusted`: hints may only make policy stricter. */
  trust?: Trust;
  /** Default `auto`. */
  era?: EraChoice;
  /** Default per-call timeout for this server's tools, in milliseconds. */
  timeoutMs?: number;
  /** When true, a server that fails to connect is reported in `host.servers()` instead of failing `createHost`. */
  optional?: boolean;
  /** Give up on a handshake that takes longer than this (default: the SDK's request timeout, 60 s). */
  connectTimeoutMs?: number;
}

/** Where a catalog entry's hints came from: the server, the spec default, or the user's overrides file. */
export type HintOrigin = NormalisedHintSource | 'override' | 'evidence';

/** A tool's state against the lockfile. */
export type PinStatus = 'pinned' | 'new' | 'changed' | 'renamed' | 'unpinned';

/** One tool in the host's catalog. */
export interface CatalogTool {
  /** The namespaced name the model sees and calls: `server__tool`. */
  name: string;
  server: string;
  /** The tool's own name on its server. */
  toolName: string;
  /** The name used in model-API exports (`[A-Za-z0-9_-]{1,64}`); `run()` accepts it too. */
  apiName: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  /** All four hints, explicit: the server's claims (or the overrides), spec defaults where nothing was said. */
  hints: ResolvedHints;
  hintSources: Record<keyof ResolvedHints, HintOrigin>;
  /** `trusted` when the server is trusted or the user declared this tool's effects in an overrides file. */
  trust: Trust;
  /** Whether the hints came from the server or from the user's overrides. */
  declaredBy: 'server' | 'override';
  /**
   * Hints made stricter because lint found evidence against the server's claim
   * (untrusted servers, with `createHost({ tightenHints: true })`); empty otherwise.
   */
  corrections: import('./hint-evidence.js').HintCorrection[];
  /** `_meta["anthropic/requiresUserInteraction"]`: every call is confirmed. */
  requiresUserInteraction: boolean;
  visibility: Visibility[];
  ui?: { resourceUri?: string; visibility?: Visibility[] };
  tags: string[];
  /** Pin hash over name, title, description, schemas, annotations and `_meta.ui`. */
  hash: string;
  pin: PinState;
  warnings: string[];
  /** The tool exactly as the server listed it. */
  wire: WireToolLike;
}

/** The pin state of a catalog tool. */
export interface PinState {
  status: PinStatus;
  /** For `changed` and `renamed`: what differs from the pinned definition. */
  changes?: FieldChange[];
  /** For `renamed`: the pinned name. */
  previousName?: string;
}

/** The three things a policy can say about a call. */
export type PolicyDecision = 'allow' | 'ask' | 'deny';

/** Policy presets. */
export type PolicyPreset = 'default' | 'confirm-writes' | 'yolo' | 'plan';

/**
 * A policy rule. Every condition given must match; a rule without conditions
 * matches every tool. Conditions on hints and tags are claims by the server:
 * for an untrusted tool they can only tighten (ask/deny rules), never relax.
 */
export interface PolicyRule {
  decision: PolicyDecision;
  /** Globs on namespaced tool names (picomatch): `fs__*`, `*__delete_*`. */
  tools?: string | string[];
  /** Globs on server names. */
  servers?: string | string[];
  /** Matches when the tool has any of these tags. */
  tags?: string[];
  /** Matches when every given hint has this value. */
  hints?: Partial<ResolvedHints>;
  /** Shown to the user and the model. */
  reason?: string;
}

/** A policy: a preset plus rules; deny > ask > allow among matching rules. */
export interface PolicyConfig {
  preset?: PolicyPreset;
  rules?: PolicyRule[];
}

/** What `onConfirm` is asked about. */
export interface ConfirmRequest {
  /** Namespaced tool name. */
  tool: string;
  server: string;
  title: string;
  args: Record<string, unknown>;
  hints: ResolvedHints;
  trust: Trust;
  /** Why a person must decide. */
  reason: string;
  /** False when allow-always would not be remembered (destructive in `default`, writes in `confirm-writes`, …). */
  canRemember: boolean;
  /** For command-gated tools: the gate's verdict on the command. */
  command?: GateVerdict & { text: string };
  pin: PinState;
  /**
   * Set when the question is asked because the session holds untrusted content: the
   * earlier results behind it. Such a question is never skipped by a standing permission.
   */
  taint?: TaintSource[];
}

/**
 * Why untrusted content is in a session: the result came from a tool that reaches an
 * open world (`open-world`), or from a server whose word is not trusted, or it was
 * labelled untrusted on the wire (`untrusted`).
 */
export type TaintLabel = 'untrusted' | 'open-world';

/** One earlier result that tainted a session: which tool, which server, why. */
export interface TaintSource {
  tool: string;
  server: string;
  labels: TaintLabel[];
}

/** A session's taint: plain data (JSON-safe), so any store can keep it. Empty: untainted. */
export interface TaintState {
  readonly sources: readonly TaintSource[];
}

/**
 * What a tainted session's destructive or sending calls meet: `ask` a person (refused
 * where nobody can answer), `deny` them, or `off` (taint is not looked at).
 */
export type TaintMode = 'ask' | 'deny' | 'off';

/** A session's taint as the host keeps it between calls: the host replaces `state` as results come in. */
export interface TaintSession {
  state: TaintState;
}

/** A person's answer. */
export type ConfirmAnswer = 'allow-once' | 'allow-always' | 'deny';

/**
 * Called when a call needs a person; no callback means deny. `context` is the
 * `confirmContext` the call was run with (the gateway's downstream call).
 */
export type ConfirmHandler = (request: ConfirmRequest, context?: unknown) => ConfirmAnswer | Promise<ConfirmAnswer>;

/** What to do with a tool that changed (or was renamed) since it was pinned. */
export type PinChangeMode = 'block' | 'ask' | 'warn';

/** Pinning options. */
export interface PinsConfig {
  /** Path of the lockfile (read at start; `host.pins.save()` writes it). */
  file?: string;
  /** A lockfile object, instead of a path. */
  lock?: import('./pins/lockfile.js').Lockfile;
  /** Changed or renamed tools: `block` (default), `ask` or `warn`. */
  onChange?: PinChangeMode;
  /** Tools new to a pinned server: `ask` (default), `block`, `warn` or `allow`. */
  onNew?: PinChangeMode | 'allow';
}

/** A shell-running tool and the argument that holds its command line. */
export interface CommandToolConfig {
  /** Name of the argument holding the command, e.g. `command`. */
  argument: string;
}

/** One call of a model's batch. */
export interface ToolCall {
  /** The caller's id for the call (echoed in the outcome). */
  id?: string;
  /** Namespaced tool name (or an exported model-API name). */
  tool: string;
  args?: Record<string, unknown>;
  /** Per-call timeout in milliseconds. */
  timeoutMs?: number;
  /**
   * A person's approval the caller already obtained (e.g. through an agent
   * framework's own approval step), bound to the pin hash `host.decide()` gave:
   * it answers the host's question instead of `onConfirm`. A tool whose hash
   * changed since asks again; a denial is never overridden.
   */
  approval?: CallApproval;
}

/** An approval obtained outside the host, for one call. */
export interface CallApproval {
  /** The tool's pin hash when the person approved (`host.decide(…).pinHash`). */
  pinHash: string;
  /** Remember it like allow-always (only where the policy lets answers be remembered). */
  always?: boolean;
}

/** What the host would do with a call now (`host.decide`); deciding changes nothing. */
export interface CallDecision {
  /** `allow`: runs without a question; `ask`: needs a person; `deny`: refused. */
  decision: PolicyDecision;
  /** Why, in words for a person and for the model. */
  reason: string;
  /** Whether an allow-always answer to this question would be remembered. */
  canRemember: boolean;
  /** The tool's pin hash now: bind an approval to it (`ToolCall.approval`). Absent for an unknown tool. */
  pinHash?: string;
  /** The tool's namespaced name (absent for an unknown tool). */
  tool?: string;
  /** Whether the host would run the call beside other calls (a vouched read-only call). */
  parallel: boolean;
  /** Set when the session's untrusted content is why it asks or denies: the earlier results behind it. */
  taint?: TaintSource[];
}

/** How a call ended. */
export type CallStatus = 'ok' | 'error' | 'denied' | 'skipped' | 'unknown' | 'timeout' | 'cancelled';

/** The outcome of one call, in the order the calls were given. */
export interface CallOutcome {
  id?: string;
  index: number;
  tool: string;
  server?: string;
  status: CallStatus;
  /** The server's result (`ok`, and `error` when the tool answered `isError`). */
  result?: CallToolResult;
  /** What went wrong, for every status but `ok`. */
  message?: string;
  /**
   * True when the result comes from an open-world tool (or a server whose
   * hints are not trusted): treat its content as untrusted input, not instructions.
   */
  untrustedContent: boolean;
  /** How many times the call was sent (retries after transport failures count). */
  attempts: number;
  /** Whether the call ran in a parallel group of read-only calls. */
  parallel: boolean;
  warnings: string[];
}

/** Options of `host.run()`. */
export interface RunOptions {
  /** Aborts the whole batch: calls in flight are cancelled on the server, pending ones never start. */
  signal?: AbortSignal;
  /** Most read-only calls in flight at once (default: the host's `concurrency`, 8). */
  concurrency?: number;
  /** Default per-call timeout for this batch. */
  timeoutMs?: number;
  /** `_meta` sent with each call of the batch (e.g. `io.modelcontextprotocol/logLevel` for 2026-07-28 servers). */
  meta?: Record<string, unknown>;
  /** Progress the server reports for a call (asks the server for progress when given). */
  onProgress?: (index: number, progress: { progress: number; total?: number; message?: string }) => void;
  /**
   * The conversation these calls belong to, for taint (`createTaintSession()`): results
   * taint it, and its later destructive or sending calls ask. Default: the host's own
   * session, shared by every call of this host.
   */
  taint?: TaintSession;
}

/**
 * What the host needs of a connection to call a tool through it (a `ServerConnection`
 * has it all): the narrow face a caller-supplied connection must show.
 */
export interface HostConnection {
  readonly config: { readonly timeoutMs?: number };
  readonly needsReconnect: boolean;
  connect(): Promise<void>;
  callTool(name: string, args: Record<string, unknown>, options: ConnectionCallOptions): Promise<CallToolResult>;
}

/**
 * Listen for a call's cancellation without an AbortSignal: `listener` runs once with the
 * reason (at once when already cancelled); the function returned stops listening.
 */
export type AbortHook = (listener: (reason: unknown) => void) => () => void;

/** Options of one call through a {@link HostConnection}. */
export interface ConnectionCallOptions {
  signal?: AbortSignal;
  /** Cancellation as a hook (cheaper than `signal` per call); used when `signal` is absent. */
  onAbort?: AbortHook;
  timeoutMs?: number;
  onProgress?: (progress: { progress: number; total?: number; message?: string }) => void;
  /** `_meta` for the request (e.g. the 2026-07-28 `io.modelcontextprotocol/logLevel`). */
  meta?: Record<string, unknown>;
}

/**
 * Run options only candor's gateway uses: where to ask for confirmation and which
 * connection carries a call. Reached through `routedCalls(host)`, never through the
 * public `RunOptions`, so an agent's options stay what an agent needs.
 */
export interface RoutedRunOptions extends RunOptions {
  /**
   * Handed to `onConfirm` with the request, to say whom to ask. The gateway passes its
   * downstream call; finding it through AsyncLocalStorage instead made node 20 run a hook
   * for every promise in the process (about 15% of the gateway's CPU per proxied call).
   */
  confirmContext?: unknown;
  /**
   * The connection to call a server through, instead of the host's own (the gateway passes
   * each person's connection to an `"auth": "oauth-per-user"` server), asked for once the call
   * is authorised; what it throws is the call's error. Undefined: the host's.
   */
  connection?: (server: string) => HostConnection | undefined | Promise<HostConnection | undefined>;
  /**
   * The call's cancellation as a hook, for a single call without a `signal` (the gateway
   * passes its downstream call's `ctx.onAbort`: no AbortSignal is made per proxied call).
   */
  onAbort?: AbortHook;
  /** How taint is treated for this call (the gateway's profile's setting); default the host's `taint` option. */
  taintMode?: TaintMode;
}

/** The gateway's way into a host: `call` and `callFromApp` taking {@link RoutedRunOptions}. */
export interface RoutedCalls {
  call(
    tool: string,
    args: Record<string, unknown> | undefined,
    options: RoutedRunOptions & { approval?: CallApproval },
  ): Promise<CallOutcome>;
  callFromApp(
    request: { server: string; tool: string; args?: Record<string, unknown> },
    options: RoutedRunOptions,
  ): Promise<CallOutcome>;
}

/** The key of the host's routed calls (see `routedCalls` in routed-calls.ts). */
export const ROUTED_CALLS: unique symbol = Symbol('candor.host.routedCalls');
