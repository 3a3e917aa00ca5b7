/**
 * The authorization server's half of MCP Enterprise-Managed Authorization: checking an
 * Identity Assertion JWT Authorization Grant (ID-JAG) presented with the JWT-bearer
 * grant (RFC 7523 §2.1) before issuing an access token for the MCP server. The checks
 * are the extension's (§5.1, §7.4, §7.6) and the draft's processing rules:
 *
 * - header `typ` is `oauth-id-jag+jwt`; the signature verifies with a key of a trusted
 *   issuer, under an allow-list of asymmetric algorithms (never `none` or HS*);
 * - `iss` is a trusted IdP, `aud` is this authorization server's issuer identifier,
 *   `sub`, `jti`, `iat` and `exp` are present and the time bounds hold (small skew);
 * - `client_id` is the client that authenticated the token request;
 * - `resource`, when present, is one of this server's MCP servers (the `aud`/`resource`
 *   pair is bound); the access token is then audience-restricted to it;
 * - `jti` is used once: a replay within the assertion's lifetime is refused (scoped by
 *   issuer);
 * - the scopes granted are the intersection of those asked and those in the assertion.
 *
 * Every refusal is an {@link IdentityAssertionError} whose `error` is `invalid_grant`
 * (RFC 6749 §5.2), with a description that names the check and never the assertion.
 */
import type { JSONWebKeySet, JWTPayload, JWTVerifyGetKey } from 'jose';
import { CandorError } from '../errors.js';
import { ASYMMETRIC_ALGORITHMS } from './jwt-verifier.js';

/** The media type of an ID-JAG's `typ` header. */
export const ID_JAG_TYP = 'oauth-id-jag+jwt';

/** An IdP whose ID-JAGs are accepted. */
export interface TrustedIdp {
  issuer: string;
  /** Its keys: a JWKS URL (cached, re-fetched on an unknown `kid`) or a JWKS held locally. */
  jwks: string | URL | JSONWebKeySet;
}

/** Where used `jti`s are remembered until their assertion expires (share one across instances). */
export interface ReplayStore {
  /** Record `key` until `expiresAt` (epoch s); false when it was already recorded. */
  claim(key: string, expiresAt: number): Promise<boolean> | boolean;
}

/** Options of {@link identityAssertionVerifier}. */
export interface IdentityAssertionOptions {
  /** This authorization server's issuer identifier: the `aud` an ID-JAG must name. */
  issuer: string;
  /** The IdPs trusted to issue ID-JAGs. */
  trusted: readonly TrustedIdp[];
  /** The resource identifiers of the MCP servers this authorization server issues tokens for. */
  resources: readonly string[];
  /** Scopes this authorization server knows; others in an assertion are not granted. Default: any. */
  scopesSupported?: readonly string[];
  /** Most seconds an assertion may live (`exp - iat`). Default 600: ID-JAGs are short-lived. */
  maxLifetimeSec?: number;
  /** Clock skew allowed, seconds. Default 30. */
  clockToleranceSec?: number;
  /** Default: in memory (one process). */
  replay?: ReplayStore;
  algorithms?: readonly string[];
}

/** What an accepted ID-JAG grants. */
export interface AcceptedAssertion {
  issuer: string;
  subject: string;
  clientId: string;
  /** The MCP server the access token must be audience-restricted to. */
  resource: string | undefined;
  /** Scopes to grant: the intersection of those asked and those asserted. */
  scopes: string[];
  claims: Readonly<JWTPayload>;
}

/** An ID-JAG that is refused: answer `invalid_grant` with `description`. */
export class IdentityAssertionError extends CandorError {
  override readonly name = 'IdentityAssertionError';
  readonly error = 'invalid_grant';
  readonly description: string;
  constructor(description: string, options: { cause?: unknown } = {}) {
    super(`invalid_grant: ${description}`, { code: 'auth_refused', cause: options.cause });
    this.description = description;
  }
}

/**
 * Build the check. Call it with the `assertion` parameter, the client id the token
 * request authenticated, and the `scope` parameter (if any).
 *
 * @example
 * ```ts
 * const accept = identityAssertionVerifier({
 *   issuer: 'https://auth.chat.example', resources: ['https://mcp.chat.example/mcp'],
 *   trusted: [{ issuer: 'https://acme.idp.example', jwks: 'https://acme.idp.example/jwks' }],
 * });
 * const grant = await accept(params.assertion, client.clientId, params.scope);
 * ```
 */
export function identityAssertionVerifier(options: IdentityAssertionOptions) {
  const algorithms = [...(options.algorithms ?? ASYMMETRIC_ALGORITHMS)];
  if (algorithms.some((alg) => alg === 'none' || /^HS/i.test(alg)))
    throw new TypeError('identity assertions: only asymmetric algorithms are accepted.');
  const maxLifetime = options.maxLifetimeSec ?? 600;
  const skew = options.clockToleranceSec ?? 30;
  const replay = options.replay ?? memoryReplayStore();
  let jose: Promise<typeof import('jose')> | undefined;
  const keys = new Map<string, JWTVerifyGetKey>();

  return async (assertion: string, clientId: string, scope?: string): Promise<AcceptedAssertion> => {
    jose ??= import('jose');
    const { createLocalJWKSet, createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } = await jose;
    let header: ReturnType<typeof decodeProtectedHeader>;
    let unverified: JWTPayload;
    try {
      header = decodeProtectedHeader(assertion);
      unverified = decodeJwt(assertion);
    } catch (error) {
      throw new IdentityAssertionError('the assertion is not a JWT', { cause: error });
    }
    if (header.typ !== ID_JAG_TYP) throw new IdentityAssertionError(`the assertion's typ is not ${ID_JAG_TYP}`);
    const idp = options.trusted.find((t) => t.issuer === unverified.iss);
    if (idp === undefined) throw new IdentityAssertionError('the assertion was issued by an IdP that is not trusted');
    let key = keys.get(idp.issuer);
    if (key === undefined) {
      key =
        typeof idp.jwks === 'string' || idp.jwks instanceof URL
          ? (createRemoteJWKSet(new URL(idp.jwks)) as JWTVerifyGetKey)
          : (createLocalJWKSet(idp.jwks) as JWTVerifyGetKey);
      keys.set(idp.issuer, key);
    }
    let payload: JWTPayload;
    try {
      payload = (
        await jwtVerify(assertion, key, {
          algorithms,
          issuer: idp.issuer,
          audience: options.issuer,
          typ: ID_JAG_TYP,
          clockTolerance: skew,
          requiredClaims: ['sub', 'jti', 'iat', 'exp', 'client_id'],
        })
      ).payload;
    } catch (error) {
      throw new IdentityAssertionError(reasonOf(error), { cause: error });
    }
    const now = Math.floor(Date.now() / 1000);
    if (payload.exp! - payload.iat! > maxLifetime)
      throw new IdentityAssertionError(`the assertion lives longer than ${maxLifetime} s`);
    if (payload.iat! > now + skew) throw new IdentityAssertionError('the assertion was issued in the future');
    if (payload.client_id !== clientId)
      throw new IdentityAssertionError('the assertion was issued to another client (client_id)');
    const resource = payload.resource;
    if (resource !== undefined && (typeof resource !== 'string' || !options.resources.includes(resource)))
      throw new IdentityAssertionError('the assertion names a resource this authorization server does not serve');
    // Replay (the extension, §7.4.2): each jti once per issuer, at least until the assertion expires.
    if (!(await replay.claim(`${idp.issuer}\0${payload.jti}`, payload.exp! + skew)))
      throw new IdentityAssertionError('the assertion was already used (jti)');
    const asserted = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
    const asked = scope === undefined ? asserted : scope.split(' ').filter(Boolean);
    const known = options.scopesSupported;
    const scopes = asked.filter((s) => asserted.includes(s) && (known === undefined || known.includes(s)));
    return {
      issuer: idp.issuer,
      subject: String(payload.sub),
      clientId,
      resource: typeof resource === 'string' ? resource : undefined,
      scopes,
      claims: Object.freeze({ ...payload }),
    };
  };
}

/** Used `jti`s in this process, each forgotten once its assertion has expired. */
export function memoryReplayStore(): ReplayStore {
  const used = new Map<string, number>();
  return {
    claim(key, expiresAt) {
      const now = Date.now() / 1000;
      if (used.size > 10_000) for (const [k, until] of used) if (until < now) used.delete(k);
      const until = used.get(key);
      if (until !== undefined && until >= now) return false;
      used.set(key, expiresAt);
      return true;
    },
  };
}

function reasonOf(error: unknown): string {
  const { code, claim } = (error ?? {}) as { code?: string; claim?: string };
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'the assertion expired';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (claim === 'aud') return 'the assertion is not for this authorization server (aud)';
      if (claim === 'typ') return `the assertion's typ is not ${ID_JAG_TYP}`;
      return `the assertion's ${claim ?? 'claims'} claim is not valid`;
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return "the assertion's signing algorithm is not accepted";
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return "the assertion's signature does not verify with the IdP's keys";
    default:
      return 'the assertion could not be verified';
  }
}
