/**
 * `Accept` and `Content-Type` for Streamable HTTP (spec 2025-03-26+,
 * transports: the client "MUST include an Accept header, listing both
 * application/json and text/event-stream" on POST, and text/event-stream on
 * GET). candor is tolerant where that costs nothing: a missing Accept, or one
 * with wildcards, accepts everything (RFC 9110 §12.5.1); a POST that accepts
 * JSON but not SSE is answered in JSON and never upgraded (messages about the
 * request then go to the session's GET stream).
 */

/** What a client's `Accept` header lets the server answer with. */
export interface Acceptable {
  readonly json: boolean;
  readonly sse: boolean;
}

const BOTH: Acceptable = Object.freeze({ json: true, sse: true });
const NEITHER: Acceptable = Object.freeze({ json: false, sse: false });
const JSON_ONLY: Acceptable = Object.freeze({ json: true, sse: false });
const SSE_ONLY: Acceptable = Object.freeze({ json: false, sse: true });

// The same few Accept values arrive over and over (each client library sends one):
// remember their verdicts instead of re-parsing. Bounded so hostile headers cannot grow it.
const cache = new Map<string, Acceptable>();
const CACHE_LIMIT = 64;

/**
 * Parse an `Accept` header into what it allows.
 *
 * @example
 * ```ts
 * acceptable('application/json, text/event-stream'); // { json: true, sse: true }
 * acceptable('application/json'); // { json: true, sse: false }
 * acceptable(undefined); // { json: true, sse: true }
 * ```
 */
export function acceptable(accept: string | undefined): Acceptable {
  if (accept === undefined || accept === '') return BOTH;
  const known = cache.get(accept);
  if (known !== undefined) return known;
  let json = false;
  let sse = false;
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';');
    const mediaRange = type.trim().toLowerCase();
    // q=0 means "not acceptable" (RFC 9110 §12.4.2).
    if (params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/i.test(p))) continue;
    if (mediaRange === '*/*') json = sse = true;
    else if (mediaRange === 'application/json' || mediaRange === 'application/*') json = true;
    else if (mediaRange === 'text/event-stream' || mediaRange === 'text/*') sse = true;
  }
  const verdict = json ? (sse ? BOTH : JSON_ONLY) : sse ? SSE_ONLY : NEITHER;
  if (cache.size < CACHE_LIMIT) cache.set(accept, verdict);
  return verdict;
}

/**
 * Whether a `Content-Type` is JSON (`application/json`, any parameters).
 *
 * @example
 * ```ts
 * isJsonContentType('application/json; charset=utf-8'); // true
 * isJsonContentType('text/plain'); // false
 * ```
 */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  if (contentType === 'application/json') return true;
  const semicolon = contentType.indexOf(';');
  const essence = (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  return essence === 'application/json';
}
