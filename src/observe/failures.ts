/**
 * Why observing could not go on, said plainly: the handshake that did not finish,
 * or a request the server failed, always naming the request and ending with the
 * server's own last stderr lines (its reason is usually there: the sandbox has no
 * network, and a server that fetches something to answer fails).
 */
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { CandorError } from '../errors.js';

/** Whether a request failed because no answer came in time (never a tool error that mentions a timeout). */
export function isTimeout(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
}

/** `lines` indented under a heading, or a sentence saying there were none. */
export function stderrBlock(lines: readonly string[]): string {
  return lines.length === 0
    ? ' It wrote nothing to stderr.'
    : `\nThe server's last stderr lines:\n${lines.map((l) => `  ${l}`).join('\n')}`;
}

/**
 * A start-up failure, with the server's own last words: the usual cause of a silent server here is the missing network.
 *
 * @example
 * ```ts
 * throw startFailure(error, 10_000, stderr.lines()); // "The server stopped before finishing the MCP handshake …"
 * ```
 */
export function startFailure(error: unknown, timeoutMs: number, stderr: readonly string[]): CandorError {
  const message = error instanceof Error ? error.message : String(error);
  return new CandorError(
    `${
      isTimeout(error)
        ? `The server did not finish the MCP handshake within ${timeoutMs} ms in the sandbox. It has no network there: a command that downloads at start (npx -y, uvx) cannot — install the server and give its path, or raise --timeout.`
        : `The server stopped before finishing the MCP handshake in the sandbox (${message}).`
    }${stderrBlock(stderr)}`,
    { code: 'observe_start_failed' },
  );
}

/**
 * A request after the handshake (`tools/list`, the fence after it) that failed: which request, what failed
 * and why — the server's JSON-RPC error code when it answered with an error, else each cause in turn
 * (`fetch failed` says nothing without its `connect ECONNREFUSED …`).
 *
 * @example
 * ```ts
 * throw requestFailure('tools/list', error, stderr.lines()); // "tools/list failed: fetch failed (the server's JSON-RPC error -32603)."
 * ```
 */
export function requestFailure(method: string, error: unknown, stderr: readonly string[]): CandorError {
  const message = error instanceof Error ? error.message : String(error);
  return new CandorError(`${method} failed: ${message}${why(error)}.${stderrBlock(stderr)}`, {
    code: 'observe_list_failed',
    cause: error,
  });
}

/** The parenthesis after a failure's message: who answered it, and its causes. */
function why(error: unknown): string {
  if (error instanceof ProtocolError) {
    const data = error.data === undefined ? '' : `, data ${JSON.stringify(error.data).slice(0, 300)}`;
    return ` (the server's JSON-RPC error ${error.code}${data})`;
  }
  const causes: string[] = [];
  for (let cause = (error as { cause?: unknown })?.cause; cause !== undefined && causes.length < 4; ) {
    causes.push(cause instanceof Error ? cause.message : String(cause));
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return causes.length > 0 ? ` (${causes.map((c) => `cause: ${c}`).join('; ')})` : '';
}
