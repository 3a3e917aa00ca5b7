/**
 * The options of candor's OAuth 2.1 resource server (MCP authorization,
 * 2025-06-18 / 2025-11-25 / 2026-07-28) and what a verified token becomes.
 */
import type { JSONWebKeySet } from 'jose';
import type { AuthInfo, ToolDefinition } from '../tool/types.js';

/** What a verifier says about a token that is good: `ctx.auth` without the token. */
export type VerifiedToken = Omit<AuthInfo, 'token'>;

/**
 * An RFC 7662 token introspection response (the members candor reads; others
 * are kept in `ctx.auth.claims`).
 */
export interface IntrospectionResponse {
  active: boolean;
  scope?: string;
  client_id?: string;
  sub?: string;
  exp?: number;
  nbf?: number;
  iat?: number;
  aud?: string | string[];
  iss?: string;
  [member: string]: unknown;
}

/** The names of the three scopes derived from a tool's effect. */
export interface ScopeNames {
  /** Needed by read-only tools. Default `tools:read`. */
  read?: string;
  /** Needed by additive tools (create, append, send). Default `tools:write`. */
  write?: string;
  /** Needed by destructive tools (delete, overwrite). Default `tools:destructive`. */
  destructive?: string;
}

/**
 * Per-tool scopes that replace the effect-derived one: a map from tool name,
 * or a function (return undefined to keep the default for that tool).
 */
export type ToolScopes =
  | Readonly<Record<string, readonly string[]>>
  | ((tool: ToolDefinition) => readonly string[] | undefined);

/**
 * `createServer({ auth })`: make the Streamable HTTP endpoint an OAuth 2.1
 * resource server. Give `issuer` and/or `jwks` (JWT access tokens), or
 * `introspect`, or `verify`.
 *
 * @example
 * ```ts
 * createServer({
 *   name: 'files', version: '1.0.0', tools,
 *   auth: { issuer: 'https://auth.example.com', resource: 'https://mcp.example.com/mcp' },
 * });
 * ```
 */
export interface AuthOptions {
  /**
   * The canonical URI of this MCP server (RFC 8707 resource indicator, RFC
   * 9728 `resource`), e.g. `https://mcp.example.com/mcp`. Tokens must name it
   * in `aud` unless `audience` says otherwise.
   */
  resource: string;
  /**
   * The authorization server's issuer identifier: tokens' `iss` must equal it,
   * the metadata lists it, and when `jwks` is absent the JWKS is found through
   * its RFC 8414 / OpenID metadata.
   */
  issuer?: string;
  /**
   * The issuer's keys: a JWKS URL (fetched, cached, re-fetched when a token
   * names an unknown `kid`: key rotation), or a JWKS object held locally.
   */
  jwks?: string | URL | JSONWebKeySet;
  /** Accepted `aud` values. Default: `resource`. */
  audience?: string | readonly string[];
  /** `authorization_servers` of the metadata. Default `[issuer]`. */
  authorizationServers?: readonly string[];
  /** `scopes_supported` of the metadata. Default: the three tool scopes. */
  scopesSupported?: readonly string[];
  /** The scopes a 401 asks for (`scope="…"`). Default: `scopesSupported`. */
  challengeScopes?: readonly string[];
  /** Rename the effect-derived scopes. */
  scopeNames?: ScopeNames;
  /** Per-tool scopes (map by name or function). */
  scopes?: ToolScopes;
  /** JWS algorithms accepted. Default: asymmetric only (RS/PS/ES 256-512, EdDSA); never `none` or HS*. */
  algorithms?: readonly string[];
  /** Clock skew allowed on `exp` / `nbf`, in seconds. Default 5. */
  clockToleranceSec?: number;
  /** Shortest wait between two JWKS fetches for unknown `kid`s, in ms. Default 30 000. */
  jwksCooldownMs?: number;
  /** How long fetched keys are trusted before a re-fetch, in ms. Default 10 minutes. */
  jwksMaxAgeMs?: number;
  /**
   * How long a token that verified is remembered (its own `exp` still
   * applies), in ms; 0 checks every request. Default 60 000: the signature is
   * checked once per token and minute, not per request.
   */
  tokenCacheMs?: number;
  /** Most tokens remembered. Default 10 000. */
  tokenCacheSize?: number;
  /** Opaque tokens: ask the authorization server (RFC 7662-shaped answer). */
  introspect?: (token: string) => Promise<IntrospectionResponse>;
  /**
   * Your own check: the principal, or undefined (or a throw) when the token is
   * not good. It must check the audience itself.
   */
  verify?: (token: string) => Promise<VerifiedToken | undefined>;
  /** `resource_name` of the metadata. */
  resourceName?: string;
  /** `resource_documentation` of the metadata. */
  resourceDocumentation?: string;
}
