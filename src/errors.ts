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
export class CandorError extends Error {
  override readonly name: string = 'CandorError';
  readonly code: string;

  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code ?? 'candor_error';
  }
}

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
export class ToolError extends CandorError {
  override readonly name = 'ToolError';

  constructor(message: string, options: { code?: string; cause?: unknown } = {}) {
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
