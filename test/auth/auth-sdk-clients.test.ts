/**
 * The official SDK clients against a protected candor server: the
 * SDK's own OAuth flow (client_credentials with client_secret_basic, its
 * discovery through the 401 challenge, RFC 9728 metadata and RFC 8414) against
 * the loopback test authorization server, in both protocol eras, and a static
 * bearer token through `requestInit` headers.
 */
import {
  Client as ClientV2,
  ClientCredentialsProvider as ProviderV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { ClientCredentialsProvider as ProviderV1 } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ALL_SCOPES, type ProtectedServer, startProtected } from '../support/protected-server.js';

let p: ProtectedServer;

beforeAll(async () => {
  p = await startProtected({
    clients: {
      reader: { secret: 'reader-secret', scopes: ['tools:read'] },
      admin: { secret: 'admin-secret', scopes: ALL_SCOPES },
    },
  });
});
afterAll(async () => {
  await p.close();
});

const names = (result: { tools: Array<{ name: string }> }) => result.tools.map((t) => t.name);

describe.each([
  ['2025 era', undefined],
  ['2026-07-28', { mode: { pin: '2026-07-28' } }],
] as const)('SDK v2 client with its ClientCredentialsProvider (%s)', (_era, versionNegotiation) => {
  async function connect(id: string, secret: string): Promise<ClientV2> {
    const client = new ClientV2(
      { name: 'oauth-v2', version: '1.0.0' },
      versionNegotiation === undefined ? {} : { versionNegotiation: versionNegotiation as never },
    );
    const authProvider = new ProviderV2({ clientId: id, clientSecret: secret, expectedIssuer: p.as.issuer });
    await client.connect(new TransportV2(new URL(p.url), { authProvider }));
    return client;
  }

  test('gets a token through the 401 challenge and sees only what its scopes allow', async () => {
    const issued = p.as.issued;
    const reader = await connect('reader', 'reader-secret');
    expect(p.as.issued).toBeGreaterThan(issued);
    if (versionNegotiation !== undefined) expect(reader.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(names(await reader.listTools())).toEqual(['read_note', 'whoami']);
    const read = await reader.callTool({ name: 'read_note', arguments: {} });
    expect(read.content).toEqual([{ type: 'text', text: 'a note' }]);
    const who = JSON.parse(
      ((await reader.callTool({ name: 'whoami', arguments: {} })).content[0] as { text: string }).text,
    );
    expect(who).toMatchObject({ subject: 'client:reader', clientId: 'reader', scopes: ['tools:read'] });
    // Step-up asks for tools:destructive; this client may not have it, so the call fails, never runs.
    const refused = await reader.callTool({ name: 'delete_note', arguments: {} }).then(
      () => 'ran',
      (error: Error) => error.message,
    );
    expect(refused).toMatch(/insufficient_scope|tools:destructive/);
    await reader.close();
  });

  test('a client granted every scope sees and calls every tool', async () => {
    const admin = await connect('admin', 'admin-secret');
    expect(names(await admin.listTools())).toEqual(['add_note', 'delete_note', 'read_note', 'whoami']);
    const deleted = await admin.callTool({ name: 'delete_note', arguments: {} });
    expect(deleted.content).toEqual([{ type: 'text', text: 'deleted' }]);
    await admin.close();
  });

  test('step-up: a 403 names the missing scope, the SDK re-authorizes for it, and the call goes through', async () => {
    // This server's 401 asks for tools:read only, so the first token lacks tools:destructive.
    const narrow = await startProtected({
      auth: () => ({ challengeScopes: ['tools:read'] }),
      clients: { admin: { secret: 'admin-secret', scopes: ALL_SCOPES } },
    });
    try {
      const client = new ClientV2(
        { name: 'step-up', version: '1.0.0' },
        versionNegotiation === undefined ? {} : { versionNegotiation: versionNegotiation as never },
      );
      const authProvider = new ProviderV2({
        clientId: 'admin',
        clientSecret: 'admin-secret',
        expectedIssuer: narrow.as.issuer,
      });
      await client.connect(new TransportV2(new URL(narrow.url), { authProvider }));
      expect(names(await client.listTools())).toEqual(['read_note', 'whoami']);
      expect(narrow.as.issued).toBe(1);
      const deleted = await client.callTool({ name: 'delete_note', arguments: {} });
      expect(deleted.content).toEqual([{ type: 'text', text: 'deleted' }]);
      expect(narrow.as.issued).toBe(2);
      await client.close();
    } finally {
      await narrow.close();
    }
  });

  test('wrong client credentials never get in', async () => {
    await expect(connect('reader', 'wrong')).rejects.toThrow();
  });
});

describe('SDK v1 client', () => {
  test('with a static bearer token in requestInit headers', async () => {
    const token = await p.as.mint({ scope: 'tools:read tools:write' });
    const client = new ClientV1({ name: 'static-v1', version: '1.0.0' });
    await client.connect(
      new TransportV1(new URL(p.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    expect(names(await client.listTools())).toEqual(['add_note', 'read_note', 'whoami']);
    expect((await client.callTool({ name: 'add_note', arguments: {} })).content).toEqual([
      { type: 'text', text: 'added' },
    ]);
    await expect(client.callTool({ name: 'delete_note', arguments: {} })).rejects.toThrow(
      /Forbidden: The tool delete_note needs the scope tools:destructive/,
    );
    await client.close();
  });

  test('without a token it cannot connect', async () => {
    const client = new ClientV1({ name: 'anonymous-v1', version: '1.0.0' });
    await expect(client.connect(new TransportV1(new URL(p.url)))).rejects.toThrow();
  });

  test('with its ClientCredentialsProvider', async () => {
    const client = new ClientV1({ name: 'oauth-v1', version: '1.0.0' });
    const authProvider = new ProviderV1({
      clientId: 'reader',
      clientSecret: 'reader-secret',
      expectedIssuer: p.as.issuer,
    });
    await client.connect(new TransportV1(new URL(p.url), { authProvider }));
    expect(names(await client.listTools())).toEqual(['read_note', 'whoami']);
    await client.close();
  });
});
