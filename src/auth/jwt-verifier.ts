/**
 * JWT access tokens (RFC 9068) verified with `jose` against the issuer's JWKS:
 * signature, `iss`, `aud` (the resource indicator, RFC 8707), `exp`, `nbf`.
 * Only asymmetric algorithms are accepted, so neither `alg: none` nor an
 * HS256 token "signed" with the public key (algorithm confusion) can pass:
 * jose refuses unsecured JWTs, and the algorithm list is checked before any
 * key is picked.
 *
 * jose is imported on the first token, not with candor: a server without
 * OAuth never pays for its modules (about 10 MiB of RSS).
 */

import type { JWTPayload, JWTVerifyGetKey } from 'jose';
import { CandorError } from '../errors.js';
import type { ServerLogger } from '../util/logger.js';
import { discoverJwksUri } from './issuer-metadata.js';
import { invalid, scopesOf, type TokenVerifier, type Verdict } from './token-verifier.js';
import type { AuthOptions, VerifiedToken } from './types.js';

/** Asymmetric JWS algorithms (RFC 7518, RFC 8037). */
export const ASYMMETRIC_ALGORITHMS: readonly string[] = Object.freeze([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
]);

/**
 * Build the verifier for JWT access tokens.
 *
 * @example
 * ```ts
 * const verify = jwtVerifier({ resource: 'https://mcp.example.com/mcp', issuer: 'https://auth.example.com' }, ['https://mcp.example.com/mcp'], logger);
 * const verdict = await verify(token);
 * ```
 */
export function jwtVerifier(options: AuthOptions, audiences: readonly string[], logger: ServerLogger): TokenVerifier {
  const algorithms = [...(options.algorithms ?? ASYMMETRIC_ALGORITHMS)];
  for (const alg of algorithms) {
    if (alg === 'none' || /^HS/i.test(alg)) {
      throw new TypeError(
        `auth.algorithms: "${alg}" is not accepted; an access token must be signed with a private key.`,
      );
    }
  }
  const keysWith = keySource(options, logger);
  let ready: Promise<{ verify: Jose['jwtVerify']; keys: JWTVerifyGetKey }> | undefined;
  const verifyOptions = {
    algorithms,
    audience: [...audiences],
    ...(options.issuer === undefined ? {} : { issuer: options.issuer }),
    clockTolerance: options.clockToleranceSec ?? 5,
    requiredClaims: ['exp'],
  };
  return async (token: string): Promise<Verdict> => {
    try {
      ready ??= import('jose').then((jose) => ({ verify: jose.jwtVerify, keys: keysWith(jose) }));
      const { verify, keys } = await ready;
      const { payload } = await verify(token, keys, verifyOptions);
      return { ok: true, principal: principalOf(payload) };
    } catch (error) {
      return verdictOf(error, logger);
    }
  };
}

function principalOf(payload: JWTPayload): VerifiedToken {
  const claims = payload as Record<string, unknown>;
  const clientId =
    typeof claims.client_id === 'string' ? claims.client_id : typeof claims.azp === 'string' ? claims.azp : undefined;
  return {
    ...(typeof payload.sub === 'string' ? { subject: payload.sub } : {}),
    ...(clientId === undefined ? {} : { clientId }),
    scopes: scopesOf(claims.scope ?? claims.scp),
    ...(typeof payload.exp === 'number' ? { expiresAt: payload.exp } : {}),
    claims: Object.freeze({ ...claims }),
  };
}

type Jose = typeof import('jose');

/**
 * The keys, once jose is loaded: a remote JWKS (cached, re-fetched on an unknown kid),
 * a local one, or one found from the issuer. The options are checked now, at start.
 */
function keySource(options: AuthOptions, logger: ServerLogger): (jose: Jose) => JWTVerifyGetKey {
  const remote = (jose: Jose, url: URL) =>
    jose.createRemoteJWKSet(url, {
      cooldownDuration: options.jwksCooldownMs ?? 30_000,
      cacheMaxAge: options.jwksMaxAgeMs ?? 10 * 60_000,
    });
  const { jwks, issuer } = options;
  if (typeof jwks === 'string' || jwks instanceof URL) {
    const url = new URL(jwks);
    return (jose) => remote(jose, url);
  }
  if (jwks !== undefined) return (jose) => jose.createLocalJWKSet(jwks);
  if (issuer === undefined) throw new TypeError('auth: give issuer or jwks to verify JWT access tokens.');
  // Found once, lazily (the issuer may not be up when the server starts); a failure is retried next time.
  let found: Promise<JWTVerifyGetKey> | undefined;
  return (jose) => async (header, token) => {
    found ??= discoverJwksUri(issuer).then(
      (uri) => remote(jose, new URL(uri)),
      (error) => {
        found = undefined;
        logger.warn('auth: the issuer metadata could not be read', { issuer, error: String(error) });
        throw new KeysUnavailable(String(error));
      },
    );
    return (await found)(header, token);
  };
}

/** The issuer's signing keys could not be fetched (answered 503, not 401). */
class KeysUnavailable extends CandorError {
  override readonly name = 'KeysUnavailable';
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { code: 'keys_unavailable', cause: options.cause });
  }
}

/** What the client is told (never the token; the claim values are the server's own configuration). */
function verdictOf(error: unknown, logger: ServerLogger): Verdict {
  const code = (error as { code?: string })?.code;
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return invalid('The access token expired.');
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED': {
      const claim = (error as { claim?: string }).claim;
      if (claim === 'aud') return invalid('The access token was not issued for this resource (audience).');
      if (claim === 'iss') return invalid('The access token was issued by another authorization server.');
      if (claim === 'nbf') return invalid('The access token is not valid yet.');
      if (claim === 'exp') return invalid('The access token has no expiry (exp).');
      return invalid(`The access token's ${claim ?? 'claims'} claim is not valid.`);
    }
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return invalid("The access token's signing algorithm is not accepted.");
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return invalid("No key of the authorization server matches the access token's signature.");
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return invalid("The access token's signature is not valid.");
    case 'ERR_JWS_INVALID':
    case 'ERR_JWT_INVALID':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return invalid('The access token is not a valid signed JWT.');
    case 'ERR_JWKS_TIMEOUT':
    case 'ERR_JWKS_INVALID':
      logger.warn("auth: the authorization server's keys could not be fetched", { code });
      return { ok: false, reason: "The authorization server's keys could not be fetched.", unavailable: true };
    default:
      if (error instanceof KeysUnavailable || error instanceof TypeError) {
        // A fetch failure (jose rethrows fetch's TypeError) is the server's problem, not the token's.
        logger.warn("auth: the authorization server's keys could not be fetched", { error: String(error) });
        return { ok: false, reason: "The authorization server's keys could not be fetched.", unavailable: true };
      }
      logger.warn('auth: token verification failed unexpectedly', { code, error: String(error) });
      return invalid('The access token could not be verified.');
  }
}
