/**
 * Raw requests for the auth wire tests: a bearer header (remembered, so the
 * logs can be searched for every token sent), an initialize POST, a
 * 2026-07-28 tools/list or tools/call without a session, and the parameters
 * of a `WWW-Authenticate: Bearer` challenge.
 */
import { expect } from 'vitest';
import { INITIALIZE, POST_HEADERS } from './http-support.js';

const V = '2026-07-28';

/** Helpers bound to the server `target()` returns when they run. */
export function authWire(target: () => { url: string }) {
  /** Every token a test sent. */
  const sentTokens: string[] = [];

  function bearer(token: string): Record<string, string> {
    sentTokens.push(token);
    return { authorization: `Bearer ${token}` };
  }

  function initialize(headers: Record<string, string>, url = target().url): Promise<Response> {
    return fetch(url, { method: 'POST', headers: { ...POST_HEADERS, ...headers }, body: JSON.stringify(INITIALIZE) });
  }

  /** A 2026-07-28 request (no session): tools/list or tools/call. */
  function modern(
    method: 'tools/list' | 'tools/call',
    headers: Record<string, string>,
    name?: string,
  ): Promise<Response> {
    const params: Record<string, unknown> = {
      _meta: { 'io.modelcontextprotocol/protocolVersion': V, 'io.modelcontextprotocol/clientCapabilities': {} },
    };
    const extra: Record<string, string> = { 'mcp-protocol-version': V, 'mcp-method': method };
    if (name !== undefined) {
      params.name = name;
      params.arguments = {};
      extra['mcp-name'] = name;
    }
    return fetch(target().url, {
      method: 'POST',
      headers: { ...POST_HEADERS, ...extra, ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
  }

  return { sentTokens, bearer, initialize, modern, challenge };
}

/** The parameters of a Bearer challenge, parsed. */
export function challenge(response: Response): Record<string, string> {
  const header = response.headers.get('www-authenticate');
  expect(header, 'WWW-Authenticate').toMatch(/^Bearer /);
  return Object.fromEntries([...header!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}
