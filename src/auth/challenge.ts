/**
 * `WWW-Authenticate: Bearer …` challenges (RFC 6750 §3, RFC 9728 §5.1, MCP
 * authorization "Protected Resource Metadata Discovery" and "Scope Challenge
 * Handling"): every 401 and 403 names the resource metadata, so a client can
 * find the authorization server, and the scope to ask for.
 */

/** The parameters of one Bearer challenge. */
export interface BearerChallenge {
  /** The absolute URL of the protected resource metadata (RFC 9728 §5.1). */
  resourceMetadata: string;
  /** `invalid_request` (400), `invalid_token` (401), `insufficient_scope` (403); absent when no token was sent. */
  error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  /** Human-readable; never contains the token. */
  description?: string;
  /** Space-separated scopes the client should request. */
  scope?: readonly string[];
}

/**
 * Build the header value.
 *
 * @example
 * ```ts
 * bearerChallenge({ resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp', scope: ['tools:read'] });
 * // 'Bearer resource_metadata="https://…/mcp", scope="tools:read"'
 * ```
 */
export function bearerChallenge(challenge: BearerChallenge): string {
  const parts: string[] = [];
  if (challenge.error !== undefined) parts.push(`error=${quoted(challenge.error)}`);
  if (challenge.description !== undefined) parts.push(`error_description=${quoted(challenge.description)}`);
  if (challenge.scope !== undefined && challenge.scope.length > 0)
    parts.push(`scope=${quoted(challenge.scope.join(' '))}`);
  parts.push(`resource_metadata=${quoted(challenge.resourceMetadata)}`);
  return `Bearer ${parts.join(', ')}`;
}

/**
 * A quoted-string (RFC 9110 §5.6.4). RFC 6750 §3 limits error_description
 * and scope to printable ASCII without `"` and `\`, so anything else is
 * replaced rather than escaped.
 */
function quoted(value: string): string {
  return `"${value.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '?')}"`;
}
