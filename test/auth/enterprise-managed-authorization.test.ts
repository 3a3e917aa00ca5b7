/**
 * MCP Enterprise-Managed Authorization over the wire, with two real authorization
 * servers (oidc-provider): the organisation's IdP, which issues ID-JAGs by token exchange
 * of a person's ID token, and the MCP server's own authorization server, which redeems
 * them with the JWT-bearer grant through candor's `identityAssertionVerifier`. The MCP
 * server is a candor server (`createServer({ auth })`) trusting that authorization
 * server. Checked: the client's two steps (discovery from the server's metadata, the
 * exchange, the redemption) get the person an access token the server accepts, with no
 * consent screen; the IdP refuses an audience/resource pair it does not know; the
 * authorization server refuses an assertion for another audience, an expired one, a
 * replayed one, one issued to another client, one naming a server it does not serve,
 * and one without the ID-JAG type; the MCP server refuses an ID-JAG presented as if it
 * were an access token. And candor as the client: the host and the CLI (`candor call` on a
 * config entry with `"auth": { "enterprise" }`) reach the server as the person whose ID
 * token they were given.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  enterpriseAccessToken,
  redeemIdentityAssertion,
  requestIdentityAssertion,
} from '../../src/auth/client/enterprise-grant.js';
import { createHost } from '../../src/host/index.js';
import { createServer } from '../../src/server/create-server.js';
import { defineTool } from '../../src/tool/define.js';
import { silentLogger } from '../../src/util/logger.js';
import { ensureBuilt, runCli } from '../support/cli-harness.js';
import { type ExchangeIdp, startExchangeIdp } from '../support/exchange-idp.js';
import {
  type IdJagAuthorizationServer,
  startIdJagAuthorizationServer,
} from '../support/id-jag-authorization-server.js';

let idp: ExchangeIdp;
let as: IdJagAuthorizationServer;
let mcp: Server;
let mcpUrl: string;
const idpClient = { clientId: 'chat-app', clientSecret: 'chat-idp-secret' };
const asClient = { clientId: 'chat-app-at-mcp', clientSecret: 'chat-mcp-secret' };
const clients: Client[] = [];

beforeAll(async () => {
  mcp = createHttpServer();
  await new Promise<void>((resolve) => mcp.listen(0, '127.0.0.1', resolve));
  mcpUrl = `http://127.0.0.1:${(mcp.address() as AddressInfo).port}/mcp`;
  // The IdP must know the MCP server's authorization server before issuing for it: start the AS on a known issuer.
  idp = await startExchangeIdp({
    subjectAudience: 'unused',
    clients: { 'chat-app': idpClient.clientSecret },
    targets: [],
    idJagTargets: [],
  });
  as = await startIdJagAuthorizationServer({
    resources: [mcpUrl],
    idp: { issuer: idp.issuer, jwks: idp.jwksUri },
    clients: { 'chat-app-at-mcp': asClient.clientSecret, 'another-app': 'another-secret' },
    scopes: ['tools:read', 'tools:write'],
  });
  idp.idJagTargets.push({ audience: as.issuer, resource: mcpUrl, scopes: ['tools:read'], clientId: asClient.clientId });
  const server = createServer({
    name: 'chat-mcp',
    version: '1',
    logger: silentLogger,
    lintOnStart: false,
    auth: { issuer: as.issuer, resource: mcpUrl },
    tools: [
      defineTool({
        name: 'whoami',
        description: 'Say whose token this is.',
        effect: 'read',
        world: 'closed',
        handler: (_args, ctx) => `${ctx.auth?.subject} via ${ctx.auth?.clientId}`,
      }),
    ],
  });
  mcp.on('request', server.nodeHandler());
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  mcp?.closeAllConnections();
  await new Promise<void>((resolve) => (mcp ? mcp.close(() => resolve()) : resolve()));
  await as?.close();
  await idp?.close();
});

async function callWhoami(token: string): Promise<string> {
  const client = new Client({ name: 'chat', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: { token: async () => token } }),
  );
  clients.push(client);
  const result = await client.callTool({ name: 'whoami', arguments: {} });
  return (result.content as Array<{ text: string }>)[0]!.text;
}

const redeem = (assertion: string, client = asClient) =>
  redeemIdentityAssertion({ ...client, tokenEndpoint: `${as.issuer}/token`, assertion });

describe('enterprise-managed authorization', () => {
  test("a person's ID token becomes an access token for the MCP server, through the IdP's ID-JAG, with no consent screen", async () => {
    const idToken = await idp.idToken('alice', idpClient.clientId);
    const token = await enterpriseAccessToken({
      idToken,
      server: mcpUrl,
      idp: { ...idpClient, tokenEndpoint: idp.tokenEndpoint },
      client: asClient,
    });
    expect(token.authorizationServer).toBe(as.issuer);
    expect(token.resource).toBe(mcpUrl);
    expect(await callWhoami(token.token)).toBe(`alice via ${asClient.clientId}`);
    expect(as.issued.at(-1)).toEqual({ sub: 'alice', client: asClient.clientId, aud: mcpUrl, scope: 'tools:read' });
  });

  test('the ID-JAG is typed oauth-id-jag+jwt and names the authorization server, the resource and the client', async () => {
    const jag = await requestIdentityAssertion({
      ...idpClient,
      tokenEndpoint: idp.tokenEndpoint,
      idToken: await idp.idToken('bob', idpClient.clientId),
      audience: as.issuer,
      resource: mcpUrl,
    });
    expect(decodeProtectedHeader(jag.token).typ).toBe('oauth-id-jag+jwt');
    const claims = JSON.parse(Buffer.from(jag.token.split('.')[1]!, 'base64url').toString('utf8'));
    expect(claims).toMatchObject({
      iss: idp.issuer,
      sub: 'bob',
      aud: as.issuer,
      resource: mcpUrl,
      client_id: asClient.clientId,
    });
    expect(typeof claims.jti).toBe('string');
  });

  test('the IdP refuses an authorization server and resource pair it does not know', async () => {
    const asked = requestIdentityAssertion({
      ...idpClient,
      tokenEndpoint: idp.tokenEndpoint,
      idToken: await idp.idToken('carol', idpClient.clientId),
      audience: 'https://auth.elsewhere.example',
      resource: mcpUrl,
    });
    await expect(asked).rejects.toThrow('invalid_target');
  });

  test('an MCP server refuses an ID-JAG presented as an access token (its audience is the authorization server)', async () => {
    const jag = await idp.signIdJag({ sub: 'dave', aud: as.issuer, resource: mcpUrl, client_id: asClient.clientId });
    await expect(callWhoami(jag)).rejects.toThrow();
  });
});

describe('the authorization server refuses assertions that fail the checks the extension requires', () => {
  const good = { aud: () => as.issuer, resource: () => mcpUrl };

  test('a replayed assertion: the same jti is redeemed once', async () => {
    const jag = await idp.signIdJag({
      sub: 'erin',
      aud: good.aud(),
      resource: good.resource(),
      client_id: asClient.clientId,
      scope: 'tools:read',
    });
    expect((await redeem(jag)).token).toBeTruthy();
    await expect(redeem(jag)).rejects.toThrow('invalid_grant (the assertion was already used (jti))');
  });

  test('an assertion for another authorization server (aud)', async () => {
    const jag = await idp.signIdJag({
      sub: 'erin',
      aud: 'https://auth.elsewhere.example',
      resource: good.resource(),
      client_id: asClient.clientId,
    });
    await expect(redeem(jag)).rejects.toThrow(
      'invalid_grant (the assertion is not for this authorization server (aud))',
    );
  });

  test('an expired assertion', async () => {
    const jag = await idp.signIdJag(
      {
        sub: 'erin',
        aud: good.aud(),
        resource: good.resource(),
        client_id: asClient.clientId,
        iat: Math.floor(Date.now() / 1000) - 400,
      },
      { ttlSec: -120 },
    );
    await expect(redeem(jag)).rejects.toThrow('invalid_grant (the assertion expired)');
  });

  test('an assertion issued to another client', async () => {
    const jag = await idp.signIdJag({
      sub: 'erin',
      aud: good.aud(),
      resource: good.resource(),
      client_id: asClient.clientId,
    });
    await expect(redeem(jag, { clientId: 'another-app', clientSecret: 'another-secret' })).rejects.toThrow(
      'invalid_grant (the assertion was issued to another client (client_id))',
    );
  });

  test('an assertion naming an MCP server this authorization server does not serve', async () => {
    const jag = await idp.signIdJag({
      sub: 'erin',
      aud: good.aud(),
      resource: 'https://other.example/mcp',
      client_id: asClient.clientId,
    });
    await expect(redeem(jag)).rejects.toThrow('does not serve');
  });

  test('a JWT that is not typed as an ID-JAG', async () => {
    const jag = await idp.signIdJag(
      { sub: 'erin', aud: good.aud(), resource: good.resource(), client_id: asClient.clientId },
      { typ: 'JWT' },
    );
    await expect(redeem(jag)).rejects.toThrow('invalid_grant (the assertion');
    await expect(redeem(jag)).rejects.toThrow('typ');
  });
});

describe('candor as the client: a server entry with "auth": { "enterprise" }', () => {
  const settings = () => ({
    idpTokenEndpoint: idp.tokenEndpoint,
    idpClientId: idpClient.clientId,
    idpClientSecretEnv: 'EMA_TEST_IDP_SECRET',
    clientId: asClient.clientId,
    clientSecretEnv: 'EMA_TEST_MCP_SECRET',
    idTokenEnv: 'EMA_TEST_ID_TOKEN',
  });

  test('the host reaches the server as the person whose ID token it holds', async () => {
    process.env.EMA_TEST_IDP_SECRET = idpClient.clientSecret;
    process.env.EMA_TEST_MCP_SECRET = asClient.clientSecret;
    process.env.EMA_TEST_ID_TOKEN = await idp.idToken('frank', idpClient.clientId);
    const host = await createHost({ servers: { chat: { url: mcpUrl, enterprise: settings(), trust: 'trusted' } } });
    try {
      const outcome = await host.call('chat__whoami');
      expect(outcome.status, outcome.message).toBe('ok');
      expect((outcome.result!.content[0] as { text: string }).text).toBe(`frank via ${asClient.clientId}`);
    } finally {
      await host.close();
    }
  });

  test('the CLI reads the entry from a config file and calls as the person', async () => {
    ensureBuilt();
    const dir = mkdtempSync(path.join(tmpdir(), 'candor-ema-'));
    try {
      const config = path.join(dir, 'mcp.json');
      writeFileSync(
        config,
        JSON.stringify({ mcpServers: { chat: { url: mcpUrl, auth: { enterprise: settings() } } } }),
      );
      const env = {
        EMA_TEST_IDP_SECRET: idpClient.clientSecret,
        EMA_TEST_MCP_SECRET: asClient.clientSecret,
        EMA_TEST_ID_TOKEN: await idp.idToken('grace', idpClient.clientId),
        CANDOR_CREDENTIALS: path.join(dir, 'credentials.json'),
      };
      const run = await runCli(['call', `${config}#chat`, 'whoami'], { env, cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain(`grace via ${asClient.clientId}`);
      // Without the ID token: a clear message naming the variable, no sign-in attempted.
      const missing = await runCli(['call', `${config}#chat`, 'whoami'], {
        env: { ...env, EMA_TEST_ID_TOKEN: '' },
        cwd: dir,
      });
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toContain('$EMA_TEST_ID_TOKEN');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
