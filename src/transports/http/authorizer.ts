/**
 * The seam between the Streamable HTTP core and an authorizer (src/auth's
 * OAuth resource server implements it). The core stays ignorant of tokens:
 * it asks `authenticate` before routing a request, `permit` before
 * dispatching a parsed body, and `wellKnown` for documents outside the MCP
 * path (RFC 9728 metadata). Without an authorizer nothing changes.
 */
import type { ToolSource } from '../../pipeline/types.js';
import type { AuthInfo } from '../../tool/types.js';

/** An HTTP answer the authorizer wants sent instead of the request's (401, 403, 400). */
export interface HttpRefusal {
  readonly status: number;
  /** Flat header list: name, value, name, value… (e.g. `www-authenticate`). */
  readonly headers: readonly string[];
  /** Said in the JSON-RPC error body. */
  readonly message: string;
}

/** Who sent a request, as verified, and what they may see. */
export interface Admission {
  /** Becomes `ctx.auth` (never carries the token itself). */
  readonly auth: AuthInfo;
  /** The tools this caller may list and call (a view of the server's tools), when it differs. */
  readonly tools?: ToolSource;
}

/** A well-known document to answer with. */
export interface WellKnownDocument {
  readonly status: number;
  readonly headers: readonly string[];
  readonly body: string;
}

/**
 * What the HTTP core calls when `authorizer` is set.
 *
 * @example
 * ```ts
 * const authorizer = createResourceServer({ issuer, resource, tools: server.registry });
 * createHttpHandler({ dispatcher: server.dispatcher, authorizer });
 * ```
 */
export interface HttpAuthorizer {
  /**
   * Verify a request's credentials (every method but OPTIONS, before the body
   * is read). Never rejects: a bad token is a refusal.
   */
  authenticate(header: (name: string) => string | undefined): Promise<Admission | HttpRefusal>;
  /** Refuse a parsed body the admitted caller may not send (403 insufficient_scope), or undefined to go on. */
  permit(message: unknown, auth: AuthInfo): HttpRefusal | undefined;
  /** The document served at `path` (a GET outside the MCP path), or undefined. */
  wellKnown(path: string): WellKnownDocument | undefined;
}

/** Whether an authenticate answer is a refusal. */
export function isRefusal(value: Admission | HttpRefusal): value is HttpRefusal {
  return (value as HttpRefusal).status !== undefined;
}

/** Who a verified principal is, for session binding (issuer-qualified subject, else client). */
export function principalKey(auth: AuthInfo | undefined): string {
  if (auth === undefined) return '';
  const issuer = typeof auth.claims?.iss === 'string' ? auth.claims.iss : '';
  return `${issuer} ${auth.subject ?? ''} ${auth.clientId ?? ''}`;
}
