/**
 * Plausible JSON answers for a REST-style API the double knows nothing about: a collection
 * path answers an array of objects with ids and names, an item path one object, a create
 * the new object (with the fields it was sent), a delete what it deleted. Enough for a
 * tool to get past "the API answered" to the code that uses the answer; every answer is
 * the same for the same request, so repeated calls compare equal.
 */
import { lastSegment, type RequestMeaning } from '../request-evidence.js';
import { graphqlAnswer } from './https-graphql-answer.js';

/** An answer: status and JSON body (`undefined`: none). */
export interface Answer {
  status: number;
  body?: unknown;
}

const WHEN = '2026-01-01T00:00:00Z';

/** A collection path ends in a plural (`/issues`), not in an id or a word that only ends in s (`/status`). */
function isCollectionPath(path: string): boolean {
  const last = decodeSafe(lastSegment(path)).toLowerCase();
  return last.endsWith('s') && !/(ss|us|is)$/.test(last) && ![...last].some((c) => c >= '0' && c <= '9');
}

function decodeSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** An id as the path gave it: a number when it is digits. */
function idOf(segment: string): string | number {
  const text = decodeSafe(segment);
  return text.length > 0 && text.length < 16 && [...text].every((c) => c >= '0' && c <= '9') ? Number(text) : text;
}

function item(id: string | number, kind: string, host: string): Record<string, unknown> {
  return {
    id,
    name: `${kind} ${id}`,
    title: `${kind} ${id}`,
    description: `A ${kind} candor's API double made up.`,
    status: 'open',
    created_at: WHEN,
    updated_at: WHEN,
    url: `https://${host}/${kind}/${id}`,
  };
}

function kindOf(path: string): string {
  const last = decodeSafe(lastSegment(path)).toLowerCase();
  const word = [...last].every((c) => (c >= 'a' && c <= 'z') || c === '_' || c === '-') && last ? last : 'item';
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

/** The parent collection's kind for an item path (`/issues/42` → `issue`). */
function itemKind(path: string): string {
  const segments = path.split('/').filter((s) => s !== '');
  return segments.length > 1 ? kindOf(`/${segments.at(-2)}`) : 'item';
}

/** The top-level text, number and flag fields of a JSON object body: what a create echoes back. */
function scalars(json: unknown): Record<string, unknown> {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return {};
  return Object.fromEntries(Object.entries(json).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v)));
}

/**
 * The answer to one request. `json` is the parsed body, if it was JSON.
 *
 * @example
 * ```ts
 * jsonAnswer({ method: 'GET', host: 'api.example.com', path: '/v1/projects', meaning }); // { status: 200, body: [{ id: 1, … }, { id: 2, … }] }
 * ```
 */
export function jsonAnswer(request: {
  method: string;
  host: string;
  path: string;
  meaning: RequestMeaning;
  json?: unknown;
  graphql?: string;
}): Answer {
  const { method, host, path, meaning, json } = request;
  if (request.graphql !== undefined) {
    const operationName =
      json && typeof json === 'object' ? (json as Record<string, unknown>).operationName : undefined;
    return { status: 200, body: graphqlAnswer(request.graphql, operationName) };
  }
  if (method === 'HEAD' || method === 'OPTIONS') return { status: 204 };
  const segment = lastSegment(path);
  if (method === 'DELETE') return { status: 200, body: { id: idOf(segment), deleted: true } };
  if (method === 'GET' || meaning.read === true) {
    if (isCollectionPath(path) || method !== 'GET') {
      const kind = kindOf(path);
      return { status: 200, body: [item(1, kind, host), item(2, kind, host)] };
    }
    return { status: 200, body: item(idOf(segment) || 1, itemKind(path), host) };
  }
  if (method === 'POST' && isCollectionPath(path)) {
    return { status: 201, body: { ...item(3, kindOf(path), host), ...scalars(json), id: 3 } };
  }
  // PUT, PATCH, an action POST: the object as it now is.
  return { status: 200, body: { ...item(idOf(segment) || 1, itemKind(path), host), ...scalars(json) } };
}
