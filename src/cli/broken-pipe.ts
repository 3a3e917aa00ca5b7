/**
 * Output to a reader that went away (`candor ui --help | head -1`): the write fails
 * with EPIPE, which Node raises as an 'error' event that, unhandled, crashes the
 * process with a stack trace. The reader has what it wanted, so the CLI stops there
 * quietly, as Unix tools do, with the exit code the command had so far (0 if none).
 */

/** The streams a command writes to; `exit` ends the process (injected by the tests). */
export interface PipeStreams {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  exit?: (code: number) => void;
}

/**
 * End the process quietly when stdout or stderr loses its reader. A stream whose other
 * 'error' listeners handle EPIPE themselves (the stdio transport keeps serving until
 * stdin ends) is left to them.
 *
 * @example
 * ```ts
 * exitQuietlyOnBrokenPipe({ stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export function exitQuietlyOnBrokenPipe({ stdout, stderr, exit = (code) => process.exit(code) }: PipeStreams): void {
  for (const stream of [stdout, stderr]) {
    const onError = (error: NodeJS.ErrnoException) => {
      const others = stream.listeners('error').filter((listener) => listener !== onError);
      if (error.code === 'EPIPE' && others.length > 0) return;
      if (error.code === 'EPIPE') {
        exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
        return;
      }
      // Anything else on the terminal's own streams is unexpected: fail as an unhandled error would.
      if (others.length === 0) throw error;
    };
    stream.on('error', onError);
  }
}
