/**
 * Opaque pagination cursors. Clients must treat them as opaque (spec,
 * "Pagination"); candor encodes a small JSON payload in base64url and answers an
 * invalid cursor with -32602.
 */
import { CandorError, ProtocolError } from '../errors.js';

const INVALID_PARAMS = -32602;

export function encodeCursor(payload: Record<string, string | number>): string {
  return base64url(JSON.stringify(payload));
}

export function decodeCursor<T extends Record<string, unknown>>(cursor: unknown, check: (value: any) => boolean): T {
  if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > 1024) throw invalidCursor();
  let value: unknown;
  try {
    value = JSON.parse(fromBase64url(cursor));
  } catch {
    throw invalidCursor();
  }
  if (typeof value !== 'object' || value === null || !check(value)) throw invalidCursor();
  return value as T;
}

function invalidCursor(): ProtocolError {
  return new ProtocolError(
    INVALID_PARAMS,
    'Invalid cursor: pass the nextCursor of a previous page unchanged, or omit it to start from the first page.',
  );
}

function base64url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) throw new CandorError('not base64url', { code: 'invalid_cursor' });
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

/**
 * One page of a name-ordered tool list (keyset pagination: the cursor names the
 * last tool sent, so a page survives tools added or removed in between). For
 * views that filter the registry's list (auth scopes, a session's found tools).
 *
 * @example
 * ```ts
 * pageOfNamed(listed, { limit: 50 }); // { tools: [...first 50], nextCursor: '…' }
 * ```
 */
export function pageOfNamed<T extends { name: string }>(
  listed: readonly T[],
  options: { cursor?: string; limit?: number },
): { tools: readonly T[]; nextCursor?: string } {
  let start = 0;
  if (options.cursor !== undefined) {
    const { after } = decodeCursor<{ after: string }>(options.cursor, (v) => typeof v.after === 'string');
    start = listed.findIndex((tool) => tool.name > after);
    if (start < 0) start = listed.length;
  }
  const limit = options.limit === undefined ? listed.length : Math.max(1, Math.floor(options.limit));
  const end = Math.min(listed.length, start + limit);
  const page: { tools: readonly T[]; nextCursor?: string } = { tools: listed.slice(start, end) };
  if (end < listed.length) page.nextCursor = encodeCursor({ after: listed[end - 1]!.name });
  return page;
}
