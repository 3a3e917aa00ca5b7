/**
 * What keeps other web pages and other local users out of `candor ui`:
 * a random per-launch token on every API request (compared in constant time),
 * a Host header that must name the loopback address we listen on (DNS
 * rebinding), an Origin that must be the console's own, and strict CSPs.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * A fresh token for one launch: 32 random bytes, base64url.
 *
 * @example
 * ```ts
 * const token = newToken(); // 43 characters
 * ```
 */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * True when `given` equals `expected`, in time independent of where they differ.
 *
 * @example
 * ```ts
 * tokenMatches(request.headers['x-candor-token'] as string, token);
 * ```
 */
export function tokenMatches(given: string | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The hosts a loopback listener on `port` may be addressed by.
 *
 * @example
 * ```ts
 * allowedHosts(4100).has('127.0.0.1:4100'); // true
 * ```
 */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

/** Why a request is refused, or undefined when it may proceed. */
export interface Refusal {
  status: number;
  message: string;
}

/**
 * Check a request to the JSON API: Host, Origin (when the browser sends one;
 * always required on requests that change something) and the token (header
 * `X-Candor-Token`, or `token` in the query for EventSource, which cannot set headers).
 *
 * @example
 * ```ts
 * const refusal = checkApiRequest(request, url, { hosts: allowedHosts(port), origin, token });
 * if (refusal) response.writeHead(refusal.status).end(refusal.message);
 * ```
 */
export function checkApiRequest(
  request: IncomingMessage,
  url: URL,
  expected: { hosts: ReadonlySet<string>; origin: string; token: string },
): Refusal | undefined {
  if (!expected.hosts.has(request.headers.host ?? '')) {
    return { status: 421, message: 'This server answers only to its loopback address.' };
  }
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== expected.origin) {
    return {
      status: 403,
      message: `Requests from ${origin} are refused; only the console's own page may call this API.`,
    };
  }
  if (request.method !== 'GET' && origin === undefined) {
    return {
      status: 403,
      message: 'A request that changes something must come from the console page (Origin missing).',
    };
  }
  const header = request.headers['x-candor-token'];
  const token = typeof header === 'string' ? header : (url.searchParams.get('token') ?? undefined);
  if (!tokenMatches(token, expected.token)) {
    return { status: 401, message: 'Missing or wrong token: open the URL candor ui printed (it carries the token).' };
  }
  return undefined;
}

/**
 * The console page's CSP: own scripts and styles only; frames only from the sandbox origin.
 *
 * @example
 * ```ts
 * consoleCsp('http://127.0.0.1:4101'); // "default-src 'none'; script-src 'self'; … frame-src http://127.0.0.1:4101; …"
 * ```
 */
export function consoleCsp(sandboxOrigin: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    `frame-src ${sandboxOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The sandbox proxy page's CSP. Only `frame-ancestors`: the View's `srcdoc`
 * document inherits this policy, and the View's own policy (built from its
 * `_meta.ui.csp`) is added inside it, so anything stricter here would only
 * break Views, not protect more.
 *
 * @example
 * ```ts
 * sandboxCsp('http://127.0.0.1:4100'); // 'frame-ancestors http://127.0.0.1:4100'
 * ```
 */
export function sandboxCsp(consoleOrigin: string): string {
  return `frame-ancestors ${consoleOrigin}`;
}

/** Headers every response carries. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
});
