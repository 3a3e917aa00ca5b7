/**
 * A server that speaks only 2026-07-28 (`modern: { only: true }`): the
 * versions it advertises and what it answers to 2025-era traffic.
 *
 * A 2025 client cannot move forward to a newer era, so its refusal is the only
 * thing it can show the person (basic/versioning, "Backward Compatibility":
 * a modern-only server SHOULD name the versions it supports in any error it
 * returns to `initialize`). Every 2025-era request, `initialize` or not, gets
 * the same answer: -32022 UnsupportedProtocolVersion listing what the server
 * speaks, with HTTP 400 (Streamable HTTP: "respond with 400 Bad Request and an
 * UnsupportedProtocolVersionError listing its supported versions").
 */
import type { JsonRpcErrorResponse, JsonRpcId } from '../channel.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../era.js';
import { INVALID_REQUEST } from '../jsonrpc.js';
import { MODERN_PROTOCOL_VERSIONS, refusal, UNSUPPORTED_PROTOCOL_VERSION } from './protocol.js';

/**
 * The versions a server advertises in `server/discover` and lists in -32022:
 * the modern ones, then the 2025 ones unless it speaks only 2026-07-28.
 *
 * @example
 * ```ts
 * supportedVersions(true); // ['2026-07-28']
 * supportedVersions(false); // ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']
 * ```
 */
export function supportedVersions(modernOnly: boolean): readonly string[] {
  return modernOnly ? MODERN_ONLY : ALL;
}

const MODERN_ONLY: readonly string[] = Object.freeze([...MODERN_PROTOCOL_VERSIONS]);
const ALL: readonly string[] = Object.freeze([...MODERN_PROTOCOL_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS]);

/**
 * The answer of a modern-only server to a 2025-era request (`initialize`, or
 * any request without the `_meta` envelope). `requested` is the version the
 * request names: `initialize`'s `protocolVersion`, else its
 * `MCP-Protocol-Version` header; undefined when it names none.
 *
 * @example
 * ```ts
 * legacyRefusal(1, 'initialize', '2025-11-25').error.code; // -32022
 * ```
 */
export function legacyRefusal(id: JsonRpcId, method: string, requested: string | undefined): JsonRpcErrorResponse {
  const speaks = MODERN_ONLY.join(', ');
  const asked =
    method === 'initialize'
      ? `The initialize handshake${requested === undefined ? '' : ` (protocol ${requested})`} belongs to the 2025 protocol versions`
      : `This ${method} request has no "io.modelcontextprotocol/protocolVersion" in params._meta${requested === undefined ? '' : ` and names protocol ${requested}`}, so it is 2025-era traffic`;
  const message = `Unsupported protocol version: this server speaks only ${speaks}. ${asked}, which it does not serve; connect with a client that speaks ${speaks} (every request carries its version in params._meta, there is no initialize).`;
  const data: { supported: string[]; requested?: string } = { supported: [...MODERN_ONLY] };
  if (requested !== undefined) data.requested = requested;
  return refusal(id, 400, UNSUPPORTED_PROTOCOL_VERSION, message, data);
}

/** The answer of a modern-only server to a JSON-RPC batch (the 2026-07-28 era has none). */
export function batchRefusal(): JsonRpcErrorResponse {
  return refusal(
    null,
    400,
    INVALID_REQUEST,
    `Invalid request: this server speaks only ${MODERN_ONLY.join(', ')}, which has no JSON-RPC batches; send each request as its own message.`,
  );
}
