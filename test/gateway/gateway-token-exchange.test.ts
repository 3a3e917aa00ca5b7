/**
 * `"auth": { "tokenExchange": … }` upstreams, over the wire: a gateway that verifies
 * its callers' tokens (issued by the organisation's IdP, oidc-provider with the RFC 8693
 * grant registered) calls a candor upstream (a resource server trusting the same IdP)
 * with a token obtained by exchanging each person's token at the IdP. Checked: the
 * upstream sees the person (never the gateway token they sent), with the audience,
 * resource and scopes configured; tokens are kept per person and exchanged again before
 * they expire; delegation names the gateway as actor; the IdP's refusals (a subject
 * token it will not exchange, an audience it does not allow, a person outside the
 * allowed groups) and its absence reach the person as tool errors naming the upstream
 * and the reason; audit records name the person, the audience and the token's source,
 * and never hold a token.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AuditEntry } from '../../src/gateway/audit-log.js';
import { createGateway, type Gateway } from '../../src/gateway/index.js';
import { createServer } from '../../src/server/create-server.js';
import { defineTool } from '../../src/tool/define.js';
import { silentLogger } from '../../src/util/logger.js';
import { type ExchangeIdp, startExchangeIdp } from '../support/exchange-idp.js';

const GATEWAY = 'http://gateway.test/mcp';
const ELSEWHERE = 'http://elsewhere.test/mcp';
let idp: ExchangeIdp;
let upstream: Server;
let upstreamUrl: string;
let gateway: Gateway;
let gatewayUrl: string;
let listener: { url: string; close(): Promise<void> };
const audit: AuditEntry[] = [];
/** Bearer tokens that reached the upstream. */
const bearers: string[] = [];
const closers: Array<() => Promise<unknown>> = [];
const spans = new InMemorySpanExporter();

beforeAll(async () => {
  // An application's OpenTelemetry SDK, registered before the gateway starts (so its calls are traced).
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
  upstream = createHttpServer();
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
  // An IdP that is down: a port that was free a moment ago and is closed now.
  const gone = createHttpServer();
  await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
  const goneEndpoint = `http://127.0.0.1:${(gone.address() as AddressInfo).port}/token`;
  await new Promise<void>((resolve) => gone.close(() => resolve()));

  idp = await startExchangeIdp({
    subjectAudience: GATEWAY,
    clients: { gateway: 'gateway-secret' },
    targets: [
      // tools:read is what the candor upstream asks of a read-only tool.
      { audience: 'billing-api', resource: upstreamUrl, scopes: ['tools:read', 'billing:read', 'billing:write'] },
      { audience: 'ledger-api', resource: upstreamUrl, scopes: ['tools:read', 'ledger:read'], ttl: 10 },
      { audience: 'payroll-api', resource: upstreamUrl, scopes: ['tools:read'], groups: ['finance'] },
    ],
  });
  const server = createServer({
    name: 'finance-upstream',
    version: '1',
    logger: silentLogger,
    lintOnStart: false,
    auth: { issuer: idp.issuer, resource: upstreamUrl },
    tools: [
      defineTool({
        name: 'whoami',
        description: 'Say whose token this is and what it allows.',
        effect: 'read',
        world: 'closed',
        handler: (_args, ctx) => {
          const claims = ctx.auth?.claims ?? {};
          return JSON.stringify({ sub: claims.sub, aud: claims.aud, scope: claims.scope, act: claims.act ?? null });
        },
      }),
    ],
  });
  const handler = server.nodeHandler();
  upstream.on('request', (req, res) => {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (bearer) bearers.push(bearer);
    void handler(req, res);
  });
  // The gateway lists the upstream's tools with the operator's own token (never used for a call).
  const operator = await idp.personToken('operator', { aud: upstreamUrl, scope: 'tools:read' });
  const listing = { url: upstreamUrl, headers: { Authorization: `Bearer ${operator}` }, trust: 'trusted' as const };
  const exchange = { tokenEndpoint: idp.tokenEndpoint, clientId: 'gateway', clientSecret: 'gateway-secret' };
  gateway = await createGateway({
    servers: {
      billing: {
        ...listing,
        tokenExchange: {
          ...exchange,
          audience: 'billing-api',
          resource: upstreamUrl,
          scopes: ['tools:read', 'billing:read'],
        },
      },
      ledger: {
        ...listing,
        tokenExchange: { ...exchange, audience: 'ledger-api', actor: true, refreshBeforeSec: 8 },
      },
      payroll: { ...listing, tokenExchange: { ...exchange, audience: 'payroll-api' } },
      vault: { ...listing, tokenExchange: { ...exchange, audience: 'vault-api' } },
      hr: { ...listing, tokenExchange: { ...exchange, tokenEndpoint: goneEndpoint, audience: 'hr-api' } },
    },
    // The gateway also admits tokens made for another of the organisation's services: the IdP will not exchange those.
    auth: { issuer: idp.issuer, resource: GATEWAY, audience: [GATEWAY, ELSEWHERE] },
    audit: (entry) => audit.push(entry),
    logger: silentLogger,
  });
  listener = await gateway.listen({ port: 0, handleSignals: false });
  gatewayUrl = listener.url;
}, 60_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
  await gateway?.close();
  await listener?.close();
  upstream?.closeAllConnections();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
  await idp?.close();
  trace.disable();
});

/** A person's MCP client (SDK v2) to the gateway, with their own token. */
async function personClient(token: string): Promise<Client> {
  const client = new Client({ name: 'person', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(gatewayUrl), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  closers.push(() => client.close());
  return client;
}

const whoami = async (client: Client, server: string) => {
  const result = await client.callTool({ name: `${server}__whoami`, arguments: {} });
  const text = (result.content as Array<{ text: string }>)[0]!.text;
  return { isError: result.isError === true, text };
};

describe('token exchange for an upstream', () => {
  test("each person's calls go with a token exchanged for them, with the audience, resource and scopes configured", async () => {
    const aliceToken = await idp.personToken('alice');
    const alice = await personClient(aliceToken);
    const answer = await whoami(alice, 'billing');
    expect(answer.isError, answer.text).toBe(false);
    expect(JSON.parse(answer.text)).toEqual({
      sub: 'alice',
      aud: upstreamUrl,
      scope: 'tools:read billing:read',
      act: null,
    });
    expect(idp.exchanges.at(-1)).toEqual({
      client: 'gateway',
      audience: 'billing-api',
      resource: upstreamUrl,
      scope: 'tools:read billing:read',
      actor: false,
    });
    // The token the person sent the gateway never went upstream.
    expect(bearers).not.toContain(aliceToken);
  });

  test('a token is kept per person and upstream: the next call of the same person exchanges nothing, another person gets their own', async () => {
    const alice = await personClient(await idp.personToken('alice'));
    const before = idp.exchanges.length;
    expect(JSON.parse((await whoami(alice, 'billing')).text).sub).toBe('alice');
    expect(JSON.parse((await whoami(alice, 'billing')).text).sub).toBe('alice');
    expect(idp.exchanges.length).toBe(before);
    const bob = await personClient(await idp.personToken('bob'));
    expect(JSON.parse((await whoami(bob, 'billing')).text).sub).toBe('bob');
    expect(idp.exchanges.length).toBe(before + 1);
    // And alice's calls still carry alice's token.
    expect(JSON.parse((await whoami(alice, 'billing')).text).sub).toBe('alice');
  });

  test("with actor, the gateway's own token is sent as actor_token and the upstream's token names it (act)", async () => {
    const carol = await personClient(await idp.personToken('carol'));
    const answer = JSON.parse((await whoami(carol, 'ledger')).text);
    expect(answer).toMatchObject({ sub: 'carol', scope: 'tools:read ledger:read', act: { sub: 'gateway' } });
    // Only the audience was configured, so only the audience names the target (no resource sent).
    expect(idp.exchanges.at(-1)).toEqual({ client: 'gateway', audience: 'ledger-api', actor: true });
  });

  test('a token about to expire is exchanged again before use: the upstream never gets an expired one', async () => {
    // ledger's tokens live 10 s and are refreshed 5 s before (half their life, as refreshBeforeSec 8 is longer).
    const dave = await personClient(await idp.personToken('dave'));
    const first = idp.exchanges.length;
    await whoami(dave, 'ledger');
    const exchangedAt = Date.now();
    expect(idp.exchanges.length).toBe(first + 1);
    const tokenSeen = bearers.at(-1);
    // Past the first token's refresh point (a wait on the clock, not a timed assertion).
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, exchangedAt + 5_600 - Date.now())));
    const answer = await whoami(dave, 'ledger');
    expect(answer.isError, answer.text).toBe(false);
    expect(idp.exchanges.length).toBe(first + 2);
    expect(bearers.at(-1)).not.toBe(tokenSeen);
  }, 30_000);
});

describe('refusals reach the person as tool errors naming the upstream and the reason', () => {
  test('a subject token the IdP will not exchange', async () => {
    const elsewhere = await personClient(await idp.personToken('erin', { aud: ELSEWHERE }));
    const answer = await whoami(elsewhere, 'billing');
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('no token for billing: the token exchange failed');
    expect(answer.text).toContain('invalid_grant (the subject token is not valid)');
  });

  test('an audience the IdP does not allow', async () => {
    const frank = await personClient(await idp.personToken('frank'));
    const answer = await whoami(frank, 'vault');
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('no token for vault');
    expect(answer.text).toContain('invalid_target');
  });

  test('a person outside the groups the IdP allows for that upstream, while a finance person gets through', async () => {
    const grace = await personClient(await idp.personToken('grace', { groups: ['engineering'] }));
    const refused = await whoami(grace, 'payroll');
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('no token for payroll');
    expect(refused.text).toContain('this person may not reach the audience');
    const henry = await personClient(await idp.personToken('henry', { groups: ['finance'] }));
    expect(JSON.parse((await whoami(henry, 'payroll')).text).sub).toBe('henry');
  });

  test('an IdP that cannot be reached', async () => {
    const ivan = await personClient(await idp.personToken('ivan'));
    const answer = await whoami(ivan, 'hr');
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain('no token for hr');
    expect(answer.text).toContain('could not be reached');
    // The gateway keeps serving the others.
    expect((await whoami(ivan, 'billing')).isError).toBe(false);
  });
});

test("audit records name the person, the upstream's audience and the token's source, and hold no token", async () => {
  const judy = await personClient(await idp.personToken('judy'));
  await whoami(judy, 'billing');
  const entry = audit.findLast((e) => e.principal === 'judy' && e.server === 'billing')!;
  expect(entry.credentials).toEqual({ source: 'exchanged', audience: 'billing-api' });
  const text = JSON.stringify(audit);
  for (const bearer of bearers) expect(text).not.toContain(bearer);
  expect(text).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
});

test("each upstream call's span names the person, the audience and the token's source, and carries no token", async () => {
  const kim = await personClient(await idp.personToken('kim'));
  await whoami(kim, 'billing');
  const span = spans
    .getFinishedSpans()
    .findLast((s) => s.name === 'tools/call billing__whoami' && s.attributes['enduser.id'] === 'kim');
  expect(span?.attributes).toMatchObject({
    'enduser.id': 'kim',
    'candor.upstream.credentials': 'exchanged',
    'candor.upstream.audience': 'billing-api',
  });
  const text = JSON.stringify(spans.getFinishedSpans().map((s) => s.attributes));
  for (const bearer of bearers) expect(text).not.toContain(bearer);
  expect(text).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
});
