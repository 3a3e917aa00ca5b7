/**
 * A misbehaving server side meets candor's OAuth client: malformed metadata,
 * an authorization server on plain HTTP off this machine, a redirect to another port,
 * a token answer without `access_token`. Each gives one clear error, and the stored
 * sign-ins of other servers stay byte for byte as they were.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../support/cli-harness.js';
import { BROWSER_SCRIPT } from '../support/oauth-client-fixture.js';

type Handler = (req: IncomingMessage, res: ServerResponse, base: string) => boolean;

/** A loopback server whose answers each test chooses. */
async function fakeServer(handler: Handler): Promise<{ base: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (!handler(req, res, base)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(typeof body === 'string' ? body : JSON.stringify(body));

/** The MCP endpoint's 401 and its resource metadata, pointing at `authorizationServer`. */
function protectedResource(authorizationServer: (base: string) => string, prm?: (base: string) => unknown): Handler {
  return (req, res, base) => {
    if (req.url === '/mcp') {
      res
        .writeHead(401, {
          'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="notes"`,
        })
        .end();
      return true;
    }
    if (req.url === '/.well-known/oauth-protected-resource/mcp') {
      json(res, 200, prm ? prm(base) : { resource: `${base}/mcp`, authorization_servers: [authorizationServer(base)] });
      return true;
    }
    return false;
  };
}

const KEPT = {
  version: 1,
  signIns: {
    'https://other.example/mcp': {
      resource: 'https://other.example/mcp',
      issuer: 'https://auth.other.example',
      client: { client_id: 'kept' },
      tokens: { access_token: 'kept-access', token_type: 'Bearer', refresh_token: 'kept-refresh' },
    },
  },
};

describe('bad answers from the server side', () => {
  let dir: string;
  let credentials: string;
  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(path.join(tmpdir(), 'candor-oauth-bad-'));
    credentials = path.join(dir, 'candor', 'credentials.json');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function login(url: string): Promise<{ code: number | null; stderr: string }> {
    mkdirSync(path.dirname(credentials), { recursive: true });
    writeFileSync(credentials, JSON.stringify(KEPT));
    const result = await runCli(['auth', 'login', url, '--timeout', '20'], {
      env: { CANDOR_CREDENTIALS: credentials, BROWSER: BROWSER_SCRIPT },
      timeoutMs: 60_000,
    });
    const after = JSON.parse(readFileSync(credentials, 'utf8'));
    expect(after.signIns['https://other.example/mcp']).toEqual(KEPT.signIns['https://other.example/mcp']);
    // Whatever else was saved (a registered client), no tokens came of it.
    for (const entry of Object.values(after.signIns) as Array<{ resource: string; tokens?: unknown }>) {
      if (entry.resource !== 'https://other.example/mcp') expect(entry.tokens).toBeUndefined();
    }
    return result;
  }

  it('malformed resource metadata', async () => {
    const server = await fakeServer(
      protectedResource(
        () => '',
        () => '{"resource": ',
      ),
    );
    try {
      const result = await login(`${server.base}/mcp`);
      expect(result.code).toBe(1);
      expect(result.stderr.split('\n')[0]).toMatch(/^candor: 127\.0\.0\.1:\d+\/mcp: /);
      expect(result.stderr).toMatch(/JSON|metadata/i);
    } finally {
      await server.close();
    }
  });

  it('an authorization server on plain http:// that is not this machine is refused', async () => {
    const server = await fakeServer(protectedResource(() => 'http://auth.example.com'));
    try {
      const result = await login(`${server.base}/mcp`);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('OAuth traffic goes only over https://');
      expect(result.stderr).toContain('http://auth.example.com');
    } finally {
      await server.close();
    }
  });

  it('a metadata redirect to another port is not followed', async () => {
    const elsewhere = await fakeServer((_req, res) => {
      json(res, 200, { issuer: 'x' });
      return true;
    });
    const server = await fakeServer((req, res, base) => {
      if (req.url?.startsWith('/.well-known/oauth-authorization-server')) {
        res.writeHead(302, { location: `${elsewhere.base}/.well-known/oauth-authorization-server` }).end();
        return true;
      }
      if (req.url?.startsWith('/.well-known/openid-configuration')) {
        res.writeHead(302, { location: `${elsewhere.base}/.well-known/openid-configuration` }).end();
        return true;
      }
      return protectedResource((b) => b)(req, res, base);
    });
    try {
      const result = await login(`${server.base}/mcp`);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`Refusing a redirect from ${server.base} to ${elsewhere.base}`);
    } finally {
      await server.close();
      await elsewhere.close();
    }
  });

  it('a token answer without access_token', async () => {
    const server = await fakeServer((req, res, base) => {
      const url = new URL(req.url ?? '/', base);
      if (url.pathname === '/.well-known/oauth-authorization-server') {
        json(res, 200, {
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
        });
        return true;
      }
      if (url.pathname === '/register') {
        let body = '';
        req.on('data', (c: Buffer) => {
          body += c.toString();
        });
        req.on('end', () => json(res, 201, { ...JSON.parse(body), client_id: 'registered' }));
        return true;
      }
      if (url.pathname === '/authorize') {
        const back = new URL(url.searchParams.get('redirect_uri')!);
        back.searchParams.set('code', 'the-code');
        back.searchParams.set('state', url.searchParams.get('state')!);
        res.writeHead(302, { location: back.href }).end();
        return true;
      }
      if (url.pathname === '/token') {
        json(res, 200, { token_type: 'Bearer', expires_in: 60 });
        return true;
      }
      return protectedResource((b) => b)(req, res, base);
    });
    try {
      const result = await login(`${server.base}/mcp`);
      expect(result.code).toBe(1);
      const line = result.stderr.split('\n').find((l) => l.startsWith('candor: '));
      expect(line).toMatch(/^candor: 127\.0\.0\.1:\d+\/mcp: the authorization server's token answer cannot be used: /);
      expect(line).toContain('access_token');
    } finally {
      await server.close();
    }
  });

  it('a credentials file that is not JSON is named and left alone', async () => {
    mkdirSync(path.dirname(credentials), { recursive: true });
    writeFileSync(credentials, '{ not json');
    const result = await runCli(['auth', 'status'], { env: { CANDOR_CREDENTIALS: credentials } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`The credentials file ${credentials} cannot be used: it is not valid JSON`);
    expect(readFileSync(credentials, 'utf8')).toBe('{ not json');
  });

  it('bad command lines: a stdio target, no target, a bad timeout', async () => {
    const stdio = await runCli(['auth', 'login', '--', 'node', 'x.js']);
    expect(stdio.code).toBe(2);
    const none = await runCli(['auth', 'login']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("missing required argument 'target'");
    const timeout = await runCli(['auth', 'login', 'http://127.0.0.1:9/mcp', '--timeout', 'soon']);
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toContain('--timeout must be a positive number of seconds');
  });
});

describe('a gateway upstream with "auth": "oauth-per-user"', () => {
  it('is refused over stdio (no one to tell apart), naming --auth-issuer and the shared "oauth" instead', async () => {
    ensureBuilt();
    const dir = mkdtempSync(path.join(tmpdir(), 'candor-oauth-per-user-'));
    try {
      writeFileSync(
        path.join(dir, 'candor.gateway.json'),
        JSON.stringify({ servers: { linear: { url: 'https://mcp.linear.app/mcp', auth: 'oauth-per-user' } } }),
      );
      const result = await runCli(['gateway', '--config', 'candor.gateway.json', '--stdio'], { cwd: dir });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('linear: "oauth-per-user" signs each person in separately');
      expect(result.stderr).toContain('run it over HTTP with --auth-issuer');
      expect(result.stderr).toContain('use "oauth"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
