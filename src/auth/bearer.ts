/**
 * Reading the `Authorization` header (RFC 6750 §2.1): `Bearer <b64token>`,
 * the scheme case-insensitive, one token. Tokens in the query string are
 * never read (MCP authorization, "Access Token Usage": MUST NOT be in the URI).
 */

/** What an `Authorization` header holds. */
export type BearerCredentials =
  | { readonly kind: 'token'; readonly token: string }
  /** No header: the client has not authenticated yet (401 without an error code, RFC 6750 §3.1). */
  | { readonly kind: 'missing' }
  /** Another scheme (Basic, DPoP…): treated as no bearer token at all. */
  | { readonly kind: 'other-scheme' }
  /** A Bearer header that is not well formed (400 invalid_request). */
  | { readonly kind: 'malformed'; readonly reason: string };

/** Longest token accepted; a larger header is refused before any parsing or crypto. */
export const MAX_TOKEN_LENGTH = 16 * 1024;

const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const MISSING: BearerCredentials = Object.freeze({ kind: 'missing' });
const OTHER: BearerCredentials = Object.freeze({ kind: 'other-scheme' });

/**
 * Parse an `Authorization` header value. Never throws.
 *
 * @example
 * ```ts
 * parseBearer('Bearer eyJhbGciOi…'); // { kind: 'token', token: 'eyJhbGciOi…' }
 * parseBearer('Basic dXNlcjpwYXNz'); // { kind: 'other-scheme' }
 * parseBearer('Bearer'); // { kind: 'malformed', reason: '…' }
 * ```
 */
export function parseBearer(header: string | undefined): BearerCredentials {
  if (header === undefined) return MISSING;
  const value = header.trim();
  if (value.length === 0) return MISSING;
  const space = value.indexOf(' ');
  const scheme = space < 0 ? value : value.slice(0, space);
  if (scheme.toLowerCase() !== 'bearer') return OTHER;
  const token = space < 0 ? '' : value.slice(space + 1).replace(/^ +/, '');
  if (token.length === 0) return { kind: 'malformed', reason: 'the Bearer scheme needs a token after it' };
  if (token.length > MAX_TOKEN_LENGTH) {
    return { kind: 'malformed', reason: `the token is longer than ${MAX_TOKEN_LENGTH} characters` };
  }
  // node:http joins repeated headers with ", ": two Authorization headers are never one token.
  if (!B64TOKEN.test(token)) {
    return { kind: 'malformed', reason: 'the token has characters a bearer token cannot have (one token, no spaces)' };
  }
  return { kind: 'token', token };
}
