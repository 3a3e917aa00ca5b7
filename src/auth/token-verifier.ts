/**
 * What every way of checking a token answers: the principal, or why not.
 * `unavailable` means the server could not check (keys or introspection
 * unreachable): a 503, not a 401, so clients do not start an OAuth flow
 * over a server-side outage.
 */
import type { VerifiedToken } from './types.js';

/** The verdict on one token. */
export type Verdict =
  | { readonly ok: true; readonly principal: VerifiedToken }
  | { readonly ok: false; readonly reason: string; readonly unavailable?: true };

/** Checks one bearer token. Never rejects. */
export type TokenVerifier = (token: string) => Promise<Verdict>;

/** A refusal verdict. */
export function invalid(reason: string): Verdict {
  return { ok: false, reason };
}

/** Space-separated scopes (OAuth `scope` claim / member) as a list; a JSON array is accepted too. */
export function scopesOf(value: unknown): string[] {
  if (typeof value === 'string') return value.split(' ').filter((s) => s.length > 0);
  if (Array.isArray(value)) return value.filter((s): s is string => typeof s === 'string' && s.length > 0);
  return [];
}

/** Whether an `aud` claim (string or list) names one of the accepted audiences. */
export function audienceMatches(aud: unknown, accepted: readonly string[]): boolean {
  if (typeof aud === 'string') return accepted.includes(aud);
  if (Array.isArray(aud)) return aud.some((a) => typeof a === 'string' && accepted.includes(a));
  return false;
}

/**
 * The same verifier with its principals frozen (scopes included): a principal
 * is shared by every request that carries the same token (token-cache.ts), so
 * a handler that changed `ctx.auth.scopes` would otherwise widen later checks.
 */
export function frozenPrincipals(verify: TokenVerifier): TokenVerifier {
  return async (token) => {
    const verdict = await verify(token);
    if (!verdict.ok) return verdict;
    const { principal } = verdict;
    const scopes = Object.freeze([...(principal.scopes ?? [])]) as string[];
    return { ok: true, principal: Object.freeze({ ...principal, scopes }) };
  };
}
