/**
 * Verified tokens remembered for a short while, so a client that sends the
 * same token on every request pays for the signature check (tens of µs of
 * WebCrypto) once, not per request. Only tokens that verified are kept; a hit
 * still honours the token's own `exp`; entries live at most `maxAgeMs`, so a
 * key the issuer withdraws stops working within that time (the same bound
 * the JWKS cache already puts on key changes). Bounded in entries.
 */
import type { TokenVerifier, Verdict } from './token-verifier.js';
import type { VerifiedToken } from './types.js';

interface Entry {
  readonly principal: VerifiedToken;
  /** Epoch ms after which the entry is not used. */
  readonly until: number;
}

/**
 * Wrap a verifier with a cache of good verdicts.
 *
 * @example
 * ```ts
 * const verify = cachedVerifier(jwtVerifier(options, audiences, logger), { maxAgeMs: 60_000, maxEntries: 10_000 });
 * ```
 */
export function cachedVerifier(
  verify: TokenVerifier,
  options: { maxAgeMs: number; maxEntries: number },
): TokenVerifier {
  const { maxAgeMs, maxEntries } = options;
  if (maxAgeMs <= 0) return verify;
  const entries = new Map<string, Entry>();
  return async (token): Promise<Verdict> => {
    const now = Date.now();
    const hit = entries.get(token);
    if (hit !== undefined) {
      if (hit.until > now) return { ok: true, principal: hit.principal };
      entries.delete(token);
    }
    const verdict = await verify(token);
    if (verdict.ok) {
      const expires =
        verdict.principal.expiresAt === undefined ? Number.POSITIVE_INFINITY : verdict.principal.expiresAt * 1000;
      const until = Math.min(now + maxAgeMs, expires);
      if (until > now) {
        // Oldest first out: a Map iterates in insertion order.
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        entries.set(token, { principal: verdict.principal, until });
      }
    }
    return verdict;
  };
}
