/**
 * Errors from a request to a connected server, as one clear line: it timed
 * out, the server went away mid-call (with its last stderr lines), or it
 * answered with a JSON-RPC error.
 */
import { CliError } from './cli-error.js';

/**
 * Describe a failed request.
 *
 * @example
 * ```ts
 * try { await client.callTool(params, { timeout }); }
 * catch (error) { throw describeRequestError(error, { label, what: 'tools/call read_file', timeoutMs, stderr: [] }); }
 * ```
 */
export function describeRequestError(
  error: unknown,
  context: { label: string; what: string; timeoutMs: number; stderr: readonly string[] },
): CliError {
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  const tail = context.stderr.length > 0 ? ['Last stderr lines:', ...context.stderr.map((l) => `  ${l}`)] : [];
  if (code === 'REQUEST_TIMEOUT' || code === -32001) {
    return new CliError(
      `${context.label}: ${context.what} got no answer within ${context.timeoutMs} ms (raise it with --timeout <ms>).`,
      { cause: error, details: tail },
    );
  }
  if (code === 'CONNECTION_CLOSED' || code === 'NOT_CONNECTED' || code === 'SEND_FAILED' || code === -32000) {
    return new CliError(`${context.label}: the server went away during ${context.what} (${message}).`, {
      cause: error,
      details: tail,
    });
  }
  if (typeof code === 'number') {
    return new CliError(`${context.label}: ${context.what} failed with JSON-RPC error ${code}: ${message}`, {
      cause: error,
    });
  }
  return new CliError(`${context.label}: ${context.what} failed: ${message}`, { cause: error, details: tail });
}
