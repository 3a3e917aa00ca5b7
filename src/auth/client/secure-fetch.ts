/**
 * The fetch candor's OAuth client uses: HTTPS only, except for loopback addresses
 * (OAuth 2.1 §1.5; a developer's local server is on http://127.0.0.1), and redirects
 * followed only within one origin (a metadata or token request that bounces to another
 * host or port is refused rather than followed with a secret in it).
 */
import { CandorError } from '../../errors.js';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** True for a URL candor may send OAuth traffic to. */
export function isSecureAuthUrl(url: string | URL): boolean {
  const u = new URL(String(url));
  return u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.has(u.hostname));
}

/** Throw a clear error unless `url` is https:// or a loopback http:// URL. */
export function assertSecureAuthUrl(url: string | URL, what: string): void {
  if (!isSecureAuthUrl(url)) {
    throw new CandorError(
      `Refusing the ${what} at ${new URL(String(url)).origin}: OAuth traffic goes only over https:// (or http:// to this machine's loopback).`,
      { code: 'auth_insecure' },
    );
  }
}

/**
 * A fetch that refuses insecure URLs and cross-origin redirects.
 *
 * @example
 * ```ts
 * const fetchFn = secureAuthFetch();
 * await fetchFn('https://auth.example.com/.well-known/oauth-authorization-server');
 * ```
 */
export function secureAuthFetch(base: typeof fetch = fetch): typeof fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    let request = input;
    for (let hops = 0; ; hops++) {
      assertSecureAuthUrl(url, 'request');
      const response = await base(request, { ...init, redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) return response;
      const next = new URL(location, url);
      if (next.origin !== url.origin) {
        await response.body?.cancel().catch(() => {});
        throw new CandorError(
          `Refusing a redirect from ${url.origin} to ${next.origin}: OAuth requests are only followed within one origin.`,
          { code: 'auth_redirect' },
        );
      }
      if (hops >= 5) throw new CandorError(`Too many redirects from ${url.origin}.`, { code: 'auth_redirect' });
      await response.body?.cancel().catch(() => {});
      url = next;
      request = next;
    }
  }) as typeof fetch;
}
