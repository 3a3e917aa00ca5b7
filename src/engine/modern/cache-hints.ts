/**
 * Caching hints of the 2026-07-28 era (server/utilities/caching): results of
 * `server/discover`, the four list methods and `resources/read` carry `ttlMs`
 * (≥ 0) and `cacheScope`. candor's lists never vary per caller (one registry,
 * one precomputed manifest, deterministic order), so a list is identical for
 * every caller with the same authorization.
 *
 * Defaults: lists and discover are fresh for 60 s; their scope is `public`
 * for anonymous requests and `private` for authenticated ones (`auto`), so a
 * shared cache never hands an authenticated endpoint's list to someone
 * outside it. Reads default to `ttlMs: 0` and `private` (a resource may
 * depend on the user).
 */
import type { AuthInfo } from '../../tool/types.js';

/** One kind of result's hints. */
export interface CacheHintOptions {
  /** Freshness in ms (≥ 0). */
  ttlMs?: number;
  /** `auto`: `private` when the request is authenticated, else `public`. */
  scope?: 'public' | 'private' | 'auto';
}

/** The server's `cache` option. */
export interface CacheOptions {
  /** `tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`. Default `{ ttlMs: 60000, scope: 'auto' }`. */
  lists?: CacheHintOptions;
  /** `server/discover`. Default: as `lists`. */
  discover?: CacheHintOptions;
  /** `resources/read`. Default `{ ttlMs: 0, scope: 'private' }`. */
  reads?: CacheHintOptions;
}

export type CacheScope = 'public' | 'private';

interface Resolved {
  ttlMs: number;
  scope: 'public' | 'private' | 'auto';
}

/**
 * The resolved hints, with the JSON tails spliced into cached list pages.
 *
 * @example
 * ```ts
 * const cache = new CacheHints({ lists: { ttlMs: 300_000, scope: 'public' } });
 * cache.hints('lists', undefined); // { ttlMs: 300000, cacheScope: 'public' }
 * ```
 */
export class CacheHints {
  readonly #kinds: Record<'lists' | 'discover' | 'reads', Resolved>;

  constructor(options: CacheOptions = {}) {
    const lists = resolve(options.lists, { ttlMs: 60_000, scope: 'auto' }, 'lists');
    this.#kinds = {
      lists,
      discover: resolve(options.discover, lists, 'discover'),
      reads: resolve(options.reads, { ttlMs: 0, scope: 'private' }, 'reads'),
    };
  }

  /** The hints for one result. */
  hints(kind: 'lists' | 'discover' | 'reads', auth: AuthInfo | undefined): { ttlMs: number; cacheScope: CacheScope } {
    const { ttlMs, scope } = this.#kinds[kind];
    return { ttlMs, cacheScope: scope === 'auto' ? (auth === undefined ? 'public' : 'private') : scope };
  }
}

function resolve(given: CacheHintOptions | undefined, fallback: Resolved, name: string): Resolved {
  const ttlMs = given?.ttlMs ?? fallback.ttlMs;
  const scope = given?.scope ?? fallback.scope;
  if (!(Number.isInteger(ttlMs) && ttlMs >= 0)) {
    throw new TypeError(`cache.${name}.ttlMs must be a whole number of milliseconds ≥ 0 (got ${String(ttlMs)}).`);
  }
  if (scope !== 'public' && scope !== 'private' && scope !== 'auto') {
    throw new TypeError(`cache.${name}.scope must be "public", "private" or "auto" (got ${String(scope)}).`);
  }
  return { ttlMs, scope };
}
