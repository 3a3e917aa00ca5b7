/**
 * MCP Enterprise-Managed Authorization from the client side: with the ID token the
 * person got when they signed in at the organisation's IdP, get an access token for an
 * MCP server without a consent screen, in the extension's two steps:
 *
 * 1. Token exchange (RFC 8693) at the IdP: the ID token as `subject_token`
 *    (`…:token-type:id_token`), `requested_token_type` `…:token-type:id-jag`, `audience`
 *    the issuer identifier of the MCP server's authorization server and `resource` the
 *    MCP server's resource identifier (both found through its RFC 9728 metadata). The IdP
 *    decides whether this person may reach this server.
 * 2. The JWT-bearer grant (RFC 7523) at that authorization server with the ID-JAG as
 *    `assertion`, the client authenticating with its own credentials there.
 *
 * Both requests authenticate the client (the extension requires it for the exchange).
 * No token or assertion appears in an error message.
 */
import { CandorError } from '../../errors.js';
import { secureAuthFetch } from './secure-fetch.js';
import { exchangeToken, type IssuedToken, postGrant, TOKEN_TYPES, TokenExchangeError } from './token-exchange.js';

/** The JWT-bearer grant type (RFC 7523 §2.1). */
export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
/** What an authorization server lists in `authorization_grant_profiles_supported` when it redeems ID-JAGs. */
export const ID_JAG_PROFILE = 'urn:ietf:params:oauth:grant-profile:id-jag';

/** A client's credentials at one token endpoint. */
export interface ClientCredentials {
  clientId: string;
  clientSecret?: string | undefined;
}

/** Options of {@link enterpriseAccessToken}. */
export interface EnterpriseGrantOptions {
  /** The person's ID token from the IdP (their single sign-on). */
  idToken: string;
  /** The IdP's token endpoint and this client's credentials there. */
  idp: ClientCredentials & { tokenEndpoint: string };
  /** The MCP server's URL. */
  server: string;
  /** This client's credentials at the MCP server's authorization server. */
  client: ClientCredentials;
  /** Scopes to ask for. */
  scopes?: readonly string[];
  fetch?: typeof fetch;
}

/** The access token, and where it came from. */
export interface EnterpriseToken extends IssuedToken {
  authorizationServer: string;
  resource: string;
}

/**
 * Step 1: the ID-JAG from the IdP.
 *
 * @example
 * ```ts
 * const jag = await requestIdentityAssertion({ ...idp, idToken, audience: 'https://auth.chat.example', resource: 'https://mcp.chat.example/mcp' });
 * ```
 */
export async function requestIdentityAssertion(
  options: ClientCredentials & {
    tokenEndpoint: string;
    idToken: string;
    audience: string;
    resource?: string | undefined;
    scopes?: readonly string[] | undefined;
    fetch?: typeof fetch;
  },
): Promise<IssuedToken> {
  const issued = await exchangeToken({
    tokenEndpoint: options.tokenEndpoint,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    subjectToken: options.idToken,
    subjectTokenType: TOKEN_TYPES.idToken,
    requestedTokenType: TOKEN_TYPES.idJag,
    audience: options.audience,
    resource: options.resource,
    scopes: options.scopes,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  if (issued.issuedTokenType !== TOKEN_TYPES.idJag)
    throw new TokenExchangeError(`the IdP issued ${issued.issuedTokenType}, not an ID-JAG`);
  return issued;
}

/**
 * Step 2: the access token for the ID-JAG.
 *
 * @example
 * ```ts
 * const token = await redeemIdentityAssertion({ tokenEndpoint, clientId: 'chat-client', clientSecret, assertion: jag.token });
 * ```
 */
export async function redeemIdentityAssertion(
  options: ClientCredentials & {
    tokenEndpoint: string;
    assertion: string;
    scopes?: readonly string[] | undefined;
    fetch?: typeof fetch;
  },
): Promise<IssuedToken> {
  const body = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: options.assertion });
  if (options.scopes && options.scopes.length > 0) body.set('scope', options.scopes.join(' '));
  return postGrant(options, body);
}

/**
 * Both steps for one MCP server, its authorization server found from its metadata.
 *
 * @example
 * ```ts
 * const { token } = await enterpriseAccessToken({
 *   idToken, server: 'https://mcp.chat.example/mcp',
 *   idp: { tokenEndpoint: 'https://acme.idp.example/oauth2/token', clientId: 'chat', clientSecret: idpSecret },
 *   client: { clientId: 'chat-at-mcp', clientSecret },
 * });
 * ```
 */
export async function enterpriseAccessToken(options: EnterpriseGrantOptions): Promise<EnterpriseToken> {
  const fetchFn = secureAuthFetch(options.fetch ?? fetch);
  let resource: string;
  let issuer: string;
  let tokenEndpoint: string;
  try {
    // The SDK's discovery, loaded on first use: a server that never reaches out does not load the client.
    const { discoverAuthorizationServerMetadata, discoverOAuthProtectedResourceMetadata } = await import(
      '@modelcontextprotocol/client'
    );
    const prm = await discoverOAuthProtectedResourceMetadata(options.server, {}, fetchFn);
    resource = String(prm.resource);
    const first = prm.authorization_servers?.[0];
    if (first === undefined) throw new Error('its metadata names no authorization server');
    const metadata = await discoverAuthorizationServerMetadata(first, { fetchFn });
    if (metadata === undefined) throw new Error(`${first} publishes no authorization server metadata`);
    issuer = metadata.issuer;
    tokenEndpoint = String(metadata.token_endpoint);
    const profiles = (metadata as { authorization_grant_profiles_supported?: unknown })
      .authorization_grant_profiles_supported;
    if (Array.isArray(profiles) && !profiles.includes(ID_JAG_PROFILE))
      throw new Error('its authorization server does not redeem ID-JAGs (authorization_grant_profiles_supported)');
  } catch (error) {
    throw new CandorError(
      `Enterprise-managed authorization to ${options.server}: ${(error as Error).message ?? String(error)}`,
      { code: 'auth_discovery', cause: error },
    );
  }
  const jag = await requestIdentityAssertion({
    ...options.idp,
    idToken: options.idToken,
    audience: issuer,
    resource,
    scopes: options.scopes,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const token = await redeemIdentityAssertion({
    ...options.client,
    tokenEndpoint,
    assertion: jag.token,
    scopes: options.scopes,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  return { ...token, authorizationServer: issuer, resource };
}
