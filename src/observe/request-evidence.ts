/**
 * What an HTTP request means, read from its method, path and body: a read, a write, or
 * a POST whose shape candor cannot place. Pure: the HTTPS API double hands each request
 * here and keeps only the answer (never the body). Semantic, not literal: GraphQL is
 * parsed with the `graphql` package, and a path is read as words, so `chat.postMessage`
 * and `_delete_by_query` are writes while `customers/search` and `users.info` are reads.
 * Every step is linear in the request's size (no backtracking patterns, a token cap on
 * the GraphQL parser, a key cap on the JSON walk).
 */
import { Kind, type OperationDefinitionNode, parse } from 'graphql';

/** One request, as the double saw it. The body and query are read here, never kept. */
export interface RequestShape {
  method: string;
  /** The path without the query string. */
  path: string;
  contentType?: string;
  /** The body as text (cut by the reader; see `bodyTruncated`). */
  body?: string;
  /** True when the reader stopped before the body's end: its shape cannot be trusted. */
  bodyTruncated?: boolean;
  /** The raw query string (without `?`): a GraphQL GET carries its document there. */
  query?: string;
}

/** What a request means. */
export interface RequestMeaning {
  /** `true` a read, `false` a write, `'ambiguous'` a POST whose shape is not placed. */
  read: boolean | 'ambiguous';
  operation?: 'query' | 'mutation' | 'subscription';
  /** Why, in a few words (for evidence lines; never quotes the request). */
  reason: string;
}

/**
 * Safe methods: RFC 9110 §9.2.1 (GET, HEAD, OPTIONS, TRACE), WebDAV's PROPFIND (RFC 4918
 * §9.1), REPORT (RFC 3253 §3.6) and SEARCH (RFC 5323), and the safe QUERY method.
 */
const SAFE = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'REPORT', 'SEARCH', 'QUERY']);
/** Methods that change the resource: RFC 9110 §9.3 and WebDAV's (RFC 4918 §9). */
const WRITES = new Set(['PUT', 'PATCH', 'DELETE', 'MKCOL', 'COPY', 'MOVE', 'PROPPATCH', 'LOCK', 'UNLOCK']);

/** Words naming a read in an RPC-style path segment (`search`, `users.info`, `documents:batchGet`). */
const READ_WORDS = new Set([
  'search',
  'query',
  'list',
  'get',
  'find',
  'lookup',
  'count',
  'fetch',
  'read',
  'describe',
  'info',
  'history',
  'explain',
  'msearch',
  'mget',
  'retrieve',
  'suggest',
  'autocomplete',
  'scroll',
  'stats',
]);

/** Words naming a change (a path segment's first word decides; anywhere else they make a read doubtful). */
const WRITE_WORDS = new Set([
  'create',
  'update',
  'delete',
  'remove',
  'insert',
  'upsert',
  'set',
  'put',
  'patch',
  'post',
  'write',
  'add',
  'send',
  'save',
  'modify',
  'edit',
  'destroy',
  'drop',
  'archive',
  'merge',
  'move',
  'rename',
  'replace',
  'reset',
  'revoke',
  'publish',
  'cancel',
  'close',
  'submit',
  'upload',
  'import',
  'purge',
  'truncate',
  'clear',
  'bulk',
  'invite',
  'assign',
  'approve',
  'reject',
  'trigger',
  'execute',
  'exec',
  'enable',
  'disable',
  'lock',
  'unlock',
]);
/** Body keys that turn a search into something else (`$out`, `$merge` in a pipeline). */
const WRITE_KEYS = new Set([...WRITE_WORDS, 'out']);

/** Tokens the GraphQL parser may read (a document is small; this bounds a hostile one). */
const MAX_GRAPHQL_TOKENS = 20_000;
/** Keys a JSON body walk looks at before calling the body doubtful. */
const MAX_KEYS = 10_000;

/**
 * The words of one name: split at every character that is not a letter or digit and at
 * lower-to-upper case changes, lower-cased. One pass.
 *
 * @example
 * ```ts
 * wordsOf('_delete_by_query'); // ['delete', 'by', 'query']
 * wordsOf('chat.postMessage'); // ['chat', 'post', 'message']
 * ```
 */
export function wordsOf(name: string): string[] {
  const words: string[] = [];
  let current = '';
  let lowerBefore = false;
  for (const char of name) {
    const lower = char >= 'a' && char <= 'z';
    const upper = char >= 'A' && char <= 'Z';
    const digit = char >= '0' && char <= '9';
    if (!lower && !upper && !digit) {
      if (current) words.push(current);
      current = '';
      lowerBefore = false;
      continue;
    }
    if (upper && lowerBefore && current) {
      words.push(current);
      current = '';
    }
    current += char.toLowerCase();
    lowerBefore = lower || digit;
  }
  if (current) words.push(current);
  return words;
}

/**
 * The last non-empty path segment.
 *
 * @example
 * ```ts
 * lastSegment('/v1/search/'); // 'search'
 * ```
 */
export function lastSegment(path: string): string {
  const segments = path.split('/').filter((s) => s !== '');
  return segments.at(-1) ?? '';
}

/** The worst of a document's operations: a mutation over a subscription over a query. */
const RANK = { query: 0, subscription: 1, mutation: 2 } as const;

/**
 * The operation a GraphQL request runs: the one `operationName` names, the only one, or
 * (several and none named) the one that changes most. `undefined` when `document` is not
 * GraphQL with at least one operation.
 *
 * @example
 * ```ts
 * graphqlOperation('mutation { addStar(id: 1) { id } }'); // 'mutation'
 * graphqlOperation('{ viewer { login } }'); // 'query'
 * ```
 */
export function graphqlOperation(
  document: string,
  operationName?: unknown,
): 'query' | 'mutation' | 'subscription' | undefined {
  let operations: OperationDefinitionNode[];
  try {
    const parsed = parse(document, { noLocation: true, maxTokens: MAX_GRAPHQL_TOKENS });
    operations = parsed.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  } catch {
    // Not GraphQL, over the token cap, or nested past the stack: not a document candor can read.
    return undefined;
  }
  if (operations.length === 0) return undefined;
  const named = typeof operationName === 'string' ? operations.find((o) => o.name?.value === operationName) : undefined;
  const chosen = named ? [named] : operations;
  return chosen.map((o) => o.operation).reduce((a, b) => (RANK[b] > RANK[a] ? b : a));
}

/** A GraphQL body's operation, or `undefined` when the body is not GraphQL; `'unknown'` for a persisted query. */
function graphqlBody(request: RequestShape, json: unknown): RequestMeaning['operation'] | 'unknown' | undefined {
  if (request.contentType?.toLowerCase().includes('application/graphql')) {
    return graphqlOperation(request.body ?? '') ?? 'unknown';
  }
  const one = (entry: unknown): RequestMeaning['operation'] | 'unknown' | undefined => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return undefined;
    const record = entry as Record<string, unknown>;
    if (typeof record.query === 'string') return graphqlOperation(record.query, record.operationName);
    const extensions = record.extensions as Record<string, unknown> | undefined;
    // Automatic persisted queries send a hash instead of the document: the operation is unknown.
    if (extensions && typeof extensions === 'object' && 'persistedQuery' in extensions) return 'unknown';
    return undefined;
  };
  if (!Array.isArray(json)) return one(json);
  // A batch: the worst of its operations. An array with no GraphQL in it is no batch; one
  // whose entries cannot all be read makes the whole batch unknown.
  const operations = json.map(one);
  if (operations.every((o) => o === undefined)) return undefined;
  let worst: RequestMeaning['operation'] | undefined;
  for (const operation of operations) {
    if (operation === undefined || operation === 'unknown') return 'unknown';
    if (worst === undefined || RANK[operation] > RANK[worst]) worst = operation;
  }
  return worst;
}

/** Whether any key of a JSON value (walked breadth-first, at most MAX_KEYS) names a change. */
function keysNameAChange(json: unknown): boolean {
  const queue: unknown[] = [json];
  let seen = 0;
  for (let i = 0; i < queue.length; i++) {
    const value = queue[i];
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      queue.push(...value);
      continue;
    }
    for (const [key, child] of Object.entries(value)) {
      if (++seen > MAX_KEYS) return true; // too large to judge: doubtful, not a read
      if (wordsOf(key).some((word) => WRITE_KEYS.has(word))) return true;
      queue.push(child);
    }
  }
  return false;
}

/** Whether a JSON body holds a conversation for a model: `messages` or `input` as a list of turns with a role and content. */
function carriesConversation(json: unknown): boolean {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return false;
  return ['messages', 'input'].some((key) => {
    const turns = (json as Record<string, unknown>)[key];
    return (
      Array.isArray(turns) &&
      turns.length > 0 &&
      turns.every(
        (t) =>
          t !== null && typeof t === 'object' && typeof (t as { role?: unknown }).role === 'string' && 'content' in t,
      )
    );
  });
}

function parseJson(request: RequestShape): unknown {
  const body = request.body?.trim();
  if (!body || (body[0] !== '{' && body[0] !== '[')) return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

const GRAPHQL_MEANING = {
  query: { read: true, operation: 'query', reason: 'a GraphQL query' },
  subscription: { read: true, operation: 'subscription', reason: 'a GraphQL subscription' },
  mutation: { read: false, operation: 'mutation', reason: 'a GraphQL mutation' },
} as const satisfies Record<string, RequestMeaning>;

/**
 * Read, write or ambiguous, with the GraphQL operation when there is one.
 *
 * @example
 * ```ts
 * classifyRequest({ method: 'PATCH', path: '/v1/items/1' }); // { read: false, reason: 'a PATCH' }
 * classifyRequest({ method: 'POST', path: '/v1/customers/search', body: '{"q":"x"}' }); // { read: true, … }
 * ```
 */
export function classifyRequest(request: RequestShape): RequestMeaning {
  const method = request.method.toUpperCase();
  if (SAFE.has(method)) {
    // A GET's GraphQL operation is recorded; GraphQL over HTTP refuses mutations over GET, so it stays a read.
    const document = method === 'GET' ? new URLSearchParams(request.query ?? '').get('query') : null;
    const operation = document ? graphqlOperation(document) : undefined;
    return { read: true, ...(operation ? { operation } : {}), reason: `a ${method}` };
  }
  if (WRITES.has(method)) return { read: false, reason: `a ${method}` };
  if (method !== 'POST') return { read: 'ambiguous', reason: `a ${method}, a method candor does not place` };
  const json = parseJson(request);
  const graphql = graphqlBody(request, json);
  if (graphql === 'unknown') return { read: 'ambiguous', reason: 'a GraphQL request whose operation is not readable' };
  if (graphql) return GRAPHQL_MEANING[graphql];
  const segment = lastSegment(request.path);
  const words = wordsOf(segment);
  if (segment.toLowerCase() === 'graphql') {
    return { read: 'ambiguous', reason: 'a POST to a GraphQL endpoint without a readable document' };
  }
  if (words.length > 0 && WRITE_WORDS.has(words[0]!)) return { read: false, reason: 'a POST that names a change' };
  // A model API's request (a chat's messages, a responses API's input) asks for an answer: likely nothing is
  // created, but some such APIs keep the conversation, so it is doubtful rather than a read.
  if (carriesConversation(json)) return { read: 'ambiguous', reason: 'a POST that asks a model (a conversation)' };
  const reads = words.some((w) => READ_WORDS.has(w));
  if (!reads) return { read: false, reason: 'a POST' };
  if (words.some((w) => WRITE_WORDS.has(w))) {
    return { read: 'ambiguous', reason: 'a POST whose path names both a read and a change' };
  }
  if (request.bodyTruncated) return { read: 'ambiguous', reason: 'a search-shaped POST with a body too large to read' };
  if (json !== undefined && keysNameAChange(json)) {
    return { read: 'ambiguous', reason: 'a search-shaped POST whose body names a change' };
  }
  return { read: true, reason: 'a search-shaped POST' };
}
