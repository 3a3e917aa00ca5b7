/**
 * How a script run fails: one error class whose `kind` says which limit or
 * failure it was, and whose message is what the model reads (with the script's
 * line when the script threw).
 */
import { CandorError } from '../../errors.js';

/** Which way a script run ended badly. */
export type ScriptFailure =
  /** The script did not parse. */
  | 'syntax'
  /** The script threw (or a promise it returned rejected). */
  | 'threw'
  /** Past the memory limit. */
  | 'memory'
  /** Past the CPU-time limit (its own code, not the tool calls). */
  | 'cpu'
  /** Past the wall-clock deadline. */
  | 'deadline'
  /** The returned value or the console output is past the output limit. */
  | 'output'
  /** More tool calls than one run may make. */
  | 'calls'
  /** The script awaits something nothing will ever settle. */
  | 'stalled'
  /** The request was cancelled, or the person denied a call and so stopped the script. */
  | 'stopped';

/**
 * A script that could not run to its end.
 *
 * @example
 * ```ts
 * try { await runScript({ code, names: [], call }); }
 * catch (error) { if (error instanceof ScriptError) console.log(error.kind, error.line); }
 * ```
 */
export class ScriptError extends CandorError {
  override readonly name = 'ScriptError';
  readonly kind: ScriptFailure;
  /** The script's line the error was thrown at, when known (1 = the first line). */
  readonly line: number | undefined;

  constructor(kind: ScriptFailure, message: string, options: { line?: number; cause?: unknown } = {}) {
    super(message, { code: 'script_failed', cause: options.cause });
    this.kind = kind;
    this.line = options.line;
  }
}

/**
 * Wraps an error a tool call raised that must end the whole run and reach the
 * caller as it is (a denial, an `input_required` round), rather than reject one
 * call the script could catch.
 *
 * @example
 * ```ts
 * throw new HaltScript(new ScriptError('stopped', 'The person denied this script.'));
 * ```
 */
export class HaltScript {
  constructor(readonly error: unknown) {}
}
