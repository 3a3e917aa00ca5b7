/**
 * The tool model's types. A tool definition is plain data: builders
 * (`defineTool`, `BaseTool`) produce it, and everything downstream (registry,
 * engine, lint, host) reads it.
 */

/** What a tool does to the world it touches. */
export type Effect = 'read' | 'additive' | 'destructive';

/** Whether the tool talks only to a closed, known set of things or to an open world. */
export type World = 'closed' | 'open';

/** The MCP tool annotations as a server author may write them (every field optional). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** The four behaviour hints, all explicit. */
export interface ResolvedHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export type HintName = keyof ResolvedHints;

/**
 * Where a resolved hint came from:
 * - `effect`: derived from the declared `effect` / `world` / `idempotent`;
 * - `annotation`: written in `annotations`;
 * - `default`: nothing said it, so the spec's worst-case default applies;
 * - `inferred`: filled in from the name by `inferEffects` because the caller asked (`infer: true`).
 */
export type HintSource = 'effect' | 'annotation' | 'default' | 'inferred';

/**
 * How the tool's behaviour was declared:
 * `effects` (effect/world), `annotations` (raw hints), `inferred` (from the name, opt-in),
 * `undeclared` (nothing at all: worst case).
 */
export type Declaration = 'effects' | 'annotations' | 'inferred' | 'undeclared';

/** `ui` of an MCP Apps tool: becomes `_meta.ui` on the wire. */
export interface ToolUi {
  /** A `ui://` resource the host renders for this tool. */
  resourceUri?: string;
  /** Who may see and call the tool; default (absent) means `['model', 'app']`. */
  visibility?: ReadonlyArray<'model' | 'app'>;
}

/** A per-tool rate limit: at most `max` calls per `windowMs`. */
export interface RateLimit {
  windowMs: number;
  max: number;
}

/** A JSON Schema object (2020-12 dialect by default). */
export type JsonSchema = { [key: string]: unknown };

/** The result of validating a value against a tool schema. */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; issues: ReadonlyArray<ValidationIssue> };

/** One validation problem, with the path to the offending value. */
export interface ValidationIssue {
  /** Path segments from the root, e.g. `['items', 2, 'name']`. */
  path: ReadonlyArray<string | number>;
  message: string;
}

/** A compiled schema: its JSON Schema (computed once) and a validator. */
export interface CompiledSchema<T = unknown> {
  jsonSchema: JsonSchema;
  validate(value: unknown): ValidationResult<T> | Promise<ValidationResult<T>>;
}

/** Content blocks and results as MCP puts them on the wire (kept structural on purpose). */
export interface TextContent {
  type: 'text';
  text: string;
  [key: string]: unknown;
}
export type ContentBlock = TextContent | { type: string; [key: string]: unknown };

/** A `tools/call` result as it goes on the wire. */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: { [key: string]: unknown };
  isError?: boolean;
  _meta?: { [key: string]: unknown };
  [key: string]: unknown;
}

/**
 * What a handler may return: a full {@link CallToolResult}, a string (one text
 * block), or any other JSON value (sent as `structuredContent` when the tool has an
 * output schema, and as JSON text in both cases).
 */
export type HandlerReturn = CallToolResult | string | unknown;

/** Logging levels as in MCP (RFC 5424). */
export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** A form elicitation, as in `elicitation/create` (mode `form`). */
export interface FormElicitParams {
  mode?: 'form';
  message: string;
  /** A flat object schema of primitives, enums and defaults. */
  requestedSchema: JsonSchema;
}

/**
 * A URL-mode elicitation (2025-11-25): the client shows `url` to the person, who
 * finishes something out of band (a sign-in, a payment) in the browser. The answer
 * `accept` means "opened", not "finished"; the server learns the rest itself.
 * Only for clients that declare `elicitation.url`.
 */
export interface UrlElicitParams {
  mode: 'url';
  message: string;
  url: string;
  /** Unique on this server; `elicitationComplete(id)` names it when the flow finished. */
  elicitationId: string;
}

/** What `ctx.elicit()` asks: a form, or (2025-11-25 and later) a URL to open. */
export type ElicitParams = FormElicitParams | UrlElicitParams;

/**
 * How a handler's question is named. In the 2026-07-28 era a question travels
 * as an entry of the `input_required` result's `inputRequests`, under this key
 * (default: numbered in the order asked, `elicit-0`, `sample-1`, …). Naming it
 * keeps the key stable when which questions a handler asks depends on earlier
 * answers, and readable for clients. Ignored in the 2025 era.
 */
export interface AskOptions {
  /** 1–200 characters, unique among the questions of one call. */
  key?: string;
}

export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: { [key: string]: unknown };
}

/** Parameters of `sampling/createMessage` (kept structural; see the MCP schema). */
export interface SampleParams {
  messages: Array<{ role: 'user' | 'assistant'; content: unknown }>;
  maxTokens: number;
  systemPrompt?: string;
  [key: string]: unknown;
}

export interface SampleResult {
  role: 'assistant' | 'user';
  content: unknown;
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

/** Authentication information a transport attached to the request. */
export interface AuthInfo {
  /** Set by your own middleware if it wants; candor's resource server never puts the token here. */
  token?: string;
  clientId?: string;
  scopes?: string[];
  subject?: string;
  /** When the token expires, in seconds since the epoch (JWT `exp`). */
  expiresAt?: number;
  /** The verified token's claims (JWT payload or introspection response). */
  claims?: Readonly<Record<string, unknown>>;
  extra?: { [key: string]: unknown };
}

/** HTTP details of the request, present only when the call came over HTTP. */
export interface HttpInfo {
  method: string;
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  remoteAddress?: string;
  /**
   * End this request's SSE stream now, mid-call, so the client reconnects with
   * `Last-Event-ID` and receives the rest (SEP-1699 polling). False when there is
   * no stream to close.
   */
  closeStream?(): boolean;
}

/**
 * What a handler and middleware see for one call. Grouped by concern; the resolved
 * tool rides along so middleware never has to look it up again.
 */
export interface ToolContext<Args = unknown> {
  /** The resolved tool definition (effects, hints, tags, limits). */
  readonly tool: ToolDefinition;
  /** The validated arguments (before validation in middleware that runs earlier: the raw ones). */
  args: Args;
  /** Aborted on cancellation, timeout, disconnect (2026 era) or shutdown. */
  readonly signal: AbortSignal;
  /**
   * The same event as `signal` for one listener, without building an AbortSignal (a proxy
   * that passes cancellation on saves that on every call): `listener` runs once with the
   * reason (at once if the call is already aborted); the function returned stops listening.
   */
  onAbort(listener: (reason: unknown) => void): () => void;
  /** The JSON-RPC id of the `tools/call` request. */
  readonly requestId: string | number;
  /** Which protocol era this call arrived in. */
  readonly era: '2025' | '2026';
  readonly auth?: AuthInfo;
  readonly session?: { readonly id: string };
  /** Present only when the call came over HTTP. */
  readonly http?: HttpInfo;
  /** Present when the call runs as an MCP task (the client polls for its result; see README "Tasks"). */
  readonly task?: { readonly taskId: string };
  /** Free-form per-call storage for middleware. */
  readonly state: Map<string, unknown>;
  /**
   * What the client declared it can do (`elicitation`, `sampling`, `roots`, …):
   * at `initialize` in the 2025 era, in this request's `_meta` in 2026-07-28.
   * Ask only what it can answer; asking anyway is refused with a clear error.
   */
  readonly clientCapabilities: Readonly<{ [key: string]: unknown }>;
  /** Report progress; a no-op when the client sent no progress token. */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Send a log message to the client (filtered by `logging/setLevel`). */
  log(level: LogLevel, data: unknown, logger?: string): Promise<void>;
  /** Ask the user for structured input through the client. */
  elicit(params: ElicitParams, options?: AskOptions): Promise<ElicitResult>;
  /**
   * Tell the client that a URL-mode elicitation's out-of-band flow finished
   * (`notifications/elicitation/complete`, 2025 era; a 2026-07-28 client learns it by retrying).
   */
  elicitationComplete(elicitationId: string): void;
  /** Ask the user a yes/no question: true on accept, false on decline or cancel. */
  confirm(message: string, options?: AskOptions): Promise<boolean>;
  /** Ask the client's model for a completion. */
  sample(params: SampleParams, options?: AskOptions): Promise<SampleResult>;
  /** Ask the client for its roots. */
  listRoots(options?: AskOptions): Promise<Array<{ uri: string; name?: string }>>;
  /**
   * For a tool declared `asksBeforeTask`: the questions are done, run the rest as
   * a task. In the 2026-07-28 era with the tasks extension, the request is
   * answered with the task here and the handler runs again from the start as the
   * task's work (its questions resolve from the answers, this call resolves at
   * once), so code before it runs twice. Anywhere else it resolves at once.
   */
  becomeTask(): Promise<void>;
}

/** A tool handler: called with validated arguments and the call context. */
export type ToolHandler<Args = unknown> = (
  args: Args,
  ctx: ToolContext<Args>,
) => HandlerReturn | Promise<HandlerReturn>;

/** What `inferEffects` concluded from a name. */
export interface Inference {
  effect: Effect;
  world: World;
  idempotent: boolean;
  confidence: 'high' | 'medium' | 'low';
  reasons: string[];
}

/**
 * How a tool takes part in MCP tasks (2025-11-25 `execution.taskSupport`;
 * 2026-07-28 extension `io.modelcontextprotocol/tasks`): `optional` — a client
 * may run it as a task; `required` — only as a task.
 */
export type TaskSupport = 'optional' | 'required';

/** The `tools/list` entry of one tool, as it goes on the wire. */
export interface WireTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations: ResolvedHints & { title: string };
  _meta?: { [key: string]: unknown };
  [key: string]: unknown;
}

/**
 * A resolved tool definition: plain data. Everything in it is computed once, at
 * definition time; nothing downstream re-derives it.
 */
export interface ToolDefinition<Args = any> {
  readonly kind: 'tool';
  readonly name: string;
  readonly title: string;
  /** Where the title came from: `title`, `annotations.title`, or derived from the name. */
  readonly titleSource: 'title' | 'annotations' | 'derived';
  readonly description: string;
  readonly effect: Effect;
  readonly world: World;
  readonly idempotent: boolean;
  readonly hints: Readonly<ResolvedHints>;
  readonly hintSources: Readonly<Record<HintName, HintSource>>;
  readonly declaration: Declaration;
  /** Present when the hints were filled in by inference (`infer: true`). */
  readonly inference?: Inference;
  readonly tags: readonly string[];
  readonly category?: string;
  readonly ui?: Readonly<ToolUi>;
  readonly rateLimit?: Readonly<RateLimit>;
  readonly timeoutMs?: number;
  /** OAuth scopes the tool needs under `auth` (default: derived from `effect`). */
  readonly scopes?: readonly string[];
  /**
   * Whether the tool runs as a task (MCP tasks): `optional` or `required`;
   * undefined means forbidden, the spec's default. On the wire: `execution.taskSupport`.
   */
  readonly task?: TaskSupport;
  /** The handler asks first, then calls `ctx.becomeTask()` (see `defineTool`'s `asksBeforeTask`). */
  readonly asksBeforeTask?: boolean;
  readonly input: CompiledSchema<Args>;
  readonly output?: CompiledSchema;
  readonly handler: ToolHandler<Args>;
  /** Extra `_meta` the author set (merged into the wire tool). */
  readonly meta?: Readonly<Record<string, unknown>>;
  /** The `tools/list` entry, computed once. */
  readonly wire: Readonly<WireTool>;
}
