/**
 * `"auth": "oauth-per-user"` through the built CLI: `candor gateway
 * --auth-issuer …` serves several people; its upstream is a candor server protected by
 * a real authorization server (oidc-provider) whose `whoami` tool answers with the
 * subject of the token it got. Each person's first call gets a URL-mode elicitation
 * with the upstream's authorization URL; the scripted browser signs in there as that
 * person's upstream account and comes back to the gateway's callback. Checked on the
 * wire: each person's calls reach the upstream with their own upstream token (never
 * another person's, never the operator's, never the gateway token they sent); a client
 * without URL elicitation gets the link in the result; a second gateway instance on the
 * same Redis uses the sign-in made through the first; Redis holds no token in clear.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServer } from '../../src/server/create-server.js';
import { defineTool } from '../../src/tool/define.js';
import { silentLogger } from '../../src/util/logger.js';
import { CLI, ensureBuilt, REPO, runCli } from '../support/cli-harness.js';
import { BROWSER_SCRIPT } from '../support/oauth-client-fixture.js';
import { type OidcServer, startOidcServer } from '../support/oidc-server.js';
import { freePort, type RedisServer, startRedis } from '../support/redis-server.js';
import { startAuthorizationServer, type TestAuthorizationServer } from '../support/test-authorization-server.js';
import { launchChromium } from '../support/ui-support.js';

const TOKEN_KEY = randomBytes(32).toString('base64');
let dir: string;
let upstreamAs: OidcServer;
let gatewayAs: TestAuthorizationServer;
let upstream: Server;
let upstreamUrl: string;
let redis: RedisServer;
let config: string;
/** What reached the upstream: each request's bearer token, and the subject of each tools/call. */
const bearers: string[] = [];
const callers: string[] = [];
const gateways: ChildProcess[] = [];
const clients: Array<{ close(): Promise<void> }> = [];

const env = () => ({ CANDOR_CREDENTIALS: path.join(dir, 'credentials.json'), CANDOR_TOKEN_KEY: TOKEN_KEY });

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'candor-per-user-'));
  const port = await freePort();
  upstreamUrl = `http://127.0.0.1:${port}/mcp`;
  // Short-lived access tokens: refreshes happen during the tests, per person, through the vault.
  upstreamAs = await startOidcServer({
    resource: upstreamUrl,
    scopes: ['tools:read', 'tools:write', 'tools:destructive'],
    accessTokenTtl: 4,
  });
  const server = createServer({
    name: 'notes-upstream',
    version: '1',
    logger: silentLogger,
    lintOnStart: false,
    auth: { issuer: upstreamAs.issuer, resource: upstreamUrl },
    tools: [
      defineTool({
        name: 'whoami',
        description: 'Say which account the token belongs to.',
        effect: 'read',
        world: 'closed',
        handler: (_args, ctx) => {
          callers.push(ctx.auth?.subject ?? '?');
          return `upstream sees ${ctx.auth?.subject}`;
        },
      }),
    ],
  });
  const handler = server.nodeHandler();
  upstream = createHttpServer((req, res) => {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (bearer) bearers.push(bearer);
    void handler(req, res);
  });
  await new Promise<void>((resolve) => upstream.listen(port, '127.0.0.1', resolve));
  redis = await startRedis();
  config = path.join(dir, 'gateway.json');
  writeFileSync(
    config,
    JSON.stringify({ servers: { notes: { url: upstreamUrl, auth: 'oauth-per-user', trust: 'trusted' } } }),
  );
  // The operator's own sign-in lists the upstream's tools (never used for a call).
  const login = await runCli(['auth', 'login', `${config}#notes`], {
    env: { ...env(), BROWSER: BROWSER_SCRIPT, OAUTH_BROWSER_LOGIN: 'operator', CI: '' },
  });
  expect(login.code, login.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => {});
  for (const child of gateways) child.kill('SIGTERM');
  upstream?.closeAllConnections();
  await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
  await upstreamAs?.close();
  await gatewayAs?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Start a gateway instance on a free port; resolves with its endpoint and its stderr so far. */
async function startGateway(extra: string[] = [], publicResource?: string, extraEnv: Record<string, string> = {}) {
  const port = await freePort();
  const resource = publicResource ?? `http://127.0.0.1:${port}/mcp`;
  gatewayAs ??= await startAuthorizationServer({ resource, people: { audience: 'candor-gateway' } });
  const child = spawn(
    process.execPath,
    [CLI, 'gateway', '--config', config, '--http', `127.0.0.1:${port}`]
      .concat(['--auth-issuer', gatewayAs.issuer, '--auth-resource', resource, '--auth-audience', 'candor-gateway'])
      .concat(extra),
    { cwd: REPO, env: { ...process.env, ...env(), ...extraEnv, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  gateways.push(child);
  let err = '';
  child.stderr!.on('data', (c: Buffer) => {
    err += c.toString('utf8');
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const match = /MCP endpoint: (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.on('exit', (code) => reject(new Error(`gateway exited ${code}\n${out}\n${err}`)));
  });
  return { url, resource, child, stderr: () => err };
}

interface Person {
  client: Client;
  token: string;
  /** URL elicitations this person's client was sent. */
  asked: Array<{ mode?: string; url?: string; elicitationId?: string }>;
  completed: string[];
  /** The browser presses "deny" at the authorization server. */
  refuse?: boolean;
}

/** A person at an SDK v2 client: a gateway token for `sub`, and a browser signing in upstream as `account`. */
async function person(
  gatewayUrl: string,
  sub: string,
  account: string,
  withUrlElicitation = true,
  modern = false,
): Promise<Person> {
  const token = await gatewayAs.mint({ sub, aud: 'candor-gateway', scope: 'tools:read tools:write' });
  const client = new Client(
    { name: `client-of-${sub}`, version: '1' },
    {
      capabilities: withUrlElicitation ? { elicitation: { form: {}, url: {} } } : {},
      ...(modern ? { versionNegotiation: { mode: { pin: '2026-07-28' as const } } } : {}),
    },
  );
  const me: Person = { client, token, asked: [], completed: [] };
  if (withUrlElicitation) {
    client.setRequestHandler('elicitation/create', async (request) => {
      const params = request.params as { mode?: string; url?: string; elicitationId?: string };
      me.asked.push(params);
      if (params.mode !== 'url' || !params.url) return { action: 'decline' };
      await browse(params.url, `${sub},${account}`, me.refuse ? { OAUTH_BROWSER_REFUSE: '1' } : {});
      return { action: 'accept' };
    });
    client.setNotificationHandler('notifications/elicitation/complete', (n) => {
      me.completed.push((n.params as { elicitationId: string }).elicitationId);
    });
  }
  await client.connect(
    new StreamableHTTPClientTransport(new URL(gatewayUrl), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  clients.push(client);
  return me;
}

/**
 * The scripted browser: open the gateway's sign-in link, sign in to the gateway as the person and
 * upstream as the account (`logins`: "person,account"), land on the gateway's callback.
 */
function browse(url: string, logins: string, extraEnv: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BROWSER_SCRIPT, url], {
      env: { ...process.env, OAUTH_BROWSER_LOGIN: logins, ...extraEnv },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString('utf8');
    });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`browser exited ${code}: ${err}`))));
  });
}

const text = (result: unknown) => (result as { content: Array<{ text?: string }> }).content[0]?.text ?? '';
const subjectOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')).sub;

describe('a gateway upstream with "auth": "oauth-per-user"', () => {
  test('each person signs in once through a URL elicitation and calls as themselves; tokens never cross', async () => {
    const gateway = await startGateway();
    const alice = await person(gateway.url, 'alice', 'alice-upstream');
    const bob = await person(gateway.url, 'bob', 'bob-upstream');
    // Listed with the operator's sign-in.
    const listed = await alice.client.listTools();
    expect(listed.tools.map((t) => t.name)).toContain('notes__whoami');

    const first = await alice.client.callTool({ name: 'notes__whoami', arguments: {} });
    expect(text(first), JSON.stringify(first)).toBe('upstream sees alice-upstream');
    expect(alice.asked).toHaveLength(1);
    expect(alice.asked[0]!.mode).toBe('url');
    // The link is the gateway's, never the upstream's authorization URL: the gateway checks who opens it.
    const link = new URL(alice.asked[0]!.url!);
    expect(`${link.origin}${link.pathname}`).toBe(`${new URL(gateway.url).origin}/oauth/upstream/connect`);
    expect(alice.asked[0]!.url).not.toContain(upstreamAs.issuer);
    expect(alice.completed).toEqual([alice.asked[0]!.elicitationId]);

    const second = await bob.client.callTool({ name: 'notes__whoami', arguments: {} });
    expect(text(second)).toBe('upstream sees bob-upstream');
    expect(bob.asked).toHaveLength(1);

    // Signed in now: no more questions, each still as themselves.
    expect(text(await alice.client.callTool({ name: 'notes__whoami', arguments: {} }))).toBe(
      'upstream sees alice-upstream',
    );
    expect(text(await bob.client.callTool({ name: 'notes__whoami', arguments: {} }))).toBe(
      'upstream sees bob-upstream',
    );
    expect(alice.asked).toHaveLength(1);
    expect(bob.asked).toHaveLength(1);

    // On the wire: calls were made only with the callers' own upstream tokens, never the operator's,
    // and the tokens people sent the gateway never reached the upstream.
    expect(callers).toEqual(['alice-upstream', 'bob-upstream', 'alice-upstream', 'bob-upstream']);
    expect(bearers).not.toContain(alice.token);
    expect(bearers).not.toContain(bob.token);
    expect(new Set(bearers.map(subjectOf))).toEqual(new Set(['operator', 'alice-upstream', 'bob-upstream']));
    expect(gateway.stderr()).not.toMatch(/eyJ[\w-]+\.[\w-]+/);
    for (const bearer of bearers) expect(gateway.stderr()).not.toContain(bearer);
  }, 120_000);

  test('2026-07-28: the URL question travels in input_required, and the retried call runs as the person', async () => {
    const gateway = await startGateway();
    const frank = await person(gateway.url, 'frank', 'frank-upstream', true, true);
    expect(frank.client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const result = await frank.client.callTool({ name: 'notes__whoami', arguments: {} });
    expect(text(result), JSON.stringify(result)).toBe('upstream sees frank-upstream');
    expect(frank.asked).toHaveLength(1);
    expect(frank.asked[0]!.mode).toBe('url');
    expect(text(await frank.client.callTool({ name: 'notes__whoami', arguments: {} }))).toBe(
      'upstream sees frank-upstream',
    );
    expect(frank.asked).toHaveLength(1);
  }, 120_000);

  test('an SDK v1 client gets the same URL elicitation and the completion notice', async () => {
    const gateway = await startGateway();
    const token = await gatewayAs.mint({ sub: 'judy', aud: 'candor-gateway', scope: 'tools:read' });
    const client = new ClientV1({ name: 'v1', version: '1' }, { capabilities: { elicitation: { form: {}, url: {} } } });
    const asked: string[] = [];
    const completed: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const params = request.params as { mode?: string; url?: string; elicitationId?: string };
      asked.push(params.mode ?? 'form');
      if (params.mode !== 'url') return { action: 'decline' };
      await browse(params.url!, 'judy,judy-upstream');
      return { action: 'accept' };
    });
    client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => {
      completed.push(n.params.elicitationId);
    });
    await client.connect(
      new TransportV1(new URL(gateway.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    clients.push(client);
    expect(text(await client.callTool({ name: 'notes__whoami', arguments: {} }))).toBe('upstream sees judy-upstream');
    expect(asked).toEqual(['url']);
    expect(completed).toHaveLength(1);
  }, 120_000);

  test('a client without URL elicitation gets the link in the result, and the call works once signed in', async () => {
    const gateway = await startGateway();
    const carol = await person(gateway.url, 'carol', 'carol-upstream', false);
    const refused = await carol.client.callTool({ name: 'notes__whoami', arguments: {} });
    expect(refused.isError).toBe(true);
    const link = /Open this link in a browser, sign in, then call the tool again: (\S+)/.exec(text(refused))?.[1];
    expect(link, text(refused)).toBeDefined();
    await browse(link!, 'carol,carol-upstream');
    expect(text(await carol.client.callTool({ name: 'notes__whoami', arguments: {} }))).toBe(
      'upstream sees carol-upstream',
    );
  }, 120_000);

  test('an access token about to expire is refreshed before use for that person, with no new question; the status counts the people connected', async () => {
    const gateway = await startGateway();
    const ivy = await person(gateway.url, 'ivy', 'ivy-upstream');
    expect(text(await ivy.client.callTool({ name: 'notes__whoami', arguments: {} }))).toBe(
      'upstream sees ivy-upstream',
    );
    const before = bearers.filter((b) => subjectOf(b) === 'ivy-upstream');
    // Past half of its 4 s life the token is refreshed before use.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(text(await ivy.client.callTool({ name: 'notes__whoami', arguments: {} }))).toBe(
      'upstream sees ivy-upstream',
    );
    const after = bearers.filter((b) => subjectOf(b) === 'ivy-upstream');
    expect(new Set(after).size).toBeGreaterThan(new Set(before).size);
    expect(ivy.asked).toHaveLength(1);
    const status = await ivy.client.readResource({ uri: 'candor://gateway/status' });
    const upstreams = JSON.parse((status.contents[0] as { text: string }).text).upstreams;
    expect(upstreams[0]).toMatchObject({ name: 'notes', state: 'up', perUser: { connectedPeople: 1 } });
  }, 120_000);

  test('a refused sign-in fails the call with the reason and stores nothing; the next call asks again', async () => {
    const gateway = await startGateway();
    const henry = await person(gateway.url, 'henry', 'henry-upstream');
    henry.refuse = true;
    const refused = await henry.client.callTool({ name: 'notes__whoami', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('the sign-in to notes did not complete');
    expect(text(refused)).toContain('access_denied');
    henry.refuse = false;
    expect(text(await henry.client.callTool({ name: 'notes__whoami', arguments: {} }))).toBe(
      'upstream sees henry-upstream',
    );
    expect(henry.asked).toHaveLength(2);
    expect(callers.filter((c) => c === 'henry-upstream')).toHaveLength(1);
  }, 120_000);

  test("without the operator's sign-in the tools are not listed, and the status says which command lists them", async () => {
    const gateway = await startGateway([], undefined, { CANDOR_CREDENTIALS: path.join(dir, 'nobody.json') });
    const kim = await person(gateway.url, 'kim', 'kim-upstream');
    expect((await kim.client.listTools()).tools.map((t) => t.name)).not.toContain('notes__whoami');
    const status = await kim.client.readResource({ uri: 'candor://gateway/status' });
    const [notes] = JSON.parse((status.contents[0] as { text: string }).text).upstreams;
    expect(notes.state).toBe('down');
    expect(notes.error).toBe(
      `needs sign-in: candor auth login ${config}#notes (to list its tools; each person then signs in on their first call)`,
    );
  }, 120_000);

  test('a forged or replayed callback state is refused and stores nothing', async () => {
    const gateway = await startGateway();
    const origin = new URL(gateway.url).origin;
    const forged = await fetch(`${origin}/oauth/upstream/callback?code=abc&state=forged`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('unknown, was already used, or expired');
    const link = await fetch(`${origin}/oauth/upstream/connect?link=forged`);
    expect(link.status).toBe(400);
    expect(await link.text()).toContain('This sign-in link is unknown or expired.');
    const back = await fetch(`${origin}/oauth/gateway/callback?code=abc&state=forged`);
    expect(back.status).toBe(400);
  }, 60_000);

  test('with Redis: a sign-in made through one instance serves the person on another, one begun on one instance finishes on another, and Redis holds no token in clear', async () => {
    const client = new Redis(redis.url);
    try {
      const a = await startGateway(['--redis', redis.url]);
      const b = await startGateway(['--redis', redis.url]);
      const dave = await person(a.url, 'person-dave-1f9a', 'dave-upstream');
      expect(text(await dave.client.callTool({ name: 'notes__whoami', arguments: {} }))).toBe(
        'upstream sees dave-upstream',
      );
      expect(dave.asked).toHaveLength(1);
      const onB = await person(b.url, 'person-dave-1f9a', 'nobody');
      expect(text(await onB.client.callTool({ name: 'notes__whoami', arguments: {} }))).toBe(
        'upstream sees dave-upstream',
      );
      expect(onB.asked).toHaveLength(0);
      // Another person on B is asked to sign in themselves.
      const erin = await person(b.url, 'erin', 'erin-upstream');
      expect(text(await erin.client.callTool({ name: 'notes__whoami', arguments: {} }))).toBe(
        'upstream sees erin-upstream',
      );
      expect(erin.asked).toHaveLength(1);

      // Two instances behind one public address: the sign-in begins on B, the browser comes back to A.
      const c = await startGateway(['--redis', redis.url], a.resource);
      const grace = await person(c.url, 'person-grace-8b2c', 'grace-upstream');
      expect(text(await grace.client.callTool({ name: 'notes__whoami', arguments: {} }))).toBe(
        'upstream sees grace-upstream',
      );
      expect(new URL(grace.asked[0]!.url!).origin).toBe(new URL(a.url).origin);

      const keys = await client.keys('*oauth:*');
      expect(keys.some((k) => k.includes(':user:'))).toBe(true);
      const values = await Promise.all(keys.filter((k) => !k.includes(':lock:')).map((k) => client.get(k)));
      for (const value of values) {
        expect(value).toMatch(/^v1\./);
        for (const bearer of bearers) expect(value).not.toContain(bearer);
        expect(value).not.toContain('person-dave-1f9a');
        expect(value).not.toContain('person-grace-8b2c');
      }
    } finally {
      client.disconnect();
    }
  }, 120_000);

  test('refuses to start without a token key, and without --auth-*', async () => {
    const withAuth = [
      'gateway',
      '--config',
      config,
      '--http',
      '127.0.0.1:0',
      '--auth-issuer',
      'http://127.0.0.1:9/',
    ].concat(['--auth-resource', 'http://127.0.0.1:9/mcp']);
    const noKey = await runCli(withAuth, {
      env: { CANDOR_CREDENTIALS: path.join(dir, 'credentials.json'), CANDOR_TOKEN_KEY: '' },
    });
    expect(noKey.code).not.toBe(0);
    expect(noKey.stderr).toContain('CANDOR_TOKEN_KEY');
    const noAuth = await runCli(['gateway', '--config', config, '--http', '127.0.0.1:0'], { env: env() });
    expect(noAuth.code).not.toBe(0);
    expect(noAuth.stderr).toContain('--auth-issuer');
    const weak = await runCli(withAuth, {
      env: { ...env(), CANDOR_TOKEN_KEY: 'short' },
    });
    expect(weak.code).not.toBe(0);
    expect(weak.stderr).toContain('too short');
  }, 60_000);
});

/** The scripted browser in a fresh cookie jar (another person's browser): its exit code and the last page. */
function browsePage(url: string, logins: string): Promise<{ code: number | null; page: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BROWSER_SCRIPT, url], {
      env: { ...process.env, OAUTH_BROWSER_LOGIN: logins },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let page = '';
    child.stdout!.on('data', (c: Buffer) => {
      page += c.toString('utf8');
    });
    child.on('exit', (code) => resolve({ code, page }));
  });
}

/** A browser by hand: GET with this jar's cookies, no redirects followed; returns status, location, body. */
function jar() {
  const cookies = new Map<string, string>();
  return async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    const location = response.headers.get('location');
    return { status: response.status, location: location && new URL(location, url).href, body: await response.text() };
  };
}

describe('sign-in links bound to the person', () => {
  test('a link opened by another person is refused with a clear page, connects nothing, and the asker is told; the right person then completes it', async () => {
    const gateway = await startGateway();
    const mallory = await person(gateway.url, 'mallory', 'mallory-upstream');
    // Mallory's client does not open the link: it goes to Quinn, who signs in as herself.
    const forwarded: Array<{ code: number | null; page: string }> = [];
    mallory.client.setRequestHandler('elicitation/create', async (request) => {
      forwarded.push(await browsePage((request.params as { url: string }).url, 'quinn,quinn-upstream'));
      return { action: 'accept' };
    });
    const refused = await mallory.client.callTool({ name: 'notes__whoami', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain(
      'the sign-in to notes did not complete: the sign-in link was opened by another person',
    );
    expect(forwarded).toHaveLength(1);
    expect(forwarded[0]!.page).toMatch(/^403\n/);
    expect(forwarded[0]!.page).toContain('This sign-in link is for someone else');
    expect(forwarded[0]!.page).toContain('your notes account was not connected to anyone');
    // Quinn never reached the upstream's sign-in, and no call ran as her.
    expect(callers).not.toContain('quinn-upstream');
    // Mallory's own browser completes his own sign-in.
    mallory.client.setRequestHandler('elicitation/create', async (request) => {
      forwarded.push(await browsePage((request.params as { url: string }).url, 'mallory,mallory-upstream'));
      return { action: 'accept' };
    });
    expect(text(await mallory.client.callTool({ name: 'notes__whoami', arguments: {} }))).toBe(
      'upstream sees mallory-upstream',
    );
    expect(forwarded[1]!.page).toMatch(/^200\n[\s\S]*Signed in to notes/);
  }, 120_000);

  test("the upstream URL behind someone's link, or the gateway's own callback, opened in another browser is refused and stores nothing", async () => {
    const gateway = await startGateway();
    const oscar = await person(gateway.url, 'oscar', 'oscar-upstream', false);
    const first = await oscar.client.callTool({ name: 'notes__whoami', arguments: {} });
    const link = /call the tool again: (\S+)/.exec(text(first))![1]!;
    // Oscar passes the gateway's check in his own browser...
    const mine = jar();
    const toIssuer = await mine(link);
    expect(toIssuer.status).toBe(303);
    expect(toIssuer.location!.startsWith(gatewayAs.issuer)).toBe(true);
    const form = await mine(toIssuer.location!);
    const action = /action="([^"]+)"/.exec(form.body)![1]!.replaceAll('&amp;', '&');
    const signedIn = await mine(new URL(action, gatewayAs.issuer).href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'prompt=login&login=oscar&password=x',
    });
    const gatewayCallback = signedIn.location!;
    expect(new URL(gatewayCallback).pathname).toBe('/oauth/gateway/callback');
    // ...the gateway's callback opened in another browser (a login handed over) is refused,
    const elsewhere = await jar()(gatewayCallback);
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toContain('This sign-in was started in another browser.');
    // while in his own it sends him upstream.
    const toUpstream = await mine(gatewayCallback);
    expect(toUpstream.status).toBe(303);
    expect(toUpstream.location!.startsWith(upstreamAs.issuer)).toBe(true);
    // He hands that upstream URL to Pat, who signs in upstream as herself: the gateway refuses to keep it.
    const pat = await browsePage(toUpstream.location!, 'pat-upstream');
    expect(pat.page).toMatch(/^403\n/);
    expect(pat.page).toContain('This sign-in is not yours');
    const again = await oscar.client.callTool({ name: 'notes__whoami', arguments: {} });
    expect(again.isError).toBe(true);
    expect(text(again)).toContain('Open this link in a browser');
    expect(callers).not.toContain('pat-upstream');
  }, 120_000);

  test("in Chromium: the link opened in another person's browser shows the refusal page; in the asker's it completes, with an HttpOnly cookie kept to /oauth/", async () => {
    const gateway = await startGateway();
    const rita = await person(gateway.url, 'rita', 'rita-upstream', false);
    const first = await rita.client.callTool({ name: 'notes__whoami', arguments: {} });
    const link = /call the tool again: (\S+)/.exec(text(first))![1]!;
    const browser = await launchChromium();
    try {
      const signInAs = async (context: import('playwright-core').BrowserContext, login: string) => {
        const page = await context.newPage();
        // The provider's pages ask for a web font; this machine has no network.
        await page.route(/fonts\.googleapis\.com/, (route) => route.abort());
        await page.goto(link);
        await page.fill('input[name="login"]', login);
        await page.fill('input[name="password"]', 'x');
        await page.click('button[type="submit"]');
        return page;
      };
      // Sam, in his own browser, signs in to the gateway as himself: refused, nothing goes upstream.
      const sams = await browser.newContext();
      const samPage = await signInAs(sams, 'sam');
      await samPage.waitForSelector('text=This sign-in link is for someone else');
      expect(new URL(samPage.url()).pathname).toBe('/oauth/gateway/callback');
      expect((await sams.cookies()).map((c) => c.name)).not.toContain('candor_person');
      // Rita, in hers: the gateway's sign-in, then the upstream's (login and consent), then the gateway's page.
      const ritas = await browser.newContext();
      const ritaPage = await signInAs(ritas, 'rita');
      await ritaPage.waitForURL((url) => url.origin === upstreamAs.issuer);
      await ritaPage.fill('input[name="login"]', 'rita-upstream');
      await ritaPage.fill('input[name="password"]', 'x');
      await ritaPage.click('button[type="submit"]');
      await ritaPage.waitForSelector('input[name="prompt"][value="consent"]', { state: 'attached' });
      await ritaPage.click('button[type="submit"]');
      await ritaPage.waitForSelector('text=Signed in to notes');
      const cookie = (await ritas.cookies()).find((c) => c.name === 'candor_person');
      expect(cookie).toMatchObject({ httpOnly: true, path: '/oauth/', sameSite: 'Lax' });
    } finally {
      await browser.close();
    }
    expect(text(await rita.client.callTool({ name: 'notes__whoami', arguments: {} }))).toBe(
      'upstream sees rita-upstream',
    );
    expect(callers).not.toContain('sam-upstream');
  }, 120_000);
});
