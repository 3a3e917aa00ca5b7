/**
 * Tokens obtained by exchange, kept per key (the gateway's key is person × upstream)
 * until shortly before they expire: a call then gets a fresh one before the old one
 * runs out, never one that expires in flight. Calls that need the same key while an
 * exchange is under way wait for that one exchange. Nothing here is written anywhere.
 */
import type { IssuedToken } from './token-exchange.js';

interface Held {
  issued: IssuedToken;
  /** Epoch ms from which the token is no longer handed out (refreshed instead). */
  useUntil: number;
}

/** Options of {@link ExchangedTokens}. */
export interface ExchangedTokensOptions {
  /** Exchange again this long before a token expires (default 30 s). */
  refreshBeforeMs?: number;
  /** How long a token without `expires_in` is kept (default 5 minutes). */
  defaultLifetimeMs?: number;
  /** Most tokens kept (oldest dropped first; default 10 000). */
  maxEntries?: number;
}

/**
 * The cache.
 *
 * @example
 * ```ts
 * const tokens = new ExchangedTokens({ refreshBeforeMs: 30_000 });
 * const issued = await tokens.get(`billing\0${sub}`, personExpiresAt, () => exchangeToken(request));
 * ```
 */
export class ExchangedTokens {
  readonly #held = new Map<string, Held>();
  readonly #pending = new Map<string, Promise<IssuedToken>>();
  readonly #refreshBeforeMs: number;
  readonly #defaultLifetimeMs: number;
  readonly #maxEntries: number;
  /** Exchanges made (cache misses), for status and tests. */
  exchanges = 0;

  constructor(options: ExchangedTokensOptions = {}) {
    this.#refreshBeforeMs = options.refreshBeforeMs ?? 30_000;
    this.#defaultLifetimeMs = options.defaultLifetimeMs ?? 5 * 60_000;
    this.#maxEntries = options.maxEntries ?? 10_000;
  }

  /**
   * The token held for `key`, or a new one from `exchange`. `notAfter` (epoch ms) caps how
   * long it is used: a token exchanged for a person does not outlive the person's own.
   */
  async get(key: string, notAfter: number | undefined, exchange: () => Promise<IssuedToken>): Promise<IssuedToken> {
    const held = this.#held.get(key);
    if (held !== undefined && held.useUntil > Date.now()) return held.issued;
    const pending = this.#pending.get(key);
    if (pending !== undefined) return pending;
    const started = (async () => {
      try {
        this.exchanges++;
        const issued = await exchange();
        const expires = issued.expiresAt ?? Date.now() + this.#defaultLifetimeMs;
        // A token shorter-lived than the refresh margin is used for half its life.
        const margin = Math.min(this.#refreshBeforeMs, (expires - Date.now()) / 2);
        const useUntil = Math.min(expires - margin, notAfter ?? Number.POSITIVE_INFINITY);
        this.#held.delete(key);
        if (this.#held.size >= this.#maxEntries) this.#held.delete(this.#held.keys().next().value as string);
        this.#held.set(key, { issued, useUntil });
        return issued;
      } finally {
        this.#pending.delete(key);
      }
    })();
    this.#pending.set(key, started);
    return started;
  }

  /** The token held for `key` now, if any (without exchanging). */
  current(key: string): IssuedToken | undefined {
    return this.#held.get(key)?.issued;
  }

  /** Forget `key`'s token (the upstream refused it). */
  drop(key: string): void {
    this.#held.delete(key);
  }
}
