/**
 * Policy on identity, over the wire: a gateway verifying its callers' tokens (signed by
 * the loopback authorization server) with the Cedar rules of docs/cedar/finance.cedar
 * and a profile for the finance group, in front of two upstreams (billing and wiki).
 * People with different groups and departments in their tokens see different
 * upstreams; a call outside what the rules allow is refused even when the name is
 * guessed; the finance profile lists nothing to anyone outside the group.
 */
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createGateway, type Gateway } from '../../src/gateway/index.js';
import { silentLogger } from '../../src/util/logger.js';
import { REPO } from '../support/cli-harness.js';
import { startAuthorizationServer, type TestAuthorizationServer } from '../support/test-authorization-server.js';

const RESOURCE = 'http://gateway.test/mcp';
const fixture = path.join(REPO, 'test/fixtures/gateway/upstream.mjs');
let as: TestAuthorizationServer;
let gateway: Gateway;
let listener: { url: string; close(): Promise<void> };
const clients: Client[] = [];

beforeAll(async () => {
  as = await startAuthorizationServer({ resource: RESOURCE });
  const upstream = { command: process.execPath, args: [fixture], stderr: 'ignore' as const };
  gateway = await createGateway({
    servers: { billing: upstream, wiki: upstream },
    rules: path.join(REPO, 'docs/cedar/finance.cedar'),
    profiles: { finance: { servers: ['billing'], groups: ['finance'] } },
    auth: { issuer: as.issuer, resource: RESOURCE },
    policy: 'yolo',
    logger: silentLogger,
  });
  listener = await gateway.listen({ port: 0, handleSignals: false });
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  await gateway?.close();
  await listener?.close();
  await as?.close();
});

const ALL = 'tools:read tools:write tools:destructive';

async function connect(claims: Record<string, unknown>, endpoint = listener.url): Promise<Client> {
  const token = await as.mint({ scope: ALL, ...claims });
  const client = new Client({ name: 'person', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(endpoint), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return client;
}

const names = async (client: Client) => (await client.listTools()).tools.map((t) => t.name).sort();
const servers = (list: string[]) => [...new Set(list.map((n) => n.split('__')[0]))].sort();

test('people with different groups and departments in their tokens see different upstreams', async () => {
  const alice = await connect({ sub: 'alice', groups: ['finance'] });
  const bob = await connect({ sub: 'bob', groups: ['engineering'] });
  const carol = await connect({ sub: 'carol', department: 'Accounting' });
  const aliceSees = await names(alice);
  const bobSees = await names(bob);
  const carolSees = await names(carol);
  expect(servers(aliceSees)).toEqual(['billing', 'wiki']);
  expect(servers(bobSees)).toEqual(['wiki']);
  // Accounting reads billing, and only reads.
  const carolBilling = carolSees.filter((n) => n.startsWith('billing__'));
  expect(carolBilling).toContain('billing__read_notes');
  expect(carolBilling).not.toContain('billing__delete_notes');
  expect(aliceSees.filter((n) => n.startsWith('billing__')).length).toBeGreaterThan(carolBilling.length);
});

test('a billing call by someone outside finance is refused even when the name is guessed', async () => {
  const bob = await connect({ sub: 'bob', groups: ['engineering'] });
  // Not in bob's list, so it is an unknown tool to him (a protocol error naming the rules).
  await expect(bob.callTool({ name: 'billing__read_notes', arguments: {} })).rejects.toThrow(
    'Tool billing__read_notes is not permitted to User::"bob" by the gateway\'s rules.',
  );
  const alice = await connect({ sub: 'alice', groups: ['finance'] });
  const allowed = await alice.callTool({ name: 'billing__read_notes', arguments: {} });
  expect(allowed.isError, JSON.stringify(allowed.content)).toBeFalsy();
});

test('the finance profile lists its tools to the finance group and nothing to anyone else, whose calls are refused', async () => {
  const alice = await connect({ sub: 'alice', groups: ['finance'] }, `${listener.url}/finance`);
  expect(servers(await names(alice))).toEqual(['billing']);
  const bob = await connect({ sub: 'bob', groups: ['engineering'] }, `${listener.url}/finance`);
  expect(await names(bob)).toEqual([]);
  await expect(bob.callTool({ name: 'billing__read_notes', arguments: {} })).rejects.toThrow(
    "The profile finance is for the groups finance only (from your token's claims).",
  );
});
