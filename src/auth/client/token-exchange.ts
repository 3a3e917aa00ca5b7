/**
 * OAuth 2.0 Token Exchange (RFC 8693) from the client side: trade a token the caller
 * holds (a person's access token, or an ID token) at a token endpoint for one made for
 * another audience. The gateway uses it to call an upstream as the person who called it,
 * with a token the upstream's authorization server made for that upstream; Enterprise-
 * Managed Authorization uses it to get an ID-JAG from the organisation's IdP.
 *
 * The client authenticates with HTTP Basic (RFC 6749 §2.3.1). Tokens never appear in an
 * error message: the endpoint's own `error` and `error_description` do, shortened.
 */
import { CandorError } from '../../errors.js';
import { redactTokens } from './redact-tokens.js';
import { assertSecureAuthUrl, secureAuthFetch } from './secure-fetch.js';

/** RFC 8693 §3 token type identifiers candor sends or reads. */
export const TOKEN_TYPES = Object.freeze({
  accessToken: 'urn:ietf:params:oauth:token-type:access_token',
  idToken: 'urn:ietf:params:oauth:token-type:id_token',
  jwt: 'urn:ietf:params:oauth:token-type:jwt',
  /** The Identity Assertion JWT Authorization Grant (MCP Enterprise-Managed Authorization). */
  idJag: 'urn:ietf:params:oauth:token-type:id-jag',
});

/** The grant type of RFC 8693. */
export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';

/** One token exchange request (RFC 8693 §2.1). */
export interface TokenExchangeRequest {
  tokenEndpoint: string;
  clientId: string;
  clientSecret?: string | undefined;
  subjectToken: string;
  subjectTokenType: string;
  requestedTokenType?: string | undefined;
  audience?: string | undefined;
  resource?: string | undefined;
  scopes?: readonly string[] | undefined;
  /** Delegation (RFC 8693 §1.1): the token of the party acting for the subject. */
  actorToken?: string | undefined;
  actorTokenType?: string | undefined;
  fetch?: typeof fetch;
  /** Give up after this long (default 10 s): an IdP that hangs is an IdP that is down. */
  timeoutMs?: number;
}

/** What a token endpoint issued (RFC 8693 §2.2.1). */
export interface IssuedToken {
  token: string;
  issuedTokenType: string;
  tokenType: string;
  /** Epoch ms when it expires, when the endpoint said (`expires_in`). */
  expiresAt?: number;
  scope?: string;
}

/**
 * Why a token endpoint gave no token: `reason` is for the person (the endpoint's
 * `error` code and description, or that it could not be reached); `oauthError` is the
 * RFC 6749 §5.2 / RFC 8693 §2.2.2 code when there was one.
 */
export class TokenExchangeError extends CandorError {
  override readonly name = 'TokenExchangeError';
  readonly reason: string;
  readonly oauthError: string | undefined;
  readonly unreachable: boolean;
  constructor(reason: string, options: { oauthError?: string; unreachable?: boolean; cause?: unknown } = {}) {
    super(reason, {
      code: options.unreachable ? 'auth_discovery' : 'auth_token_response',
      cause: options.cause,
    });
    this.reason = reason;
    this.oauthError = options.oauthError;
    this.unreachable = options.unreachable === true;
  }
}

/**
 * Post a token exchange (or any grant given in `grant`) to the token endpoint.
 *
 * @example
 * ```ts
 * const issued = await exchangeToken({
 *   tokenEndpoint: 'https://idp.example.com/token', clientId: 'gateway', clientSecret,
 *   subjectToken: personToken, subjectTokenType: TOKEN_TYPES.accessToken,
 *   audience: 'https://billing.example.com', scopes: ['billing:read'],
 * });
 * ```
 */
export async function exchangeToken(request: TokenExchangeRequest): Promise<IssuedToken> {
  const body = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE_GRANT,
    subject_token: request.subjectToken,
    subject_token_type: request.subjectTokenType,
  });
  if (request.requestedTokenType !== undefined) body.set('requested_token_type', request.requestedTokenType);
  if (request.audience !== undefined) body.set('audience', request.audience);
  if (request.resource !== undefined) body.set('resource', request.resource);
  if (request.scopes !== undefined && request.scopes.length > 0) body.set('scope', request.scopes.join(' '));
  if (request.actorToken !== undefined) {
    body.set('actor_token', request.actorToken);
    body.set('actor_token_type', request.actorTokenType ?? TOKEN_TYPES.accessToken);
  }
  return postGrant(request, body);
}

/**
 * Post a grant to a token endpoint with the client's credentials and read the token
 * response; refusals and outages become a {@link TokenExchangeError}.
 *
 * @example
 * ```ts
 * const issued = await postGrant({ tokenEndpoint, clientId, clientSecret }, new URLSearchParams({ grant_type: 'client_credentials' }));
 * ```
 */
export async function postGrant(
  client: Pick<TokenExchangeRequest, 'tokenEndpoint' | 'clientId' | 'clientSecret' | 'fetch' | 'timeoutMs'>,
  body: URLSearchParams,
): Promise<IssuedToken> {
  assertSecureAuthUrl(client.tokenEndpoint, 'token endpoint');
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (client.clientSecret !== undefined) {
    // RFC 6749 §2.3.1: both parts form-encoded before Basic.
    const basic = `${formEncode(client.clientId)}:${formEncode(client.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(basic).toString('base64')}`;
  } else {
    body.set('client_id', client.clientId);
  }
  const fetchFn = secureAuthFetch(client.fetch ?? fetch);
  let response: Response;
  try {
    response = await fetchFn(client.tokenEndpoint, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(client.timeoutMs ?? 10_000),
    });
  } catch (error) {
    if (error instanceof CandorError) throw error;
    throw new TokenExchangeError(`the token endpoint ${new URL(client.tokenEndpoint).origin} could not be reached`, {
      unreachable: true,
      cause: error,
    });
  }
  const text = await response.text().catch(() => '');
  let json: Record<string, unknown> | undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      json = parsed as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const error = typeof json?.error === 'string' ? json.error : undefined;
    const description = typeof json?.error_description === 'string' ? json.error_description : undefined;
    if (error === undefined) {
      throw new TokenExchangeError(`the token endpoint answered HTTP ${response.status}`, {
        unreachable: response.status >= 500,
      });
    }
    throw new TokenExchangeError(
      `the token endpoint refused: ${short(error)}${description ? ` (${short(description)})` : ''}`,
      { oauthError: error },
    );
  }
  const token = json?.access_token;
  if (typeof token !== 'string' || token === '') {
    throw new TokenExchangeError('the token endpoint answered without an access_token');
  }
  const expiresIn = json?.expires_in;
  return {
    token,
    issuedTokenType: typeof json?.issued_token_type === 'string' ? json.issued_token_type : TOKEN_TYPES.accessToken,
    tokenType: typeof json?.token_type === 'string' ? json.token_type : 'Bearer',
    ...(typeof expiresIn === 'number' && expiresIn > 0 ? { expiresAt: Date.now() + expiresIn * 1000 } : {}),
    ...(typeof json?.scope === 'string' ? { scope: json.scope } : {}),
  };
}

function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/** A server's words in a person's message: no token, one line, bounded. */
function short(text: string): string {
  const line = redactTokens(text.slice(0, 1000)).replace(/[\r\n\t]+/g, ' ');
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
