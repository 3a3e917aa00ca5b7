/**
 * CORS for browser clients on allowed origins. The Origin check
 * (request-guard.ts) decides who may call; these headers only let an allowed
 * page read the answer and the `Mcp-Session-Id` it needs for the next request.
 */

const ALLOW_HEADERS =
  'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id, mcp-method, mcp-name';
const EXPOSE_HEADERS = 'mcp-session-id, mcp-protocol-version, retry-after, www-authenticate';

/**
 * Headers for every answer to a request that carried an (allowed) Origin.
 *
 * @example
 * ```ts
 * exchange.extraHeaders = corsHeaders('http://localhost:5173');
 * ```
 */
export function corsHeaders(origin: string): string[] {
  return ['access-control-allow-origin', origin, 'vary', 'origin', 'access-control-expose-headers', EXPOSE_HEADERS];
}

/**
 * The answer to `OPTIONS`: what the endpoint allows, plus the preflight
 * headers when a browser asks (it sends Origin).
 *
 * @example
 * ```ts
 * exchange.reply(204, preflightHeaders('GET, POST, DELETE, OPTIONS', origin), undefined);
 * ```
 */
export function preflightHeaders(allow: string, origin: string | undefined): string[] {
  const headers = ['allow', allow];
  if (origin !== undefined) {
    headers.push(
      'access-control-allow-methods',
      allow,
      'access-control-allow-headers',
      ALLOW_HEADERS,
      'access-control-max-age',
      '86400',
    );
  }
  return headers;
}
