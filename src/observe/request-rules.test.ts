import { describe, expect, it } from 'vitest';
import type { WitnessChange } from './doubles/types.js';
import { judgeRequests } from './request-rules.js';

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
const closedRead = { ...readOnly, openWorldHint: false };
const writer = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

const request = (method: string, path: string, read: boolean | 'ambiguous', operation?: 'query' | 'mutation') =>
  ({
    kind: 'request',
    method,
    host: 'api.example-saas.test',
    path,
    read,
    ...(operation ? { operation } : {}),
  }) as WitnessChange;

describe('judgeRequests', () => {
  it('reports a read-only tool that sent a write, with the request as evidence', () => {
    const [finding] = judgeRequests('get_project', readOnly, [
      request('GET', '/v1/projects/1', true),
      request('PATCH', '/v1/projects/1', false),
    ]);
    expect(finding).toEqual({
      ruleId: 'observe/read-only-sent-write',
      severity: 'error',
      tool: 'get_project',
      message: 'get_project claims readOnlyHint: true, but it sent a request that writes.',
      evidence: ['sent PATCH https://api.example-saas.test/v1/projects/1 (a write)'],
    });
  });

  it('names the GraphQL operation in the evidence', () => {
    const [finding] = judgeRequests('list_items', readOnly, [request('POST', '/graphql', false, 'mutation')]);
    expect(finding?.evidence).toEqual(['sent POST https://api.example-saas.test/graphql (a GraphQL mutation)']);
  });

  it('reports ambiguous requests one level lower, and nothing for reads', () => {
    const [finding] = judgeRequests('find', readOnly, [request('POST', '/v1/search', 'ambiguous')]);
    expect(finding?.severity).toBe('warning');
    expect(judgeRequests('find', readOnly, [request('POST', '/v1/search', true), request('GET', '/x', true)])).toEqual(
      [],
    );
  });

  it('holds writes against read-only only: a writing tool that writes is consistent', () => {
    expect(judgeRequests('update', writer, [request('PATCH', '/v1/projects/1', false)])).toEqual([]);
  });

  it('reports a closed-world tool that reached a remote host, but not a loopback one', () => {
    const findings = judgeRequests('lookup', closedRead, [request('GET', '/v1/x', true)]);
    expect(findings.map((f) => f.ruleId)).toEqual(['observe/closed-world-requested']);
    const local = { ...(request('GET', '/x', true) as object), host: 'localhost' } as WitnessChange;
    expect(judgeRequests('lookup', closedRead, [local])).toEqual([]);
  });

  it('reports a read-only browser tool that submitted a form with POST, not one that searched with GET', () => {
    const submit: WitnessChange = { kind: 'page', action: 'submit', path: '/order', method: 'POST' };
    const search: WitnessChange = { kind: 'page', action: 'submit', path: '/search', method: 'GET' };
    expect(judgeRequests('fill', readOnly, [submit])[0]?.evidence).toEqual([
      "submitted a form: POST /order on candor's local page",
    ]);
    expect(judgeRequests('find', readOnly, [search])).toEqual([]);
  });
});
