/**
 * Scopes derived from tool effects, over real sockets: what a token
 * may list and call in both protocol eras, the 403 insufficient_scope
 * challenge, sessions bound to their principal, what `ctx.auth` carries, and
 * that stdio/in-memory connections are not affected.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { authWire } from '../support/auth-wire.js';
import { POST_HEADERS } from '../support/http-support.js';
import { type ProtectedServer, startProtected } from '../support/protected-server.js';

let p: ProtectedServer;
let metadataUrl: string;
const { sentTokens, bearer, initialize, modern, challenge } = authWire(() => p);

beforeAll(async () => {
  p = await startProtected();
  metadataUrl = `${p.base}/.well-known/oauth-protected-resource/mcp`;
});
afterAll(async () => {
  await p.close();
});

describe('scopes derived from effects', () => {
  const names = async (response: Response) =>
    ((await response.json()).result.tools as Array<{ name: string }>).map((t) => t.name);

  test('2026-07-28: tools/list shows only the tools the token has the scope for, and is cacheScope private', async () => {
    const reader = await p.as.mint({ scope: 'tools:read' });
    const listed = await modern('tools/list', bearer(reader));
    expect(listed.status).toBe(200);
    const body = await listed.json();
    expect(body.result.tools.map((t: { name: string }) => t.name)).toEqual(['read_note', 'whoami']);
    expect(body.result.cacheScope).toBe('private');
    const writer = await p.as.mint({ scope: 'tools:read tools:write' });
    expect(await names(await modern('tools/list', bearer(writer)))).toEqual(['add_note', 'read_note', 'whoami']);
    const nothing = await p.as.mint({ scope: 'openid' });
    expect(await names(await modern('tools/list', bearer(nothing)))).toEqual([]);
  });

  test('a call without the scope: 403 insufficient_scope naming the scopes to ask for', async () => {
    const reader = await p.as.mint({ scope: 'tools:read' });
    const refused = await modern('tools/call', bearer(reader), 'delete_note');
    expect(refused.status).toBe(403);
    expect(challenge(refused)).toEqual({
      error: 'insufficient_scope',
      error_description: 'The tool delete_note needs the scope tools:destructive.',
      scope: 'tools:read tools:destructive',
      resource_metadata: metadataUrl,
    });
    const allowed = await modern('tools/call', bearer(reader), 'read_note');
    expect(allowed.status).toBe(200);
    expect((await allowed.json()).result.content[0].text).toBe('a note');
  });

  test('2025-11-25 session: the list is filtered and the call refused with 403 the same way', async () => {
    const token = await p.as.mint({ scope: 'tools:read tools:write' });
    const auth = bearer(token);
    const init = await initialize(auth);
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    const headers = { ...POST_HEADERS, ...auth, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    await (
      await fetch(p.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      })
    ).text();
    const send = (body: object) => fetch(p.url, { method: 'POST', headers, body: JSON.stringify(body) });
    expect(await names(await send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }))).toEqual([
      'add_note',
      'read_note',
      'whoami',
    ]);
    const refused = await send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'delete_note', arguments: {} },
    });
    expect(refused.status).toBe(403);
    expect(challenge(refused).scope).toBe('tools:read tools:write tools:destructive');
    const added = await send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'add_note', arguments: {} },
    });
    expect((await added.json()).result.content[0].text).toBe('added');
    // A batch is refused whole when any call in it needs a scope the token lacks: nothing of it runs.
    const batch = await fetch(p.url, {
      method: 'POST',
      headers,
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'read_note', arguments: {} } },
        { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'delete_note', arguments: {} } },
      ]),
    });
    expect(batch.status).toBe(403);
    expect(challenge(batch).error).toBe('insufficient_scope');
  });

  test('a session is bound to the principal that opened it', async () => {
    const alice = bearer(await p.as.mint({ sub: 'alice', scope: 'tools:read' }));
    const init = await initialize(alice);
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    const list = (auth: Record<string, string>) =>
      fetch(p.url, {
        method: 'POST',
        headers: { ...POST_HEADERS, ...auth, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
    const bob = bearer(await p.as.mint({ sub: 'bob', scope: 'tools:read' }));
    expect((await list(bob)).status).toBe(404);
    // Alice with a fresh token (same subject) keeps her session.
    const again = bearer(await p.as.mint({ sub: 'alice', scope: 'tools:read', jti: 'second' }));
    expect((await list(again)).status).toBe(200);
  });

  test('ctx.auth carries subject, client id, scopes, expiry and claims, never the token', async () => {
    const token = await p.as.mint({ scope: 'tools:read', sub: 'alice', client_id: 'notes-app' });
    const response = await modern('tools/call', bearer(token), 'whoami');
    const text = (await response.json()).result.content[0].text as string;
    expect(text).not.toContain(token);
    const auth = JSON.parse(text);
    expect(auth).toMatchObject({ subject: 'alice', clientId: 'notes-app', scopes: ['tools:read'] });
    expect(auth.expiresAt).toBeGreaterThan(Date.now() / 1000);
    expect(auth.claims).toMatchObject({ iss: p.as.issuer, aud: p.resource, sub: 'alice' });
    expect(auth.token).toBeUndefined();
    // whoami tried to add tools:destructive to ctx.auth.scopes; the principal is frozen.
    expect((await modern('tools/call', bearer(token), 'delete_note')).status).toBe(403);
  });

  test('stdio and in-memory connections are not affected: every tool, no ctx.auth', async () => {
    const { Client } = await import('@modelcontextprotocol/client');
    const client = new Client({ name: 'local', version: '1.0.0' });
    await client.connect(p.server.connectMemory() as never);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'add_note',
      'delete_note',
      'read_note',
      'whoami',
    ]);
    const who = await client.callTool({ name: 'whoami', arguments: {} });
    expect((who.content as Array<{ text: string }>)[0]!.text).toBe('null');
    await client.close();
  });
});

describe('secrets', () => {
  test('no token this file sent appears in any server log line', () => {
    expect(sentTokens.length).toBeGreaterThan(3);
    const joined = p.logs.join('\n');
    for (const token of sentTokens) expect(joined.includes(token)).toBe(false);
  });
});
