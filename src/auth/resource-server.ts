/**
 * `createResourceServer`: the OAuth 2.1 resource server that the Streamable
 * HTTP core consults (MCP authorization 2025-06-18 / 2025-11-25 /
 * 2026-07-28). It answers
 * - a request without a bearer token: 401 + `WWW-Authenticate: Bearer
 *   resource_metadata="…", scope="…"`;
 * - a token that does not verify (signature, issuer, audience, expiry): 401
 *   `error="invalid_token"`; a malformed header: 400 `invalid_request`;
 * - a `tools/call` of a tool whose scope the token lacks: 403
 *   `error="insufficient_scope"` naming the scopes to ask for (the token's
 *   own plus the missing ones, so step-up loses nothing);
 * - `GET /.well-known/oauth-protected-resource[/path]`: RFC 9728 metadata.
 * Tokens are never logged, never put on `ctx.auth`, never passed on.
 */
import type { ToolSource } from '../pipeline/types.js';
import type { AuthInfo } from '../tool/types.js';
import type { Admission, HttpAuthorizer, HttpRefusal, WellKnownDocument } from '../transports/http/authorizer.js';
import { type ServerLogger, silentLogger } from '../util/logger.js';
import { parseBearer } from './bearer.js';
import { bearerChallenge } from './challenge.js';
import { customVerifier, introspectionVerifier } from './introspection-verifier.js';
import { jwtVerifier } from './jwt-verifier.js';
import { checkResource, metadataPaths, metadataUrl, type ProtectedResourceMetadata } from './resource-metadata.js';
import { rememberSubjectToken } from './subject-tokens.js';
import { cachedVerifier } from './token-cache.js';
import { frozenPrincipals, type TokenVerifier } from './token-verifier.js';
import { isScopeToken, ToolScopePolicy } from './tool-scopes.js';
import { ToolViews } from './tool-views.js';
import type { AuthOptions } from './types.js';

/** Options of {@link createResourceServer}: the auth options and the tools to guard. */
export interface ResourceServerOptions extends AuthOptions {
  /** The server's tools (`server.registry`). */
  tools: ToolSource;
  /** Where verification problems are logged (never with a token). */
  logger?: ServerLogger;
}

/** The resource server: an {@link HttpAuthorizer} plus what it publishes. */
export interface ResourceServer extends HttpAuthorizer {
  /** The RFC 9728 document. */
  readonly metadata: Readonly<ProtectedResourceMetadata>;
  /** Its absolute URL (what `resource_metadata="…"` names). */
  readonly metadataUrl: string;
  /** The scope policy (which scopes each tool needs). */
  readonly policy: ToolScopePolicy;
}

/**
 * Build the resource server. `createServer({ auth })` does this for you; use
 * it directly with `createHttpHandler({ authorizer })` or `listenHttp`.
 *
 * @example
 * ```ts
 * const authorizer = createResourceServer({
 *   issuer: 'https://auth.example.com',
 *   resource: 'https://mcp.example.com/mcp',
 *   tools: server.registry,
 * });
 * await listenHttp({ dispatcher: server.dispatcher, authorizer, port: 3000 });
 * ```
 */
export function createResourceServer(options: ResourceServerOptions): ResourceServer {
  const logger = options.logger ?? silentLogger;
  const resource = checkResource(options.resource);
  const audiences = toList(options.audience ?? resource, 'auth.audience');
  const policy = new ToolScopePolicy(options);
  const scopesSupported = [...(options.scopesSupported ?? Object.values(policy.names))];
  for (const scope of scopesSupported) {
    if (!isScopeToken(scope))
      throw new TypeError(`auth.scopesSupported: ${JSON.stringify(scope)} is not a scope token.`);
  }
  const challengeScopes = options.challengeScopes ?? scopesSupported;
  const authorizationServers = [
    ...(options.authorizationServers ?? (options.issuer === undefined ? [] : [options.issuer])),
  ];
  if (authorizationServers.length === 0) {
    throw new TypeError('auth: give issuer or authorizationServers; the metadata MUST name an authorization server.');
  }
  const verify = cachedVerifier(frozenPrincipals(verifierOf(options, audiences, logger)), {
    maxAgeMs: options.tokenCacheMs ?? 60_000,
    maxEntries: options.tokenCacheSize ?? 10_000,
  });
  const views = new ToolViews(options.tools, policy);

  const metadata: ProtectedResourceMetadata = {
    resource,
    authorization_servers: authorizationServers,
    scopes_supported: scopesSupported,
    bearer_methods_supported: ['header'],
  };
  if (options.resourceName !== undefined) metadata.resource_name = options.resourceName;
  if (options.resourceDocumentation !== undefined) metadata.resource_documentation = options.resourceDocumentation;
  const resourceMetadata = metadataUrl(resource);
  const document: WellKnownDocument = {
    status: 200,
    // Public and cacheable; browser-based clients read it cross-origin.
    headers: [
      'content-type',
      'application/json',
      'cache-control',
      'public, max-age=3600',
      'access-control-allow-origin',
      '*',
    ],
    body: JSON.stringify(metadata),
  };
  const paths = new Set(metadataPaths(resource));

  const unauthenticated: HttpRefusal = refusal(
    401,
    'Unauthorized: send an OAuth access token (Authorization: Bearer …).',
    {
      resourceMetadata,
      scope: challengeScopes,
    },
  );

  async function authenticate(header: (name: string) => string | undefined): Promise<Admission | HttpRefusal> {
    const credentials = parseBearer(header('authorization'));
    if (credentials.kind === 'missing' || credentials.kind === 'other-scheme') return unauthenticated;
    if (credentials.kind === 'malformed') {
      return refusal(400, `Bad request: malformed Authorization header: ${credentials.reason}.`, {
        resourceMetadata,
        error: 'invalid_request',
        description: `Malformed Authorization header: ${credentials.reason}.`,
      });
    }
    const verdict = await verify(credentials.token);
    if (!verdict.ok) {
      if (verdict.unavailable) {
        return { status: 503, headers: ['retry-after', '5'], message: `Service unavailable: ${verdict.reason}` };
      }
      return refusal(401, `Unauthorized: ${verdict.reason}`, {
        resourceMetadata,
        error: 'invalid_token',
        description: verdict.reason,
        scope: challengeScopes,
      });
    }
    const auth = verdict.principal;
    rememberSubjectToken(auth, credentials.token);
    return { auth, tools: views.forScopes(auth.scopes) };
  }

  function permit(message: unknown, auth: AuthInfo): HttpRefusal | undefined {
    if (Array.isArray(message)) {
      for (const entry of message) {
        const refused = permitOne(entry, auth);
        if (refused !== undefined) return refused;
      }
      return undefined;
    }
    return permitOne(message, auth);
  }

  function permitOne(message: unknown, auth: AuthInfo): HttpRefusal | undefined {
    const m = message as { method?: unknown; params?: { name?: unknown } } | null;
    if (typeof m !== 'object' || m === null || m.method !== 'tools/call') return undefined;
    const name = m.params?.name;
    if (typeof name !== 'string') return undefined;
    const tool = options.tools.get(name);
    if (tool === undefined) return undefined; // unknown: the engine answers -32602
    const granted = auth.scopes ?? [];
    const required = policy.required(tool);
    const missing = required.filter((scope) => !granted.includes(scope));
    if (missing.length === 0) return undefined;
    const description = `The tool ${name} needs the scope${missing.length > 1 ? 's' : ''} ${missing.join(' ')}.`;
    return refusal(403, `Forbidden: ${description}`, {
      resourceMetadata,
      error: 'insufficient_scope',
      description,
      scope: [...new Set([...granted.filter(isScopeToken), ...required])],
    });
  }

  return {
    metadata,
    metadataUrl: resourceMetadata,
    policy,
    authenticate,
    permit,
    wellKnown: (path) => (paths.has(path) ? document : undefined),
  };
}

function verifierOf(options: AuthOptions, audiences: readonly string[], logger: ServerLogger): TokenVerifier {
  const { verify, introspect } = options;
  const ways = [verify, introspect, options.jwks ?? options.issuer].filter((w) => w !== undefined).length;
  if (verify !== undefined && introspect !== undefined) {
    throw new TypeError('auth: give verify or introspect, not both.');
  }
  if (ways === 0) throw new TypeError('auth: give issuer or jwks (JWT access tokens), introspect, or verify.');
  if (verify !== undefined) return customVerifier({ ...options, verify }, logger);
  if (introspect !== undefined) return introspectionVerifier({ ...options, introspect }, audiences, logger);
  return jwtVerifier(options, audiences, logger);
}

function refusal(status: number, message: string, challenge: Parameters<typeof bearerChallenge>[0]): HttpRefusal {
  return { status, message, headers: ['www-authenticate', bearerChallenge(challenge)] };
}

function toList(value: string | readonly string[], where: string): readonly string[] {
  const list = typeof value === 'string' ? [value] : [...value];
  if (list.length === 0 || !list.every((v) => typeof v === 'string' && v.length > 0)) {
    throw new TypeError(`${where} must be a non-empty string or list of strings.`);
  }
  return list;
}
