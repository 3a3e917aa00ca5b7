/**
 * The per-request `_meta` envelope of the 2026-07-28 era (basic/index,
 * "Per-request protocol fields"): every request carries its protocol version
 * and client capabilities, optionally the client's identity and a log level.
 * A request missing a required field is malformed: -32602, and HTTP 400.
 */

import type { LogLevel } from '../../tool/types.js';
import { isRecord } from '../../util/is-record.js';
import { isLogLevel } from '../log-levels.js';
import type { ClientCapabilities, ClientInfo } from '../peer.js';
import { META } from './protocol.js';

/** The validated envelope of one modern request. */
export interface Envelope {
  readonly protocolVersion: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo: ClientInfo | undefined;
  /** Absent: the server MUST NOT send `notifications/message` for this request. */
  readonly logLevel: LogLevel | undefined;
}

/** What is wrong with an envelope: the key and the problem, for the error message. */
export interface EnvelopeIssue {
  key: string;
  problem: string;
}

/** The `_meta` object of a request's params, when there is one. */
export function metaOf(params: unknown): Record<string, unknown> | undefined {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta)
    ? (meta as Record<string, unknown>)
    : undefined;
}

/**
 * Whether the message claims the modern era: its `params._meta` has the
 * protocol-version key (whatever its value; a bad value is a validation error,
 * never a fall-back to legacy handling).
 *
 * @example
 * ```ts
 * hasEnvelopeClaim({ _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } }); // true
 * hasEnvelopeClaim({ _meta: { progressToken: 1 } }); // false
 * ```
 */
export function hasEnvelopeClaim(params: unknown): boolean {
  const meta = metaOf(params);
  return meta !== undefined && META.protocolVersion in meta;
}

/**
 * Validate an envelope. Returns the envelope, or the first issue (missing keys
 * first, in the spec's order, then malformed values).
 *
 * @example
 * ```ts
 * const checked = readEnvelope(params._meta);
 * if ('issue' in checked) throw invalid(`${checked.issue.key}: ${checked.issue.problem}`);
 * ```
 */
export function readEnvelope(meta: Record<string, unknown>): Envelope | { issue: EnvelopeIssue } {
  const version = meta[META.protocolVersion];
  const capabilities = meta[META.clientCapabilities];
  const info = meta[META.clientInfo];
  const level = meta[META.logLevel];
  if (version === undefined) return { issue: { key: META.protocolVersion, problem: 'missing' } };
  if (capabilities === undefined) return { issue: { key: META.clientCapabilities, problem: 'missing' } };
  if (typeof version !== 'string' || version.length === 0) {
    return { issue: { key: META.protocolVersion, problem: 'must be a protocol version string such as "2026-07-28"' } };
  }
  if (!isRecord(capabilities)) return { issue: { key: META.clientCapabilities, problem: 'must be an object' } };
  for (const [name, value] of Object.entries(capabilities)) {
    if (value !== undefined && !isRecord(value)) {
      return { issue: { key: META.clientCapabilities, problem: `"${name}" must be an object` } };
    }
  }
  if (info !== undefined) {
    if (!isRecord(info) || typeof info.name !== 'string' || typeof info.version !== 'string') {
      return { issue: { key: META.clientInfo, problem: 'must be an object with string "name" and "version"' } };
    }
  }
  if (level !== undefined && !isLogLevel(level)) {
    return { issue: { key: META.logLevel, problem: 'must be a logging level such as "info"' } };
  }
  return {
    protocolVersion: version,
    clientCapabilities: capabilities as ClientCapabilities,
    clientInfo: info as ClientInfo | undefined,
    logLevel: level as LogLevel | undefined,
  };
}
