/**
 * Era classification, per message. The body decides: a request whose
 * `params._meta` carries `io.modelcontextprotocol/protocolVersion` is modern,
 * anything else is 2025-era traffic and goes to the legacy dispatcher
 * unchanged. On HTTP the mirrored headers are cross-checks (Streamable HTTP
 * 2026-07-28, "Server Validation"): they never change the era, but a
 * disagreement is refused with 400 and -32020 before anything runs.
 *
 * Order of the checks, so a request that fails several gets the most useful
 * answer: version header vs body (-32020), `Mcp-Method` vs body (-32020),
 * unsupported version (-32022, first so a client on a future revision whose
 * envelope differs still learns what to retry with), the rest of the envelope
 * (-32602), then the required headers and `Mcp-Name` (-32020).
 */
import { isRecord } from '../../util/is-record.js';
import type { JsonRpcErrorResponse, JsonRpcId } from '../channel.js';
import { INVALID_PARAMS, INVALID_REQUEST, isId } from '../jsonrpc.js';
import { type Envelope, hasEnvelopeClaim, metaOf, readEnvelope } from './envelope.js';
import { decodeHeaderValue, type HeaderMap, headerValue } from './header-value.js';
import { batchRefusal, legacyRefusal, supportedVersions } from './modern-only.js';
import {
  HEADER_MISMATCH,
  isModernVersion,
  isSupportedModernVersion,
  META,
  refusal,
  UNSUPPORTED_PROTOCOL_VERSION,
} from './protocol.js';

/** Where a message goes. */
export type EraRoute =
  | { readonly era: 'legacy' }
  | {
      readonly era: 'modern';
      readonly kind: 'request';
      readonly id: JsonRpcId;
      readonly method: string;
      readonly params: { [key: string]: unknown };
      readonly envelope: Envelope;
    }
  | {
      readonly era: 'modern';
      readonly kind: 'notification';
      readonly method: string;
      readonly params: { [key: string]: unknown };
    }
  /** Refused before dispatch; `response` carries its HTTP status (see `httpStatusOf`). */
  | { readonly era: 'refused'; readonly response: JsonRpcErrorResponse };

/** Which body field each method's `Mcp-Name` header mirrors (Streamable HTTP, "Standard Request Headers"). */
export const MCP_NAME_SOURCE: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = Object.freeze({
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  // The tasks extension (io.modelcontextprotocol/tasks, "Routing Headers"): so a balancer can route by task.
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
});

const LEGACY: EraRoute = Object.freeze({ era: 'legacy' });

/** Options of {@link classifyEra}. */
export interface ClassifyOptions {
  /** The HTTP request headers (absent on stdio, where there is no header layer and only the body counts). */
  headers?: HeaderMap;
  /**
   * The server speaks only 2026-07-28: 2025-era requests and batches are refused
   * (-32022 naming the versions it speaks) instead of routed to the 2025 code.
   */
  modernOnly?: boolean;
}

/**
 * Classify one parsed message. `headers` are the HTTP request headers (absent
 * on stdio, where there is no header layer and only the body counts);
 * `modernOnly` refuses 2025-era traffic instead of routing it.
 *
 * @example
 * ```ts
 * const route = classifyEra(body, { headers: req.headers });
 * if (route.era === 'refused') return send(httpStatusOf(route.response), route.response);
 * ```
 */
export function classifyEra(message: unknown, options: ClassifyOptions = {}): EraRoute {
  const { headers, modernOnly = false } = options;
  if (Array.isArray(message)) {
    if (modernOnly) return { era: 'refused', response: batchRefusal() };
    // Batches do not exist in the modern era; a batch smuggling a modern request is refused whole.
    for (const element of message) {
      if (isRecord(element) && hasEnvelopeClaim(element.params)) {
        return {
          era: 'refused',
          response: refusal(
            null,
            400,
            INVALID_REQUEST,
            'Invalid request: JSON-RPC batches cannot carry 2026-07-28 requests; send each request as its own message.',
          ),
        };
      }
    }
    return LEGACY;
  }
  if (!isRecord(message) || message.jsonrpc !== '2.0' || typeof message.method !== 'string') return LEGACY;
  const params = message.params;
  if (params !== undefined && !isRecord(params)) return LEGACY; // the legacy path answers -32602
  const method = message.method;
  const headerVersion = headers ? headerValue(headers, 'mcp-protocol-version') : undefined;
  const headerIsModern = headerVersion !== undefined && isModernVersion(headerVersion);
  if (!('id' in message)) {
    // A modern-only server reads every notification as modern (only stdio's notifications/cancelled does anything).
    return classifyNotification(method, params ?? {}, headers, headerVersion, headerIsModern || modernOnly);
  }
  if (!isId(message.id)) return LEGACY;
  const id = message.id;
  const claimed = hasEnvelopeClaim(params);
  if (!claimed) {
    if (!headerIsModern) {
      if (!modernOnly) return LEGACY;
      const asked = method === 'initialize' ? params?.protocolVersion : undefined;
      return { era: 'refused', response: legacyRefusal(id, method, typeof asked === 'string' ? asked : headerVersion) };
    }
    if (method === 'initialize') {
      return mismatch(id, `an initialize request (2025 handshake) came with MCP-Protocol-Version: ${headerVersion}`);
    }
    return refused(
      id,
      400,
      INVALID_PARAMS,
      `Invalid params: the MCP-Protocol-Version header names ${headerVersion}, but params._meta lacks "${META.protocolVersion}" and "${META.clientCapabilities}", which every ${headerVersion} request must carry.`,
      { missing: [META.protocolVersion, META.clientCapabilities] },
    );
  }
  const meta = metaOf(params)!;
  const version = meta[META.protocolVersion];
  if (typeof version !== 'string' || version.length === 0) {
    return refused(
      id,
      400,
      INVALID_PARAMS,
      `Invalid params: _meta "${META.protocolVersion}" must be a version string.`,
    );
  }
  if (headerVersion !== undefined && headerVersion !== version) {
    return mismatch(id, `MCP-Protocol-Version header value '${headerVersion}' does not match body value '${version}'`);
  }
  const methodHeader = headers ? headerValue(headers, 'mcp-method') : undefined;
  if (methodHeader !== undefined && methodHeader !== method) {
    return mismatch(id, `Mcp-Method header value '${methodHeader}' does not match body value '${method}'`);
  }
  if (!isSupportedModernVersion(version)) {
    const supported = supportedVersions(modernOnly);
    return refused(
      id,
      400,
      UNSUPPORTED_PROTOCOL_VERSION,
      `Unsupported protocol version: ${version}. This server supports ${supported.join(', ')}${modernOnly ? ' only' : ' (2025 versions through initialize)'}.`,
      { supported: [...supported], requested: version },
    );
  }
  const envelope = readEnvelope(meta);
  if ('issue' in envelope) {
    return refused(
      id,
      400,
      INVALID_PARAMS,
      `Invalid params: _meta "${envelope.issue.key}" ${envelope.issue.problem === 'missing' ? 'is missing; every 2026-07-28 request must carry it' : envelope.issue.problem}.`,
      { envelope: envelope.issue },
    );
  }
  if (headers !== undefined) {
    const problem = standardHeaderProblem(headers, method, params!, headerVersion, methodHeader);
    if (problem !== undefined) return mismatch(id, problem);
  }
  return { era: 'modern', kind: 'request', id, method, params: params!, envelope };
}

function classifyNotification(
  method: string,
  params: { [key: string]: unknown },
  headers: HeaderMap | undefined,
  headerVersion: string | undefined,
  modernWithoutClaim: boolean,
): EraRoute {
  if (hasEnvelopeClaim(params)) {
    const version = metaOf(params)![META.protocolVersion];
    if (typeof version !== 'string') {
      return refused(
        null,
        400,
        INVALID_PARAMS,
        `Invalid params: _meta "${META.protocolVersion}" must be a version string.`,
      );
    }
    if (headerVersion !== undefined && headerVersion !== version) {
      return mismatch(
        null,
        `MCP-Protocol-Version header value '${headerVersion}' does not match body value '${version}'`,
      );
    }
  } else if (!modernWithoutClaim) {
    return LEGACY;
  }
  const methodHeader = headers ? headerValue(headers, 'mcp-method') : undefined;
  if (methodHeader !== undefined && methodHeader !== method) {
    return mismatch(null, `Mcp-Method header value '${methodHeader}' does not match body value '${method}'`);
  }
  return { era: 'modern', kind: 'notification', method, params };
}

/** Required standard headers and the `Mcp-Name` cross-check; the problem text, or undefined when all agree. */
function standardHeaderProblem(
  headers: HeaderMap,
  method: string,
  params: { [key: string]: unknown },
  headerVersion: string | undefined,
  methodHeader: string | undefined,
): string | undefined {
  if (headerVersion === undefined) return 'the required MCP-Protocol-Version header is missing';
  if (methodHeader === undefined) return `the required Mcp-Method header is missing (the body names '${method}')`;
  const field = Object.hasOwn(MCP_NAME_SOURCE, method) ? MCP_NAME_SOURCE[method] : undefined;
  if (field === undefined) return undefined;
  const bodyValue = typeof params[field] === 'string' ? (params[field] as string) : undefined;
  const nameHeader = headerValue(headers, 'mcp-name');
  if (nameHeader === undefined) {
    // No body value: the method's own params check answers (-32602).
    return bodyValue === undefined
      ? undefined
      : `the required Mcp-Name header is missing (the body names '${bodyValue}')`;
  }
  const decoded = decodeHeaderValue(nameHeader);
  if (decoded === undefined)
    return 'the Mcp-Name header has an invalid value (bad characters or a malformed =?base64?…?= sentinel)';
  if (bodyValue !== undefined && decoded !== bodyValue) {
    return `Mcp-Name header value '${decoded}' does not match body value '${bodyValue}'`;
  }
  return undefined;
}

function mismatch(id: JsonRpcId | null, detail: string): EraRoute {
  return refused(id, 400, HEADER_MISMATCH, `Header mismatch: ${detail}.`);
}

function refused(id: JsonRpcId | null, status: number, code: number, message: string, data?: unknown): EraRoute {
  return { era: 'refused', response: refusal(id, status, code, message, data) };
}
