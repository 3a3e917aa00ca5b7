/**
 * One server process for the era question over stdio.
 *
 * In `auto` mode the SDK asks a stdio server `server/discover` on a disposable sibling:
 * a second process started from the same command and reaped once the era is known.
 * Every server would start twice, with its start-up effects (files, locks, a browser, a
 * sandbox) twice, and a lock the sibling still holds can stop the real start. The SDK
 * asks in place when the transport is a subclass of its own, as this one is; a server
 * that quits on a request before `initialize` (some SDKs' servers do) is then started
 * once more, speaking 2025-11-25 ({@link closedDuringProbe} tells the caller when).
 */
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** The SDK's stdio transport, asked the era question in place (see the file comment). */
export class InPlaceStdioTransport extends StdioClientTransport {}

/**
 * Whether a failed `auto` handshake means the server went away while asked
 * `server/discover`: it quits on requests before `initialize`; start it again in 2025-11-25.
 *
 * @example
 * ```ts
 * if (era === 'auto' && closedDuringProbe(error)) await connect('legacy');
 * ```
 */
export function closedDuringProbe(error: unknown): boolean {
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 5; depth++) {
    if (
      e instanceof SdkError &&
      e.code === SdkErrorCode.EraNegotiationFailed &&
      /closed during the (version negotiation|server\/discover) probe/i.test(e.message)
    ) {
      return true;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
