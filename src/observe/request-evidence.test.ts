import { describe, expect, it } from 'vitest';
import { classifyRequest, graphqlOperation, wordsOf } from './request-evidence.js';

const post = (path: string, body?: unknown, contentType = 'application/json') =>
  classifyRequest({
    method: 'POST',
    path,
    contentType,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });

describe('classifyRequest', () => {
  it('reads safe methods as reads and PUT, PATCH, DELETE as writes', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'TRACE', 'get']) {
      expect(classifyRequest({ method, path: '/v1/items' }).read).toBe(true);
    }
    for (const method of ['PUT', 'PATCH', 'DELETE', 'MKCOL']) {
      expect(classifyRequest({ method, path: '/v1/items/1' }).read).toBe(false);
    }
    expect(classifyRequest({ method: 'FROBNICATE', path: '/x' }).read).toBe('ambiguous');
  });

  it('parses GraphQL bodies: queries read, mutations write, the named operation decides', () => {
    expect(post('/graphql', { query: '{ viewer { login } }' })).toMatchObject({ read: true, operation: 'query' });
    expect(post('/graphql', { query: 'mutation Star { addStar(input: {}) { clientMutationId } }' })).toMatchObject({
      read: false,
      operation: 'mutation',
    });
    const two = 'query Q { a } mutation M { b }';
    expect(post('/api', { query: two, operationName: 'Q' })).toMatchObject({ read: true, operation: 'query' });
    expect(post('/api', { query: two, operationName: 'M' })).toMatchObject({ read: false, operation: 'mutation' });
    expect(post('/api', { query: two })).toMatchObject({ read: false, operation: 'mutation' });
    expect(post('/graphql', 'mutation { x }', 'application/graphql')).toMatchObject({ operation: 'mutation' });
    expect(post('/graphql', [{ query: '{ a }' }, { query: 'mutation { b }' }])).toMatchObject({ read: false });
  });

  it('does not take a word "mutation" in a query string for a mutation (the document is parsed)', () => {
    expect(post('/graphql', { query: '{ search(text: "mutation { deleteAll }") { id } }' })).toMatchObject({
      read: true,
      operation: 'query',
    });
  });

  it('places a search whose "query" is plain text by its path, not as GraphQL', () => {
    expect(post('/1/indexes/products/query', { query: 'blue shoes' })).toMatchObject({ read: true });
    expect(post('/v1/notes', { query: 'blue shoes' })).toMatchObject({ read: false });
  });

  it('reports persisted GraphQL queries and unreadable GraphQL posts as ambiguous', () => {
    expect(post('/graphql', { extensions: { persistedQuery: { sha256Hash: 'abc' } } }).read).toBe('ambiguous');
    expect(post('/graphql', { query: '{ unclosed' }).read).toBe('ambiguous');
  });

  it('reads search, query and list shaped POSTs as reads when their body names no change', () => {
    expect(post('/rest/api/3/search', { jql: 'project = X' }).read).toBe(true);
    expect(post('/index/_search', { query: { match: { title: 'x' } } }).read).toBe(true);
    expect(post('/api/conversations.list', { limit: 10 }).read).toBe(true);
    expect(post('/v1/documents:batchGet', {}).read).toBe(true);
    expect(post('/api/v1/query').read).toBe(true);
  });

  it('keeps writes by POST writes, and doubts a search whose body or path names a change', () => {
    expect(post('/api/chat.postMessage', { text: 'search for me' }).read).toBe(false);
    expect(post('/index/_delete_by_query', { query: {} }).read).toBe(false);
    expect(post('/repos/o/r/issues', { title: 'x' }).read).toBe(false);
    expect(post('/v1/search', { query: {}, update: { $set: { a: 1 } } }).read).toBe('ambiguous');
    expect(post('/db/aggregate/query', { pipeline: [{ $out: 'copy' }] }).read).toBe('ambiguous');
    expect(post('/v1/getOrCreate', {}).read).toBe('ambiguous');
    expect(classifyRequest({ method: 'POST', path: '/v1/search', body: '{', bodyTruncated: true }).read).toBe(
      'ambiguous',
    );
  });

  it('doubts a POST that asks a model (a conversation in its body), unless its path names a change', () => {
    const turns = [{ role: 'user', content: 'What is MCP?' }];
    expect(post('/v1/agent', { preset: 'pro', input: turns.map((t) => ({ type: 'message', ...t })) })).toEqual({
      read: 'ambiguous',
      reason: 'a POST that asks a model (a conversation)',
    });
    expect(post('/chat/completions', { model: 'm', messages: turns }).read).toBe('ambiguous');
    expect(post('/v1/create-thread', { messages: turns }).read).toBe(false);
    // A list that is not all turns is no conversation.
    expect(post('/v1/agent', { input: [{ role: 'user', content: 'x' }, 'raw'] }).read).toBe(false);
  });

  it('records the operation of a GraphQL GET and keeps it a read', () => {
    expect(classifyRequest({ method: 'GET', path: '/graphql', query: 'query=%7B%20a%20%7D' })).toMatchObject({
      read: true,
      operation: 'query',
    });
  });

  it('stays linear on pathological inputs', () => {
    const deep = `${'{ a '.repeat(100_000)}${'}'.repeat(100_000)}`;
    expect(graphqlOperation(deep)).toBeUndefined();
    expect(post('/graphql', { query: deep }).read).toBe('ambiguous');
    const wide = JSON.stringify(Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i])));
    expect(post('/v1/search', wide).read).toBe('ambiguous');
    const nested = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    expect(post('/v1/search', nested).read).toBe(true);
    // 'a', then 'aa' at every case change, then the last 'a'.
    expect(wordsOf('aA'.repeat(200_000)).length).toBe(200_001);
  });
});

describe('wordsOf', () => {
  it('splits at separators and case changes', () => {
    expect(wordsOf('chat.postMessage')).toEqual(['chat', 'post', 'message']);
    expect(wordsOf('_delete_by_query')).toEqual(['delete', 'by', 'query']);
    expect(wordsOf('documents:batchGet')).toEqual(['documents', 'batch', 'get']);
  });
});
