/**
 * What the HTTPS API double keeps of a request: method, host, path and meaning, and
 * nothing that could be a credential. Headers are never read beyond Host and
 * Content-Type, the query string and the body are read to classify and answer and then
 * dropped, and a path segment that looks like a token (long, letters and digits mixed:
 * the bot token some APIs put in the path) is masked.
 */
import type { IncomingMessage } from 'node:http';
import { classifyRequest, type RequestMeaning } from '../request-evidence.js';
import { isHostName } from './https-certificates.js';
import type { WitnessChange } from './types.js';

/** Bytes of a body read for its meaning; the rest is drained unread. */
export const BODY_LIMIT = 1024 * 1024;
/** A recorded path longer than this is cut (with `…`). */
const PATH_LIMIT = 300;
/** A path segment at least this long with letters and digits mixed is masked as a possible secret. */
const SECRET_SEGMENT = 24;

/** A request read once: what is recorded, and what the answer needs (never recorded). */
export interface ReadRequest {
  change: Extract<WitnessChange, { kind: 'request' }>;
  meaning: RequestMeaning;
  /** The body parsed as JSON, when it was JSON (for the answer only). */
  json?: unknown;
  /** The GraphQL document the request carries (for the answer only). */
  graphql?: string;
}

/** The body as text, up to {@link BODY_LIMIT} bytes; the rest is read and thrown away. */
export function readBody(request: IncomingMessage): Promise<{ text: string; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    request.on('data', (chunk: Buffer) => {
      if (size >= BODY_LIMIT) {
        truncated = true;
        return;
      }
      const room = BODY_LIMIT - size;
      if (chunk.length > room) truncated = true;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(chunk.length, room);
    });
    request.once('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), truncated }));
    request.once('error', reject);
  });
}

/**
 * The API host the request was meant for, among the double's `hosts`: the TLS server name
 * (what the client resolved and connected for), else the Host header's name. Any other
 * name is recorded as `unknown-host`: whatever it claims, the request came in through a
 * route for one of the API's names, so it never counts as a local one.
 */
export function requestHost(request: IncomingMessage, hosts: readonly string[]): string {
  const servername = (request.socket as { servername?: unknown }).servername;
  const header = request.headers.host ?? '';
  const candidates = [typeof servername === 'string' ? servername : '', header.split(':')[0]!];
  for (const candidate of candidates) {
    const name = candidate.toLowerCase();
    if (isHostName(name) && hosts.includes(name)) return name;
  }
  return 'unknown-host';
}

function looksSecret(segment: string): boolean {
  if (segment.length < SECRET_SEGMENT) return false;
  let letters = false;
  let digits = false;
  for (const c of segment) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) letters = true;
    else if (c >= '0' && c <= '9') digits = true;
  }
  return letters && digits;
}

/**
 * The path as recorded: no query, no fragment, token-like segments masked, cut to a bounded length.
 *
 * @example
 * ```ts
 * recordedPath('/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage?chat_id=1'); // '/{masked}/sendMessage'
 * ```
 */
export function recordedPath(url: string): string {
  const end = [url.indexOf('?'), url.indexOf('#')].filter((i) => i >= 0);
  const path = end.length > 0 ? url.slice(0, Math.min(...end)) : url;
  const masked = path
    .split('/')
    .map((segment) => (looksSecret(segment) ? '{masked}' : segment))
    .join('/');
  const whole = masked.startsWith('/') ? masked : `/${masked}`;
  return whole.length > PATH_LIMIT ? `${whole.slice(0, PATH_LIMIT)}…` : whole;
}

/** The GraphQL document a request carries, if any (a body or JSON `query`, or a GET's `query` parameter). */
function graphqlDocument(request: IncomingMessage, body: string, json: unknown, query: string): string | undefined {
  if ((request.headers['content-type'] ?? '').toLowerCase().includes('application/graphql')) return body;
  if (json && typeof json === 'object' && !Array.isArray(json)) {
    const document = (json as Record<string, unknown>).query;
    if (typeof document === 'string') return document;
  }
  if (request.method === 'GET') return new URLSearchParams(query).get('query') ?? undefined;
  return undefined;
}

/**
 * Read and classify one request; only `change` is ever kept.
 *
 * @example
 * ```ts
 * const { change } = await readRequest(request, ['api.example.com']); // { kind: 'request', method: 'PATCH', host: 'api.example.com', path: '/v1/items/1', read: false }
 * ```
 */
export async function readRequest(request: IncomingMessage, hosts: readonly string[]): Promise<ReadRequest> {
  const { text, truncated } = await readBody(request);
  const url = request.url ?? '/';
  const queryAt = url.indexOf('?');
  const query = queryAt >= 0 ? url.slice(queryAt + 1) : '';
  const method = (request.method ?? 'GET').toUpperCase();
  const contentType = request.headers['content-type'];
  const meaning = classifyRequest({
    method,
    path: recordedPath(url),
    ...(contentType ? { contentType } : {}),
    body: text,
    bodyTruncated: truncated,
    query,
  });
  let json: unknown;
  try {
    json = text.trim() ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const graphql = meaning.operation !== undefined ? graphqlDocument(request, text, json, query) : undefined;
  return {
    change: {
      kind: 'request',
      method,
      host: requestHost(request, hosts),
      path: recordedPath(url),
      ...(meaning.operation ? { operation: meaning.operation } : {}),
      read: meaning.read,
    },
    meaning,
    ...(json !== undefined ? { json } : {}),
    ...(graphql !== undefined ? { graphql } : {}),
  };
}

/**
 * The change a request makes known by its head alone (method, host, path), for a request
 * whose body has not all arrived when the call answers: its body counts as unread, so a
 * POST that would need it to be a read is doubtful.
 *
 * @example
 * ```ts
 * headChange(request, ['api.example.com']); // { kind: 'request', method: 'POST', host: 'api.example.com', path: '/v1/search', read: 'ambiguous' }
 * ```
 */
export function headChange(request: IncomingMessage, hosts: readonly string[]): ReadRequest['change'] {
  const method = (request.method ?? 'GET').toUpperCase();
  const path = recordedPath(request.url ?? '/');
  const meaning = classifyRequest({ method, path, body: '', bodyTruncated: true });
  return { kind: 'request', method, host: requestHost(request, hosts), path, read: meaning.read };
}
