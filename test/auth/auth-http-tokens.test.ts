/**
 * candor's HTTP endpoint as an OAuth 2.1 resource server, over real sockets:
 * the metadata, the 401/400 challenges, token verification (a test
 * authorization server on loopback publishes its JWKS and signs real RS256
 * tokens with jose), key rotation, the token cache, introspection and custom
 * verify. Scopes: auth-http-scopes.test.ts.
 */
import { createServer as createHttpServer } from 'node:http';
import fc from 'fast-check';
import { exportSPKI, generateKeyPair, importJWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServer } from '../../src/server/create-server.js';
import { listenHttp } from '../../src/transports/http/listen.js';
import { silentLogger } from '../../src/util/logger.js';
import { authWire } from '../support/auth-wire.js';
import { INITIALIZE, POST_HEADERS } from '../support/http-support.js';
import { NOTE_TOOLS, type ProtectedServer, startProtected } from '../support/protected-server.js';

let p: ProtectedServer;
let metadataUrl: string;
const { sentTokens, bearer, initialize, challenge } = authWire(() => p);

beforeAll(async () => {
  p = await startProtected();
  metadataUrl = `${p.base}/.well-known/oauth-protected-resource/mcp`;
});
afterAll(async () => {
  await p.close();
});

describe('protected resource metadata (RFC 9728)', () => {
  test('is served at the path-suffixed and the root well-known URL', async () => {
    for (const url of [metadataUrl, `${p.base}/.well-known/oauth-protected-resource`]) {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(await response.json()).toEqual({
        resource: p.resource,
        authorization_servers: [p.as.issuer],
        scopes_supported: ['tools:read', 'tools:write', 'tools:destructive'],
        bearer_methods_supported: ['header'],
      });
    }
  });

  test('other well-known paths stay 404, and POST to the metadata is not served', async () => {
    expect((await fetch(`${p.base}/.well-known/oauth-protected-resource/other`)).status).toBe(404);
    expect((await fetch(metadataUrl, { method: 'POST' })).status).toBe(404);
  });

  test('is served by listen() and by the fetch handler too', async () => {
    const server = createServer({
      name: 'n',
      version: '1',
      tools: NOTE_TOOLS,
      logger: silentLogger,
      lintOnStart: false,
      auth: { issuer: 'https://auth.example.com', jwks: { keys: [] }, resource: 'https://mcp.example.com/mcp' },
    });
    const listener = await server.listen({ port: 0, handleSignals: false, env: {} });
    try {
      const base = listener.url.replace(/\/mcp$/, '');
      const document = await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json();
      expect(document.resource).toBe('https://mcp.example.com/mcp');
      const unauthorized = await initialize({}, listener.url);
      expect(unauthorized.status).toBe(401);
      expect(challenge(unauthorized).resource_metadata).toBe(
        'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
      );
      const fetchServer = createServer({
        name: 'n',
        version: '1',
        tools: NOTE_TOOLS,
        logger: silentLogger,
        auth: { issuer: 'https://auth.example.com', jwks: { keys: [] }, resource: 'https://mcp.example.com/mcp' },
      });
      const handler = fetchServer.fetchHandler({ env: {} });
      const viaFetch = await handler(new Request('http://localhost/.well-known/oauth-protected-resource/mcp'));
      expect(viaFetch.status).toBe(200);
      expect((await viaFetch.json()).authorization_servers).toEqual(['https://auth.example.com']);
      const refused = await handler(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: POST_HEADERS,
          body: JSON.stringify(INITIALIZE),
        }),
      );
      expect(refused.status).toBe(401);
      await fetchServer.close();
    } finally {
      await server.close();
    }
  });
});

describe('401 with a challenge when the token is missing or bad', () => {
  test('no token: 401, the metadata URL and the scopes to ask for, no error code (RFC 6750 §3.1)', async () => {
    const response = await initialize({});
    expect(response.status).toBe(401);
    expect(challenge(response)).toEqual({
      resource_metadata: metadataUrl,
      scope: 'tools:read tools:write tools:destructive',
    });
    expect((await response.json()).error.message).toMatch(/Unauthorized/);
  });

  test('GET and DELETE need the token too; a CORS preflight does not', async () => {
    expect((await fetch(p.url, { headers: { accept: 'text/event-stream' } })).status).toBe(401);
    expect((await fetch(p.url, { method: 'DELETE' })).status).toBe(401);
    const preflight = await fetch(p.url, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
  });

  test('another scheme counts as no token; a token in the query string is never read', async () => {
    const basic = await initialize({ authorization: 'Basic dXNlcjpwYXNz' });
    expect(basic.status).toBe(401);
    expect(challenge(basic).error).toBeUndefined();
    const token = await p.as.mint({ scope: 'tools:read' });
    const query = await fetch(`${p.url}?access_token=${token}`, {
      method: 'POST',
      headers: POST_HEADERS,
      body: JSON.stringify(INITIALIZE),
    });
    expect(query.status).toBe(401);
  });

  test('a malformed Authorization header: 400 invalid_request', async () => {
    for (const authorization of ['Bearer', 'Bearer a b', 'Bearer a, Bearer b', 'Bearer "quoted"']) {
      const response = await initialize({ authorization });
      expect(response.status, authorization).toBe(400);
      expect(challenge(response).error).toBe('invalid_request');
    }
  });

  test('a good token is accepted, the scheme in any case', async () => {
    const token = await p.as.mint({ scope: 'tools:read' });
    expect((await initialize(bearer(token))).status).toBe(200);
    sentTokens.push(token);
    expect((await initialize({ authorization: `bearer ${token}` })).status).toBe(200);
  });

  const now = () => Math.floor(Date.now() / 1000);
  const cases: Array<[string, () => Promise<string>, RegExp]> = [
    ['expired', () => p.as.mint({ exp: now() - 60, iat: now() - 400 }), /expired/],
    ['not yet valid', () => p.as.mint({ nbf: now() + 600 }), /not valid yet/],
    ['for another audience', () => p.as.mint({ aud: 'https://other.example.com/mcp' }), /audience/],
    ['from another issuer', () => p.as.mint({ iss: 'https://evil.example.com' }), /another authorization server/],
    ['without exp', () => p.as.mint({ exp: undefined }), /no expiry/],
    [
      'with a tampered payload',
      async () => {
        const [h, , s] = (await p.as.mint({ scope: 'tools:read' })).split('.');
        const payload = Buffer.from(
          JSON.stringify({ iss: p.as.issuer, aud: p.resource, exp: now() + 60, scope: 'tools:destructive' }),
        ).toString('base64url');
        return `${h}.${payload}.${s}`;
      },
      /signature is not valid/,
    ],
    [
      'with alg none',
      async () => {
        const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
        const payload = Buffer.from(
          JSON.stringify({
            iss: p.as.issuer,
            aud: p.resource,
            sub: 'x',
            exp: now() + 60,
            scope: 'tools:read tools:write tools:destructive',
          }),
        ).toString('base64url');
        return `${header}.${payload}.`;
      },
      /not a valid signed JWT|algorithm/,
    ],
    [
      'HS256-signed with the public key (algorithm confusion)',
      async () => {
        const jwk = p.as.currentPublicJwk;
        const pem = await exportSPKI((await importJWK(jwk, 'RS256', { extractable: true })) as CryptoKey);
        return new SignJWT({ iss: p.as.issuer, aud: p.resource, sub: 'x', exp: now() + 60, scope: 'tools:destructive' })
          .setProtectedHeader({ alg: 'HS256', kid: jwk.kid })
          .sign(new TextEncoder().encode(pem));
      },
      /algorithm is not accepted/,
    ],
    [
      'signed by a key the issuer never published',
      async () => {
        const { privateKey } = await generateKeyPair('RS256');
        return new SignJWT({ iss: p.as.issuer, aud: p.resource, sub: 'x', exp: now() + 60 })
          .setProtectedHeader({ alg: 'RS256', kid: 'forged' })
          .sign(privateKey);
      },
      /No key/,
    ],
    ['that is not a JWT at all', async () => 'abc.def.ghi', /not a valid signed JWT/],
  ];

  test.each(cases)('a token %s: 401 invalid_token with a reason', async (_what, make, reason) => {
    const response = await initialize(bearer(await make()));
    expect(response.status).toBe(401);
    const params = challenge(response);
    expect(params.error).toBe('invalid_token');
    expect(params.error_description).toMatch(reason);
    expect(params.resource_metadata).toBe(metadataUrl);
  });
});

describe('the Authorization header, fuzzed over the wire', () => {
  test('any header value gets 400 or 401 with a challenge, never a 5xx, and the server keeps serving', async () => {
    const good = await p.as.mint({ scope: 'tools:read' });
    const [h, b] = good.split('.');
    const value = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ maxLength: 300 }).map((s) => `Bearer ${s}`),
      fc.tuple(fc.base64String(), fc.base64String(), fc.base64String()).map((parts) => `Bearer ${parts.join('.')}`),
      fc.string({ maxLength: 40 }).map((s) => `Bearer ${h}.${b}.${s}`),
      fc.constantFrom('Bearer ', 'bearer\t', 'Basic ', 'Bearer \u0000', `Bearer ${good}, Bearer ${good}`),
    );
    await fc.assert(
      fc.asyncProperty(value, async (authorization) => {
        // fetch refuses header values it cannot send (control characters): those never reach a server.
        try {
          new Headers({ authorization });
        } catch {
          return;
        }
        const response = await initialize({ authorization });
        await response.text();
        expect([400, 401]).toContain(response.status);
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer .*resource_metadata="/);
      }),
      { numRuns: 300 },
    );
    expect((await initialize(bearer(good))).status).toBe(200);
  });
});

describe('key rotation', () => {
  test('a token with a new kid is accepted after the JWKS is fetched again', async () => {
    const old = await p.as.mint({ scope: 'tools:read' });
    expect((await initialize(bearer(old))).status).toBe(200);
    const fetches = p.as.jwksFetches;
    await p.as.rotate({ dropOld: true });
    const fresh = await p.as.mint({ scope: 'tools:read' });
    expect((await initialize(bearer(fresh))).status).toBe(200);
    expect(p.as.jwksFetches).toBe(fetches + 1);
  });

  test('a withdrawn key stops working at once when the token cache is off', async () => {
    const uncached = await startProtected({ auth: () => ({ tokenCacheMs: 0 }) });
    try {
      const old = await uncached.as.mint({ scope: 'tools:read' });
      expect((await initialize(bearer(old), uncached.url)).status).toBe(200);
      await uncached.as.rotate({ dropOld: true });
      expect((await initialize(bearer(await uncached.as.mint({})), uncached.url)).status).toBe(200);
      const stale = await initialize(bearer(old), uncached.url);
      expect(stale.status).toBe(401);
      expect(challenge(stale).error_description).toMatch(/No key/);
    } finally {
      await uncached.close();
    }
  });

  test('unknown kids do not make the server hammer the JWKS (cooldown)', async () => {
    const guarded = await startProtected({ auth: () => ({ jwksCooldownMs: 60_000 }) });
    try {
      const good = await guarded.as.mint({ scope: 'tools:read' });
      expect((await initialize(bearer(good), guarded.url)).status).toBe(200);
      const fetches = guarded.as.jwksFetches;
      for (let i = 0; i < 10; i++) {
        const forged = await guarded.as.mint({}, { kid: `unknown-${i}` });
        expect((await initialize(bearer(forged), guarded.url)).status).toBe(401);
      }
      expect(guarded.as.jwksFetches - fetches).toBeLessThanOrEqual(1);
    } finally {
      await guarded.close();
    }
  });
});

describe('the verified-token cache', () => {
  test('checks a token once, then remembers it, and still honours its exp', async () => {
    let checks = 0;
    const server = createServer({
      name: 'n',
      version: '1',
      tools: NOTE_TOOLS,
      logger: silentLogger,
      lintOnStart: false,
      auth: {
        issuer: 'https://auth.example.com',
        resource: 'http://localhost/mcp',
        verify: async (token) => {
          checks++;
          const exp = Number(token.split('.')[1]);
          return { subject: 's', scopes: ['tools:read'], expiresAt: exp };
        },
      },
    });
    const handler = server.fetchHandler({ env: {} });
    const call = (token: string) =>
      handler(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: { ...POST_HEADERS, authorization: `Bearer ${token}` },
          body: JSON.stringify(INITIALIZE),
        }),
      );
    const soon = `t.${Math.floor(Date.now() / 1000) + 2}`;
    expect((await call(soon)).status).toBe(200);
    expect((await call(soon)).status).toBe(200);
    expect(checks).toBe(1);
    // Past its exp the remembered token is checked again (and refused by verify's own expiry rule).
    await new Promise((resolve) => setTimeout(resolve, Number(soon.split('.')[1]) * 1000 - Date.now() + 50));
    expect((await call(soon)).status).toBe(401);
    expect(checks).toBe(2);
    await server.close();
  });
});

describe('introspection and custom verify', () => {
  test('an RFC 7662 introspection callback decides, with audience and expiry checked', async () => {
    const server = createServer({
      name: 'n',
      version: '1',
      tools: NOTE_TOOLS,
      logger: silentLogger,
      lintOnStart: false,
      auth: {
        authorizationServers: ['https://auth.example.com'],
        resource: 'http://localhost/mcp',
        introspect: async (token) => {
          const now = Math.floor(Date.now() / 1000);
          if (token === 'good')
            return { active: true, sub: 'bob', scope: 'tools:read', aud: 'http://localhost/mcp', exp: now + 60 };
          if (token === 'other-aud') return { active: true, scope: 'tools:read', aud: 'https://x', exp: now + 60 };
          if (token === 'expired')
            return { active: true, scope: 'tools:read', aud: 'http://localhost/mcp', exp: now - 60 };
          if (token === 'boom') throw new Error('introspection endpoint down');
          return { active: false };
        },
      },
    });
    const handler = server.fetchHandler({ env: {} });
    const call = (token: string) =>
      handler(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: { ...POST_HEADERS, authorization: `Bearer ${token}` },
          body: JSON.stringify(INITIALIZE),
        }),
      );
    expect((await call('good')).status).toBe(200);
    for (const [token, reason] of [
      ['inactive', /not active/],
      ['other-aud', /audience/],
      ['expired', /expired/],
    ] as const) {
      const response = await call(token);
      expect(response.status, token).toBe(401);
      expect(challenge(response).error_description).toMatch(reason);
    }
    // The authorization server being down is the server's problem: 503, not a new OAuth flow.
    expect((await call('boom')).status).toBe(503);
    await server.close();
  });

  test('a custom verify callback decides; refusing or throwing is invalid_token', async () => {
    const server = createServer({
      name: 'n',
      version: '1',
      tools: NOTE_TOOLS,
      logger: silentLogger,
      lintOnStart: false,
      auth: {
        issuer: 'https://auth.example.com',
        resource: 'http://localhost/mcp',
        verify: async (token) => {
          if (token === 'throw') throw new Error('nope');
          return token === 'ok' ? { subject: 's', scopes: ['tools:read'] } : undefined;
        },
      },
    });
    const handler = server.fetchHandler({ env: {} });
    const call = (token: string) =>
      handler(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: { ...POST_HEADERS, authorization: `Bearer ${token}` },
          body: JSON.stringify(INITIALIZE),
        }),
      );
    expect((await call('ok')).status).toBe(200);
    expect((await call('no')).status).toBe(401);
    expect((await call('throw')).status).toBe(401);
    await server.close();
  });

  test('the JWKS is found through the issuer metadata (RFC 8414) when jwks is not given', async () => {
    const discovered = await startProtected({ auth: () => ({ jwks: undefined }) });
    try {
      const token = await discovered.as.mint({ scope: 'tools:read' });
      expect((await initialize(bearer(token), discovered.url)).status).toBe(200);
      expect(discovered.as.jwksFetches).toBe(1);
    } finally {
      await discovered.close();
    }
  });

  test('an unreachable JWKS is a 503, and the server keeps serving', async () => {
    const dead = createHttpServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const port = (dead.address() as { port: number }).port;
    await new Promise((resolve) => dead.close(resolve));
    const server = createServer({
      name: 'n',
      version: '1',
      tools: NOTE_TOOLS,
      logger: silentLogger,
      lintOnStart: false,
      auth: {
        issuer: 'https://auth.example.com',
        jwks: `http://127.0.0.1:${port}/jwks`,
        resource: 'http://localhost/mcp',
      },
    });
    const listener = await listenHttp({ dispatcher: server.dispatcher, authorizer: server.auth, port: 0, env: {} });
    try {
      const token = await p.as.mint({});
      const response = await initialize(bearer(token), listener.url);
      expect(response.status).toBe(503);
      expect((await initialize({}, listener.url)).status).toBe(401);
    } finally {
      await listener.close();
      await server.close();
    }
  });

  test('bad configuration fails at createServer with a clear message', () => {
    const make = (auth: object) => () =>
      createServer({ name: 'n', version: '1', logger: silentLogger, auth: auth as never });
    expect(make({ issuer: 'https://a' })).toThrow(/resource/);
    expect(make({ issuer: 'https://a', resource: 'https://m/mcp#x' })).toThrow(/fragment/);
    expect(make({ resource: 'https://m/mcp' })).toThrow(/issuer or authorizationServers/);
    expect(make({ authorizationServers: ['https://a'], resource: 'https://m/mcp' })).toThrow(/issuer or jwks/);
    expect(make({ issuer: 'https://a', resource: 'https://m/mcp', algorithms: ['HS256'] })).toThrow(/not accepted/);
    expect(() =>
      createServer({
        name: 'n',
        version: '1',
        logger: silentLogger,
        auth: { issuer: 'https://a', resource: 'https://m/mcp' },
        modern: { cache: { lists: { scope: 'public' } } },
      }),
    ).toThrow(/cannot be "public"/);
  });
});

describe('secrets', () => {
  test('no token this file sent appears in any server log line', () => {
    expect(sentTokens.length).toBeGreaterThan(3);
    const joined = p.logs.join('\n');
    for (const token of sentTokens) expect(joined.includes(token)).toBe(false);
  });
});
