/**
 * An organisation's identity provider for the token exchange tests: panva's
 * `oidc-provider` on loopback, whose token endpoint (client authentication, routing,
 * error answers) is the provider's own, with the RFC 8693 token exchange grant
 * registered through `registerGrantType`. Its policy: it exchanges access tokens it
 * issued for the gateway (`subjectAudience`), only for the targets it knows (each an
 * audience + resource, the scopes it may grant, and optionally the groups allowed),
 * and signs what it issues with its own key, so an upstream verifies the exchanged
 * token against the provider's JWKS like any other.
 */
import { createPublicKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { importJWK, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import Provider, { errors } from 'oidc-provider';

export const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
export const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';
export const ID_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:id_token';
export const ID_JAG_TYPE = 'urn:ietf:params:oauth:token-type:id-jag';

/** An MCP server the IdP issues ID-JAGs for: its authorization server and resource, bound as a pair. */
export interface IdJagTarget {
  /** The issuer identifier of the MCP server's authorization server. */
  audience: string;
  /** The MCP server's resource identifier. */
  resource: string;
  scopes: string[];
  /** The client's id at that authorization server, put in the ID-JAG's client_id. */
  clientId: string;
}

/** One upstream the IdP exchanges tokens for. */
export interface ExchangeTarget {
  audience: string;
  resource: string;
  scopes: string[];
  /** Only people in one of these groups (default: everyone). */
  groups?: string[];
  /** Lifetime of the tokens exchanged for it, seconds (default: the IdP's). */
  ttl?: number;
}

export interface ExchangeIdpOptions {
  /** The audience of the people's tokens to the gateway (what may be exchanged). */
  subjectAudience: string;
  targets: ExchangeTarget[];
  /** Lifetime of exchanged tokens, seconds (default 300). */
  exchangedTtl?: number;
  /** Confidential clients: id → secret. */
  clients: Record<string, string>;
  /** MCP servers it issues ID-JAGs for (Enterprise-Managed Authorization). */
  idJagTargets?: IdJagTarget[];
}

export interface ExchangeIdp {
  issuer: string;
  tokenEndpoint: string;
  provider: Provider;
  /** Each token exchange request received (parameters, no tokens). */
  exchanges: Array<{ client: string; audience?: string; resource?: string; scope?: string; actor: boolean }>;
  /** An access token for a person, to call the gateway with (signed by the provider's key). */
  personToken(sub: string, claims?: JWTPayload, ttlSec?: number): Promise<string>;
  /** An ID token for a person signed in to `clientId` (their single sign-on). */
  idToken(sub: string, clientId: string): Promise<string>;
  /** Sign any ID-JAG (for the refusal cases): claims and header as given, iat and jti added. */
  signIdJag(claims: JWTPayload, options?: { typ?: string; ttlSec?: number }): Promise<string>;
  jwksUri: string;
  /** The MCP servers it issues ID-JAGs for (add to it while it runs). */
  idJagTargets: IdJagTarget[];
  close(): Promise<void>;
}

/**
 * Start the IdP on a free loopback port.
 *
 * @example
 * ```ts
 * const idp = await startExchangeIdp({ subjectAudience: gatewayResource, targets, clients: { gateway: 's3cret' } });
 * ```
 */
export async function startExchangeIdp(options: ExchangeIdpOptions): Promise<ExchangeIdp> {
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'idp-key', use: 'sig', alg: 'RS256' };
  const signingKey = await importJWK(jwk as never, 'RS256');
  const publicKey = createPublicKey(privateKey);
  const ttl = options.exchangedTtl ?? 300;
  const exchanges: ExchangeIdp['exchanges'] = [];
  const idJagTargets = options.idJagTargets ?? [];

  const provider = new Provider(issuer, {
    clients: Object.entries(options.clients).map(([client_id, client_secret]) => ({
      client_id,
      client_secret,
      grant_types: [TOKEN_EXCHANGE, 'client_credentials'],
      redirect_uris: [],
      response_types: [],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    jwks: { keys: [jwk as never] },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // The gateway's own token (its actor token) names the IdP itself.
        defaultResource: () => issuer,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: '',
          audience: issuer,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });

  const sign = (claims: JWTPayload, lifetime: number) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'idp-key', typ: 'at+jwt' })
      .setIssuer(issuer)
      .setIssuedAt()
      .setJti(randomUUID())
      .setExpirationTime(`${lifetime}s`)
      .sign(signingKey);

  provider.registerGrantType(
    TOKEN_EXCHANGE,
    async (ctx) => {
      const params = ctx.oidc.params as Record<string, string | undefined>;
      const client = ctx.oidc.client!.clientId;
      exchanges.push({
        client,
        ...(params.audience ? { audience: params.audience } : {}),
        ...(params.resource ? { resource: params.resource } : {}),
        ...(params.scope ? { scope: params.scope } : {}),
        actor: params.actor_token !== undefined,
      });
      if (params.requested_token_type === ID_JAG_TYPE) {
        ctx.body = await issueIdJag(params, client);
        return;
      }
      if (params.subject_token_type !== ACCESS_TOKEN_TYPE)
        throw new errors.CustomOIDCProviderError('invalid_request', 'subject_token_type must be an access token');
      let subject: JWTPayload;
      try {
        subject = (
          await jwtVerify(params.subject_token ?? '', publicKey, { issuer, audience: options.subjectAudience })
        ).payload;
      } catch {
        throw new errors.CustomOIDCProviderError('invalid_grant', 'the subject token is not valid');
      }
      const target = options.targets.find(
        (t) => (params.audience ?? t.audience) === t.audience && (params.resource ?? t.resource) === t.resource,
      );
      if (target === undefined || (params.audience === undefined && params.resource === undefined))
        throw new errors.CustomOIDCProviderError('invalid_target', 'the audience is not allowed for this client');
      const groups = Array.isArray(subject.groups) ? (subject.groups as string[]) : [];
      if (target.groups && !target.groups.some((g) => groups.includes(g)))
        throw new errors.CustomOIDCProviderError('invalid_grant', 'this person may not reach the audience');
      const asked = params.scope ? params.scope.split(' ') : target.scopes;
      const refused = asked.filter((s) => !target.scopes.includes(s));
      if (refused.length > 0)
        throw new errors.CustomOIDCProviderError('invalid_scope', `scope not allowed: ${refused.join(' ')}`);
      let act: { sub: string } | undefined;
      if (params.actor_token !== undefined) {
        try {
          const actor = (await jwtVerify(params.actor_token, publicKey, { issuer })).payload;
          act = { sub: String(actor.client_id ?? actor.sub) };
        } catch {
          throw new errors.CustomOIDCProviderError('invalid_grant', 'the actor token is not valid');
        }
      }
      const token = await sign(
        { sub: subject.sub, aud: target.resource, scope: asked.join(' '), client_id: client, ...(act ? { act } : {}) },
        target.ttl ?? ttl,
      );
      ctx.body = {
        access_token: token,
        issued_token_type: ACCESS_TOKEN_TYPE,
        token_type: 'Bearer',
        expires_in: target.ttl ?? ttl,
        scope: asked.join(' '),
      };
    },
    [
      'subject_token',
      'subject_token_type',
      'requested_token_type',
      'audience',
      'resource',
      'scope',
      'actor_token',
      'actor_token_type',
    ],
  );
  const signIdJag = (claims: JWTPayload, opts: { typ?: string; ttlSec?: number } = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'idp-key', typ: opts.typ ?? 'oauth-id-jag+jwt' })
      .setIssuer(issuer)
      .setIssuedAt()
      .setJti(randomUUID())
      .setExpirationTime(`${opts.ttlSec ?? 300}s`)
      .sign(signingKey);

  /** Token exchange of an ID token for an ID-JAG: the extension's §4, with the pairing check of §7.6.1. */
  async function issueIdJag(params: Record<string, string | undefined>, client: string) {
    if (params.subject_token_type !== ID_TOKEN_TYPE)
      throw new errors.CustomOIDCProviderError('invalid_request', 'an ID-JAG is issued for an ID token');
    let person: JWTPayload;
    try {
      person = (await jwtVerify(params.subject_token ?? '', publicKey, { issuer, audience: client })).payload;
    } catch {
      throw new errors.CustomOIDCProviderError('invalid_grant', 'the ID token is not valid for this client');
    }
    const target = idJagTargets.find(
      (t) => t.audience === params.audience && (params.resource === undefined || t.resource === params.resource),
    );
    if (target === undefined)
      throw new errors.CustomOIDCProviderError('invalid_target', 'no such authorization server and resource pair');
    const asked = params.scope ? params.scope.split(' ') : target.scopes;
    const scope = asked.filter((s) => target.scopes.includes(s)).join(' ');
    const jag = await signIdJag({
      sub: person.sub,
      aud: target.audience,
      resource: target.resource,
      client_id: target.clientId,
      scope,
    });
    return { access_token: jag, issued_token_type: ID_JAG_TYPE, token_type: 'N_A', expires_in: 300, scope };
  }

  http.on('request', provider.callback());
  return {
    issuer,
    tokenEndpoint: `${issuer}/token`,
    provider,
    exchanges,
    jwksUri: `${issuer}/jwks`,
    idJagTargets,
    signIdJag,
    idToken: (sub, clientId) =>
      new SignJWT({ sub, aud: clientId })
        .setProtectedHeader({ alg: 'RS256', kid: 'idp-key' })
        .setIssuer(issuer)
        .setIssuedAt()
        .setExpirationTime('600s')
        .sign(signingKey),
    personToken: (sub, claims = {}, ttlSec = 600) =>
      sign({ sub, aud: options.subjectAudience, scope: 'tools:read tools:write tools:destructive', ...claims }, ttlSec),
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
