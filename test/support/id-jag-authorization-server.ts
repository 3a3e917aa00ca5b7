/**
 * An MCP server's own authorization server that redeems ID-JAGs (Enterprise-Managed
 * Authorization): panva's `oidc-provider` on loopback with the JWT-bearer grant (RFC
 * 7523) registered through `registerGrantType`. The provider authenticates the client
 * (client_secret_basic) and answers errors; the grant checks the assertion with
 * candor's `identityAssertionVerifier` and issues a JWT access token audience-
 * restricted to the MCP server the assertion names, signed with the provider's key (so
 * the MCP server verifies it through the provider's metadata and JWKS). Its metadata
 * lists the ID-JAG grant profile.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, SignJWT } from 'jose';
import Provider, { errors } from 'oidc-provider';
import { IdentityAssertionError, identityAssertionVerifier } from '../../src/auth/identity-assertion.js';

export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface IdJagAuthorizationServer {
  issuer: string;
  /** Access tokens issued (subject, client, audience, scope). */
  issued: Array<{ sub: string; client: string; aud: string; scope: string }>;
  close(): Promise<void>;
}

/**
 * Start it for the MCP servers `resources`, trusting ID-JAGs of one IdP.
 *
 * @example
 * ```ts
 * const as = await startIdJagAuthorizationServer({ resources: [mcpUrl], idp: { issuer, jwks }, clients: { chat: 's' } });
 * ```
 */
export async function startIdJagAuthorizationServer(options: {
  resources: string[];
  idp: { issuer: string; jwks: string };
  clients: Record<string, string>;
  scopes: string[];
}): Promise<IdJagAuthorizationServer> {
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'as-key', use: 'sig', alg: 'RS256' };
  const key = await importJWK(jwk as never, 'RS256');
  const issued: IdJagAuthorizationServer['issued'] = [];
  const provider = new Provider(issuer, {
    clients: Object.entries(options.clients).map(([client_id, client_secret]) => ({
      client_id,
      client_secret,
      grant_types: [JWT_BEARER],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    jwks: { keys: [jwk as never] },
    scopes: options.scopes,
    features: { devInteractions: { enabled: false } },
    discovery: { authorization_grant_profiles_supported: ['urn:ietf:params:oauth:grant-profile:id-jag'] },
  });
  const accept = identityAssertionVerifier({
    issuer,
    trusted: [options.idp],
    resources: options.resources,
    scopesSupported: options.scopes,
  });
  provider.registerGrantType(
    JWT_BEARER,
    async (ctx) => {
      const params = ctx.oidc.params as Record<string, string | undefined>;
      const client = ctx.oidc.client!.clientId;
      let grant: Awaited<ReturnType<typeof accept>>;
      try {
        grant = await accept(params.assertion ?? '', client, params.scope);
      } catch (error) {
        if (error instanceof IdentityAssertionError)
          throw new errors.CustomOIDCProviderError('invalid_grant', error.description);
        throw error;
      }
      // The extension, §5.1: the access token is audience-restricted to the MCP server the ID-JAG names.
      const aud = grant.resource ?? options.resources[0]!;
      const scope = grant.scopes.join(' ');
      const token = await new SignJWT({ sub: grant.subject, aud, scope, client_id: client })
        .setProtectedHeader({ alg: 'RS256', kid: 'as-key', typ: 'at+jwt' })
        .setIssuer(issuer)
        .setIssuedAt()
        .setJti(randomUUID())
        .setExpirationTime('300s')
        .sign(key);
      issued.push({ sub: grant.subject, client, aud, scope });
      ctx.body = { access_token: token, token_type: 'Bearer', expires_in: 300, scope };
    },
    ['assertion', 'scope'],
  );
  http.on('request', provider.callback());
  return {
    issuer,
    issued,
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
