/**
 * Protocol versions and what differs between them, in one place. Every
 * version-dependent decision in the engine asks this module (the 2026-07-28 era
 * is added here later).
 */

/** The protocol revisions of the 2025 era, newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;

export type ProtocolVersion = (typeof SUPPORTED_PROTOCOL_VERSIONS)[number];

/** The version the server answers with when the client asks for one it does not support. */
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = '2025-11-25';

/**
 * The version assumed for a peer that never negotiated one (Streamable HTTP,
 * 2025-06-18: "the server SHOULD assume protocol version 2025-03-26" when the
 * `MCP-Protocol-Version` header is missing).
 */
export const DEFAULT_NEGOTIATED_VERSION: ProtocolVersion = '2025-03-26';

/**
 * Whether the server speaks this version.
 *
 * @example
 * ```ts
 * isSupportedVersion('2025-06-18'); // true
 * isSupportedVersion('2024-11-05'); // false
 * ```
 */
export function isSupportedVersion(version: unknown): version is ProtocolVersion {
  return (SUPPORTED_PROTOCOL_VERSIONS as readonly unknown[]).includes(version);
}

/**
 * Version negotiation (lifecycle spec): answer with the client's version when
 * the server supports it, otherwise with the latest one it supports; the client
 * then decides whether to continue.
 *
 * @example
 * ```ts
 * negotiateVersion('2025-06-18'); // '2025-06-18'
 * negotiateVersion('1999-01-01'); // '2025-11-25'
 * ```
 */
export function negotiateVersion(requested: unknown): ProtocolVersion {
  return isSupportedVersion(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/**
 * JSON-RPC batches: added in 2025-03-26 and removed in 2025-06-18. candor
 * accepts them only from peers on 2025-03-26 (including peers that never
 * negotiated, which are assumed to be on 2025-03-26) and refuses them clearly
 * for later versions.
 */
export function allowsBatches(version: ProtocolVersion): boolean {
  return version === '2025-03-26';
}

/**
 * `elicitation/create` carries `mode: "form"` from 2025-11-25 on (SEP-1036 added
 * URL mode); 2025-06-18 clients know only the form shape without `mode`.
 */
export function elicitationHasMode(version: ProtocolVersion): boolean {
  return version === '2025-11-25';
}
