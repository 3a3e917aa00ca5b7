/**
 * Header values mirrored from the body (Streamable HTTP 2026-07-28, "Value
 * Encoding"): a value that is not plain visible ASCII travels as
 * `=?base64?{Base64 of its UTF-8}?=`; servers decode before comparing with the
 * body. Header names are case-insensitive; Node gives them lowercased.
 */

/**
 * Request headers as a transport hands them over: Node's `IncomingMessage.headers`
 * shape (lower-case names), or a lookup by lower-case name.
 */
export type HeaderMap =
  | Readonly<Record<string, string | string[] | undefined>>
  | ((name: string) => string | undefined);

const PREFIX = '=?base64?';
const SUFFIX = '?=';
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * One header's value (the first, if it was repeated), with the optional
 * whitespace HTTP allows around it removed; undefined when absent.
 *
 * @example
 * ```ts
 * headerValue({ 'mcp-method': ' tools/call ' }, 'Mcp-Method'); // 'tools/call'
 * ```
 */
export function headerValue(headers: HeaderMap, name: string): string | undefined {
  const raw = typeof headers === 'function' ? headers(name.toLowerCase()) : headers[name.toLowerCase()];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value.length === 0) return value;
  // Most values carry no optional whitespace: skip the regex then (every modern request reads three).
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  if (first !== 32 && first !== 9 && last !== 32 && last !== 9) return value;
  return value.replace(/^[ \t]+|[ \t]+$/g, '');
}

/**
 * Decode a mirrored value: sentinel-wrapped Base64 → its UTF-8 text; a plain
 * value as is. Undefined when the sentinel wraps something that is not
 * canonical Base64 of valid UTF-8 (the spec says to reject such values), or
 * when a plain value has characters a header may not carry.
 *
 * @example
 * ```ts
 * decodeHeaderValue('=?base64?SGVsbG8sIOS4lueVjA==?='); // 'Hello, 世界'
 * decodeHeaderValue('us-west1'); // 'us-west1'
 * ```
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (value.startsWith(PREFIX) && value.endsWith(SUFFIX) && value.length >= PREFIX.length + SUFFIX.length) {
    const encoded = value.slice(PREFIX.length, value.length - SUFFIX.length);
    if (!CANONICAL_BASE64.test(encoded)) return undefined;
    try {
      return UTF8.decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)));
    } catch {
      return undefined;
    }
  }
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (!(c === 9 || (c >= 0x20 && c <= 0x7e))) return undefined;
  }
  return value;
}
