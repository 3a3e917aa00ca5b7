/**
 * Opaque tokens checked through an introspection callback that answers like
 * RFC 7662: `active`, then candor checks `exp`, `nbf`, `aud` (the resource
 * indicator: MUST be this server, so an answer without `aud` is refused) and
 * `iss` when an issuer is configured.
 */
import type { ServerLogger } from '../util/logger.js';
import { audienceMatches, invalid, scopesOf, type TokenVerifier } from './token-verifier.js';
import type { AuthOptions, IntrospectionResponse } from './types.js';

/**
 * Build the verifier for an introspection callback.
 *
 * @example
 * ```ts
 * const verify = introspectionVerifier(options, ['https://mcp.example.com/mcp'], logger);
 * ```
 */
export function introspectionVerifier(
  options: AuthOptions & { introspect: (token: string) => Promise<IntrospectionResponse> },
  audiences: readonly string[],
  logger: ServerLogger,
): TokenVerifier {
  const tolerance = options.clockToleranceSec ?? 5;
  return async (token) => {
    let answer: IntrospectionResponse;
    try {
      answer = await options.introspect(token);
    } catch (error) {
      logger.warn('auth: token introspection failed', { error: String(error) });
      return { ok: false, reason: 'The authorization server could not be asked about the token.', unavailable: true };
    }
    if (typeof answer !== 'object' || answer === null || answer.active !== true) {
      return invalid('The access token is not active.');
    }
    const now = Date.now() / 1000;
    if (typeof answer.exp === 'number' && answer.exp + tolerance <= now) return invalid('The access token expired.');
    if (typeof answer.nbf === 'number' && answer.nbf - tolerance > now)
      return invalid('The access token is not valid yet.');
    if (!audienceMatches(answer.aud, audiences)) {
      return invalid('The access token was not issued for this resource (audience).');
    }
    if (options.issuer !== undefined && answer.iss !== undefined && answer.iss !== options.issuer) {
      return invalid('The access token was issued by another authorization server.');
    }
    return {
      ok: true,
      principal: {
        ...(typeof answer.sub === 'string' ? { subject: answer.sub } : {}),
        ...(typeof answer.client_id === 'string' ? { clientId: answer.client_id } : {}),
        scopes: scopesOf(answer.scope),
        ...(typeof answer.exp === 'number' ? { expiresAt: answer.exp } : {}),
        claims: Object.freeze({ ...answer }),
      },
    };
  };
}

/**
 * Wrap a custom `verify`: undefined or a throw is an invalid token; an
 * `expiresAt` in the past is refused too.
 */
export function customVerifier(
  options: AuthOptions & { verify: NonNullable<AuthOptions['verify']> },
  logger: ServerLogger,
): TokenVerifier {
  return async (token) => {
    try {
      const principal = await options.verify(token);
      if (principal === undefined || principal === null) return invalid('The access token is not valid.');
      if (typeof principal.expiresAt === 'number' && principal.expiresAt <= Date.now() / 1000) {
        return invalid('The access token expired.');
      }
      return { ok: true, principal: { ...principal, scopes: principal.scopes ?? [] } };
    } catch (error) {
      logger.debug('auth: the verify callback refused a token', { error: String(error) });
      return invalid('The access token is not valid.');
    }
  };
}
