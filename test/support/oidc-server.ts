/**
 * A real OAuth 2.1 / OpenID authorization server for the client-side tests:
 * panva's `oidc-provider` on loopback, with authorization code + PKCE (S256, required),
 * dynamic client registration, refresh tokens (rotated), RFC 8707 resource indicators
 * issuing JWT access tokens for the protected MCP server, client credentials,
 * revocation, and its own development login and consent pages.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

export interface OidcServerOptions {
  /** The MCP server's resource URL: access tokens name it as audience. */
  resource: string;
  /** Scopes the resource server understands. */
  scopes: string[];
  /** Access token lifetime, seconds (default 600). */
  accessTokenTtl?: number;
  /** Allow dynamic client registration (default true). */
  registration?: boolean;
  /** Clients registered by hand. */
  clients?: Configuration['clients'];
  /** Scopes a person may be granted (default: all); a step-up test narrows the first grant. */
  grantable?: (scope: string) => boolean;
}

export interface OidcServer {
  issuer: string;
  provider: Provider;
  /** Registrations received (client metadata as sent), to check what candor registers. */
  registrations: Array<Record<string, unknown>>;
  /** `resource` parameters seen on authorization and token requests. */
  resourceParams: Array<{ endpoint: string; resource: string | null }>;
  /** Revoke every refresh token the provider issued. */
  revokeRefreshTokens(): Promise<number>;
  close(): Promise<void>;
}

/**
 * Start the authorization server on a free loopback port.
 *
 * @example
 * ```ts
 * const as = await startOidcServer({ resource: 'http://127.0.0.1:4000/mcp', scopes: ['files:read'] });
 * ```
 */
export async function startOidcServer(options: OidcServerOptions): Promise<OidcServer> {
  const { resource, scopes, accessTokenTtl = 600, registration = true } = options;
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig', alg: 'RS256' };
  const refreshTokens = new Set<string>();
  const registrations: Array<Record<string, unknown>> = [];
  const resourceParams: Array<{ endpoint: string; resource: string | null }> = [];
  const grantable = options.grantable ?? (() => true);

  const configuration: Configuration = {
    clients: options.clients ?? [],
    jwks: { keys: [jwk as never] },
    scopes: ['openid', 'offline_access', ...scopes],
    pkce: { required: () => true },
    ttl: { AccessToken: accessTokenTtl, RefreshToken: 24 * 3600, Grant: 24 * 3600, Session: 3600, Interaction: 600 },
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    clientBasedCORS: () => true,
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: registration },
      revocation: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          if (indicator !== resource) throw new Error(`unknown resource ${indicator}`);
          return {
            // Only what may be granted now: a step-up test widens this between sign-ins.
            scope: scopes.filter(grantable).join(' '),
            audience: resource,
            accessTokenTTL: accessTokenTtl,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
    },
  };
  const provider = new Provider(issuer, configuration);
  provider.on('refresh_token.saved', (token: { jti: string }) => refreshTokens.add(token.jti));
  provider.on('registration_create.success', (_ctx: unknown, client: { metadata(): Record<string, unknown> }) =>
    registrations.push(client.metadata()),
  );
  provider.use(async (ctx, next) => {
    if (ctx.path === '/auth' || ctx.path === '/token') {
      const fromQuery = new URL(ctx.href).searchParams.get('resource');
      resourceParams.push({ endpoint: ctx.path, resource: fromQuery });
    }
    await next();
    if (ctx.path === '/token' && ctx.method === 'POST') {
      const body = (ctx.oidc as unknown as { body?: Record<string, unknown> } | undefined)?.body;
      const last = resourceParams.findLast((r) => r.endpoint === '/token');
      if (last && body) last.resource = typeof body.resource === 'string' ? body.resource : null;
    }
  });
  // Quiet: the provider warns about its development-only defaults on every start.
  const callback = provider.callback();
  http.on('request', callback);
  return {
    issuer,
    provider,
    registrations,
    resourceParams,
    async revokeRefreshTokens() {
      let revoked = 0;
      for (const jti of refreshTokens) {
        const token = await provider.RefreshToken.find(jti, { ignoreExpiration: true });
        if (token) {
          await token.destroy();
          revoked++;
        }
      }
      return revoked;
    },
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
