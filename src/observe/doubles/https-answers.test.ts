import { describe, expect, it } from 'vitest';
import { classifyRequest } from '../request-evidence.js';
import { jsonAnswer } from './https-answers.js';
import { graphqlAnswer } from './https-graphql-answer.js';
import { recordedPath } from './https-recorder.js';

const answer = (method: string, path: string, json?: unknown) =>
  jsonAnswer({ method, host: 'api.example.com', path, meaning: classifyRequest({ method, path }), json });

describe('the HTTPS API double’s answers', () => {
  it('answers a collection with an array of objects with ids and names, an item with one object', () => {
    const list = answer('GET', '/v1/tickets');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject([
      { id: 1, name: 'ticket 1' },
      { id: 2, name: 'ticket 2' },
    ]);
    expect(answer('GET', '/v1/tickets/42').body).toMatchObject({ id: 42, name: 'ticket 42' });
    expect(answer('GET', '/v1/status').body).not.toBeInstanceOf(Array);
  });

  it('answers a create with the new object and the fields it was sent, a delete with what it deleted', () => {
    expect(answer('POST', '/v1/issues', { title: 'Bug', labels: ['x'] })).toMatchObject({
      status: 201,
      body: { id: 3, title: 'Bug' },
    });
    expect(answer('DELETE', '/v1/issues/7').body).toEqual({ id: 7, deleted: true });
  });

  it('shapes GraphQL answers from the selection set, aliases and fragments included', () => {
    const document = `query Repo { repository(name: "x") { ...Parts mine: owner { login } } }
      fragment Parts on Repository { name isPrivate stargazerCount issues(first: 2) { totalCount nodes { number title url } } }`;
    expect(graphqlAnswer(document)).toEqual({
      data: {
        repository: {
          name: 'name 1',
          isPrivate: false,
          stargazerCount: 1,
          issues: {
            totalCount: 1,
            nodes: [
              { number: 1, title: 'title 1', url: 'https://example.com/node/1' },
              { number: 2, title: 'title 2', url: 'https://example.com/node/2' },
            ],
          },
          mine: { login: 'login 1' },
        },
      },
    });
    expect(graphqlAnswer('{ broken')).toMatchObject({ errors: [{ message: expect.stringContaining('Syntax Error') }] });
  });

  it('bounds a GraphQL answer however deep the query or however a fragment spreads itself', () => {
    const deep = `{ ${'a { '.repeat(200)}b${' }'.repeat(200)} }`;
    const answered = JSON.stringify(graphqlAnswer(deep));
    expect(answered.length).toBeLessThan(2_000);
    expect(graphqlAnswer('{ ...F } fragment F on Query { a ...F }')).toEqual({ data: { a: 'a 1' } });
  });
});

describe('recordedPath', () => {
  it('drops the query and fragment and masks token-like segments', () => {
    expect(recordedPath('/v1/items?token=secret#x')).toBe('/v1/items');
    expect(recordedPath('/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage?chat_id=1')).toBe(
      '/{masked}/sendMessage',
    );
    expect(recordedPath('/v1/projects/42/issues')).toBe('/v1/projects/42/issues');
    expect(recordedPath(`/${'a'.repeat(1000)}`).length).toBeLessThanOrEqual(301);
  });
});
