/**
 * candor's error classes: one base, a few narrow subclasses, each with a literal
 * `name` and a `code`, and guards that also match by name so errors that crossed
 * a module or realm boundary are still recognised.
 *
 * @example
 * ```ts
 * throw new ToolError('The file is larger than 1 MiB; pass a line range.');
 * ```
 */
/**
 * Every code a {@link CandorError} carries: one union, so a new code is a deliberate,
 * documented addition (the reference page `docs/reference/error-codes.md` lists them).
 */
export type CandorErrorCode =
  /** An error with no narrower code. */
  | 'candor_error'
  /** Arguments that are not a JSON object of the tool's schema. */
  | 'invalid_arguments'
  /** A tool failed on purpose (`ToolError`): its message is shown to the model as an `isError` result. */
  | 'tool_error'
  /** A JSON-RPC error the engine answers with (`ProtocolError`; `rpcCode` holds the JSON-RPC code). */
  | 'protocol_error'
  /** A tool, resource or prompt definition was refused at registration (`DefinitionError.fields` says which fields). */
  | 'invalid_definition'
  /** No tool of that name is offered. */
  | 'unknown_tool'
  /** No server of that name is configured. */
  | 'unknown_server'
  /** A pagination cursor that this server did not issue, or that belongs to another query. */
  | 'invalid_cursor'
  /** A tool's structured result does not match its output schema. */
  | 'output_invalid'
  /** A tool call ran past its time limit; its signal was aborted. */
  | 'tool_timeout'
  /** The client cancelled the request (`notifications/cancelled`). */
  | 'cancelled'
  /** A task was cancelled before it finished (`tasks/cancel`). */
  | 'task_cancelled'
  /** A call was turned into a task while it ran (2026-07-28). */
  | 'became_task'
  /** A 2026-07-28 call needs an answer from the client first (an `input_required` result). */
  | 'input_required'
  /** A tool needs to ask the user, and the client did not declare elicitation. */
  | 'elicitation_unsupported'
  /** A tool needs sampling, and the client did not declare it. */
  | 'sampling_unsupported'
  /** A tool needs the client's roots, and the client did not declare them. */
  | 'roots_unsupported'
  /** A server→client request (elicitation, sampling, roots) failed or was refused. */
  | 'client_request_failed'
  /** `createHost` options that cannot work (the message names the option). */
  | 'invalid_host_options'
  /** An object that is not a host made by `createHost` was passed where one is needed. */
  | 'invalid_host'
  /** A server entry of a config that cannot be started (no command or URL, bad types). */
  | 'invalid_server_config'
  /** A gateway config that cannot work (the message names the key). */
  | 'invalid_gateway_config'
  /** A lint config file that does not validate. */
  | 'invalid_lint_config'
  /** A policy preset or rule that does not validate. */
  | 'invalid_policy'
  /** Cedar rules that do not parse or validate. */
  | 'invalid_rules'
  /** An overrides file that does not validate. */
  | 'invalid_overrides'
  /** An approvals file that does not validate. */
  | 'invalid_approvals'
  /** `host.run()` was given something other than an array of calls. */
  | 'invalid_calls'
  /** An agent framework adapter was given options it cannot use. */
  | 'invalid_adapter_options'
  /** A target (command, URL, config entry, module) that cannot be parsed. */
  | 'invalid_target'
  /** A code-mode script did not run to its end (`ScriptError.kind` says why). */
  | 'script_failed'
  /** A stored script that cannot be saved (its name is taken, or its name, description or code is not valid). */
  | 'invalid_script'
  /** An optional peer dependency the feature needs is not installed. */
  | 'missing_peer_dependency'
  /** Two servers offer a tool under one name. */
  | 'catalog_collision'
  /** A command line that cannot work (`candor` exits 2). */
  | 'usage'
  /** The CLI stopped with a message for the person at the terminal. */
  | 'cli_error'
  /** A server could not be connected. */
  | 'connect_failed'
  /** A server is not connected (yet, or any more). */
  | 'not_connected'
  /** A server URL could not be reached. */
  | 'target_unreachable'
  /** A stdio server exited before it answered. */
  | 'target_exited'
  /** A stdio server's command was not found. */
  | 'target_not_found'
  /** A server did not finish the handshake in time. */
  | 'target_timeout'
  /** The server does not speak the protocol era the client was held to (`--protocol`). */
  | 'target_protocol'
  /** The HTTP server could not listen on the address. */
  | 'listen_failed'
  /** A part that needs Node.js (stdio, listen, Redis, rate limits) was used on another runtime. */
  | 'node_only'
  /** The shared store (Redis) is unreachable; the instance serves degraded. */
  | 'store_unavailable'
  /** OAuth settings that cannot work. */
  | 'auth_config'
  /** The authorization server refused the sign-in. */
  | 'auth_refused'
  /** The authorization server refused the requested scope. */
  | 'auth_invalid_scope'
  /** The sign-in redirect could not be received. */
  | 'auth_redirect'
  /** The sign-in was not finished in time. */
  | 'auth_timeout'
  /** The server's or authorization server's OAuth metadata could not be discovered. */
  | 'auth_discovery'
  /** A sign-in failed for a reason the other auth codes do not name (the message says which). */
  | 'auth_failed'
  /** The authorization server's issuer does not match its metadata (RFC 8414 issuer check). */
  | 'auth_issuer'
  /** The authorization server refused dynamic client registration. */
  | 'auth_registration_refused'
  /** The token endpoint answered with an error. */
  | 'auth_token_response'
  /** The token endpoint answered with something that is not a token response. */
  | 'invalid_token_response'
  /** A sign-in came back with a `state` that was not issued (a forged or stale redirect). */
  | 'auth_state_mismatch'
  /** An authorization server on plain `http://` that is not this machine. */
  | 'auth_insecure'
  /** A server needs a sign-in first (`candor auth login`). */
  | 'sign_in_required'
  /** The credentials file cannot be read. */
  | 'credentials_unreadable'
  /** The credentials file cannot be written. */
  | 'credentials_unwritable'
  /** The credentials file is not valid JSON of the expected shape. */
  | 'credentials_corrupt'
  /** Another process holds the credentials file's lock. */
  | 'credentials_locked'
  /** Pins were asked for, and the host has no lockfile configured. */
  | 'pins_off'
  /** The lockfile does not validate. */
  | 'lockfile_invalid'
  /** The lockfile cannot be read. */
  | 'lockfile_unreadable'
  /** The lockfile's folder does not exist. */
  | 'lockfile_path_missing'
  /** The sandbox needs bubblewrap (`bwrap`), which is missing or cannot run here. */
  | 'sandbox_unsupported'
  /** The sandbox could not be set up. */
  | 'sandbox_failed'
  /** `candor observe` cannot run on this machine (it needs Linux, bwrap and strace). */
  | 'observe_unsupported'
  /** `candor scan` could not install the npm package (npm's own message is the error's). */
  | 'install_failed'
  /** The observed server did not start. */
  | 'observe_start_failed'
  /** The observed server started, but a request after the handshake (its tools/list) failed. */
  | 'observe_list_failed'
  /** The workdir to copy into the sandbox is too large. */
  | 'observe_workdir_too_large'
  /** A service double (a database, an HTTPS API or a page beside the observed server) could not start, or `--service` named none. */
  | 'observe_double_failed'
  /** The console's browser bundle is missing (run `npm run build`). */
  | 'ui_assets_missing'
  /** An MCP App view called a tool it may not call. */
  | 'view_call_refused'
  /** A request of the console's browser code to its server failed. */
  | 'console_request_failed'
  /** The authorization server's signing keys could not be fetched. */
  | 'keys_unavailable'
  /** A check inside candor failed; it is reported, never shown to a model. */
  | 'internal';

export class CandorError<Code extends string = CandorErrorCode> extends Error {
  override readonly name: string = 'CandorError';
  readonly code: Code;

  constructor(message: string, options: { code?: NoInfer<Code>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code ?? ('candor_error' as Code);
  }
}

/**
 * A tool failure's code: one of candor's, or the tool author's own reason
 * (`'not_found'`, `'too_large'`), which a host can act on.
 */
export type ToolErrorCode = CandorErrorCode | (string & {});

/** A tool, resource or prompt definition that cannot be accepted (refused at definition time). */
export class DefinitionError extends CandorError {
  override readonly name = 'DefinitionError';
  /** The definition fields the problem is about, e.g. `['effect', 'annotations.readOnlyHint']`. */
  readonly fields: readonly string[];

  constructor(message: string, options: { fields?: readonly string[]; cause?: unknown } = {}) {
    super(message, { code: 'invalid_definition', cause: options.cause });
    this.fields = options.fields ?? [];
  }
}

/**
 * Thrown by a tool handler on purpose: its message is shown to the model as an
 * `isError` result. Any other exception is masked (SEP-1303 says tool failures are
 * results; masking keeps internals such as paths or SQL out of the model's context).
 *
 * @example
 * ```ts
 * if (!exists) throw new ToolError(`No file at ${path}; list_directory shows what is there.`);
 * ```
 */
export class ToolError extends CandorError<ToolErrorCode> {
  override readonly name = 'ToolError';

  constructor(message: string, options: { code?: ToolErrorCode; cause?: unknown } = {}) {
    super(message, { code: options.code ?? 'tool_error', cause: options.cause });
  }
}

/** A JSON-RPC level error the engine answers with (`code` is the numeric JSON-RPC code). */
export class ProtocolError extends CandorError {
  override readonly name = 'ProtocolError';
  readonly rpcCode: number;
  readonly data: unknown;

  constructor(rpcCode: number, message: string, data?: unknown) {
    super(message, { code: 'protocol_error' });
    this.rpcCode = rpcCode;
    this.data = data;
  }
}

function hasName(error: unknown, name: string): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === name;
}

/** True for a {@link DefinitionError}, also across module copies. */
export function isDefinitionError(error: unknown): error is DefinitionError {
  return error instanceof DefinitionError || hasName(error, 'DefinitionError');
}

/** True for a {@link ToolError}, also across module copies. */
export function isToolError(error: unknown): error is ToolError {
  return error instanceof ToolError || hasName(error, 'ToolError');
}

/** True for a {@link ProtocolError}, also across module copies. */
export function isProtocolError(error: unknown): error is ProtocolError {
  return error instanceof ProtocolError || hasName(error, 'ProtocolError');
}

/** The names of the error family, for recognising errors that crossed a module or realm boundary. */
const FAMILY = new Set([
  'CandorError',
  'DefinitionError',
  'ToolError',
  'ProtocolError',
  'ClientRequestError',
  'InputRequiredError',
  'BecameTaskError',
  'MissingCapabilityError',
  'ToolTimeoutError',
  'TaskCancelledError',
  'CancelledError',
  'InvalidTaskCursorError',
  'OutputSchemaError',
  'StoreUnavailableError',
  'SignInRequiredError',
  'PerUserRefusal',
  'DelegationRefusal',
  'TokenExchangeError',
  'CliError',
  'InstallError',
  'ViewCallRefused',
  'ApiError',
  'ApiFailure',
  'KeysUnavailable',
  'JsonSyntaxStop',
  'UnsupportedPattern',
]);

/**
 * True for any error candor throws (a {@link CandorError} or one of its subclasses),
 * also when it crossed a module copy or a structured clone: then its `name` is one of
 * the family's and it has a string `code`.
 *
 * @example
 * ```ts
 * try {
 *   await host.call('fs__read_file', { path: 'a.txt' });
 * } catch (error) {
 *   if (isCandorError(error) && error.code === 'not_connected') reconnectLater();
 *   else throw error;
 * }
 * ```
 */
export function isCandorError(error: unknown): error is CandorError<ToolErrorCode> {
  if (error instanceof CandorError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { name, code } = error as { name?: unknown; code?: unknown };
  return typeof name === 'string' && FAMILY.has(name) && typeof code === 'string';
}
