/**
 * How the CLI fails: one line that says what went wrong and what to do, a
 * non-zero exit code, and a stack trace only with `--debug`.
 */
import { CandorError, isCandorError } from '../errors.js';

/** Exit codes: 1 = the thing asked for failed, 2 = the command line itself is wrong. */
export const EXIT = Object.freeze({ failure: 1, usage: 2 });

/**
 * A failure the CLI reports as one clear message (no stack unless `--debug`).
 *
 * @example
 * ```ts
 * throw new CliError('Unknown tool "raed_file". Did you mean read_file?', { exitCode: EXIT.usage });
 * ```
 */
export class CliError extends CandorError {
  override readonly name = 'CliError';
  readonly exitCode: number;
  /** Extra lines printed under the message (suggestions, the JSON with a caret). */
  readonly details: readonly string[];

  constructor(message: string, options: { exitCode?: number; details?: readonly string[]; cause?: unknown } = {}) {
    super(message, { code: 'cli_error', cause: options.cause });
    this.exitCode = options.exitCode ?? EXIT.failure;
    this.details = options.details ?? [];
  }
}

function signInRequired(error: unknown): boolean {
  return (error as { name?: unknown } | null)?.name === 'SignInRequiredError';
}

/** True for a {@link CliError}, also across module copies. */
export function isCliError(error: unknown): error is CliError {
  return error instanceof CliError || (error as { name?: unknown } | null)?.name === 'CliError';
}

/**
 * True when the error is one nobody meant to throw (a bug, or a library's surprise), so
 * its stack trace helps whoever reports it. candor's own errors and the system's
 * (`ENOENT`, `EACCES`: they name the file and the call) already say everything.
 */
function stackWouldHelp(error: unknown): boolean {
  if (isCliError(error) || isCandorError(error)) return false;
  return typeof (error as { syscall?: unknown } | null)?.syscall !== 'string';
}

/**
 * Print an error the way the CLI does and return the exit code to use.
 *
 * @example
 * ```ts
 * process.exitCode = reportError(error, { debug: false, write: (s) => process.stderr.write(s) });
 * ```
 */
export function reportError(error: unknown, options: { debug: boolean; write: (text: string) => void }): number {
  if (signInRequired(error) && !options.debug) {
    // One line naming `candor auth login …`, exit 2: the fix is a command to run.
    options.write(`candor: ${(error as Error).message}\n`);
    return EXIT.usage;
  }
  const message = error instanceof Error ? error.message : String(error);
  const lines = [`candor: ${message}`];
  if (isCliError(error)) lines.push(...error.details);
  if (options.debug && error instanceof Error && error.stack) {
    lines.push('', error.stack);
    let cause = (error as { cause?: unknown }).cause;
    while (cause instanceof Error) {
      lines.push(`caused by: ${cause.stack ?? cause.message}`);
      cause = (cause as { cause?: unknown }).cause;
    }
  } else if (stackWouldHelp(error)) {
    lines.push('(run with --debug for the stack trace)');
  }
  options.write(`${lines.join('\n')}\n`);
  return isCliError(error) ? error.exitCode : EXIT.failure;
}
