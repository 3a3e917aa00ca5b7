/**
 * A tiny OAuth 2.1 authorization server for the auth tests, on 127.0.0.1 port
 * 0: RFC 8414 metadata, a JWKS endpoint (keys generated with jose; `rotate()`
 * swaps in a new `kid`), and a client_credentials token endpoint
 * (client_secret_basic, RFC 8707 `resource`) that issues RS256 JWT access
 * tokens with the scopes the client may have. `mint()` signs tokens directly
 * for the negative cases. With `people`, it also signs people in: RFC 7591
 * registration of public clients, and the authorization code flow (PKCE S256) through
 * a login form shaped like oidc-provider's development one, so the scripted browser
 * drives both.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

/** A registered client: its secret and the scopes it may be given. */
export interface TestClient {
  secret: string;
  scopes: readonly string[];
}

export interface TestAuthorizationServer {
  readonly issuer: string;
  readonly jwksUri: string;
  /** How many times the JWKS was fetched. */
  readonly jwksFetches: number;
  /** Tokens issued by the token endpoint. */
  readonly issued: number;
  /** Sign a token with the current key; claims override the defaults (iss, aud, exp in 5 min, sub). */
  mint(claims?: JWTPayload, header?: { kid?: string; alg?: string }): Promise<string>;
  /** Add a new key (new kid) and make it current; the old one leaves the JWKS when `dropOld`. */
  rotate(options?: { dropOld?: boolean }): Promise<string>;
  /** The current key's public JWK (for algorithm-confusion tokens). */
  readonly currentPublicJwk: JWK;
  close(): Promise<void>;
}

let kids = 0;

async function newKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `test-key-${++kids}`;
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  return { kid, privateKey, publicJwk };
}

/**
 * Start the authorization server.
 *
 * @example
 * ```ts
 * const as = await startAuthorizationServer({ resource: 'http://127.0.0.1:1234/mcp', clients: { bot: { secret: 's', scopes: ['tools:read'] } } });
 * const token = await as.mint({ scope: 'tools:read' });
 * ```
 */
export async function startAuthorizationServer(options: {
  /** The audience of issued tokens (the MCP server's resource URI). */
  resource: string;
  clients?: Record<string, TestClient>;
  /** Sign people in with the code flow; their tokens name `audience` (default the `resource` asked for). */
  people?: { audience?: string };
}): Promise<TestAuthorizationServer> {
  const registered = new Map<string, { redirectUris: string[] }>();
  const codes = new Map<string, { client: string; redirectUri: string; challenge: string; sub: string }>();
  let keys = [await newKey()];
  let jwksFetches = 0;
  let issued = 0;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && url.pathname === '/.well-known/oauth-authorization-server') {
      json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        grant_types_supported: ['client_credentials', ...(options.people ? ['authorization_code'] : [])],
        token_endpoint_auth_methods_supported: ['client_secret_basic', ...(options.people ? ['none'] : [])],
        ...(options.people ? { registration_endpoint: `${issuer}/register` } : {}),
        response_types_supported: ['code'],
        code_challenge_methods_supported: ['S256'],
      });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/jwks') {
      jwksFetches++;
      json(200, { keys: keys.map((k) => k.publicJwk) });
      return;
    }
    if (options.people && people(req, url, res)) return;
    if (req.method === 'POST' && url.pathname === '/token') {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        void token(req.headers.authorization, new URLSearchParams(body)).then(
          ([status, answer]) => json(status, answer),
          (error) => json(500, { error: 'server_error', error_description: String(error) }),
        );
      });
      return;
    }
    json(404, { error: 'not_found' });
  });

  /** Registration, the login form and its answer; false when the request is none of those. */
  function people(req: IncomingMessage, url: URL, res: import('node:http').ServerResponse): boolean {
    const q = url.searchParams;
    const client = registered.get(q.get('client_id') ?? '');
    if (req.method === 'POST' && url.pathname === '/register') {
      void bodyOf(req).then((text) => {
        const metadata = JSON.parse(text) as { redirect_uris: string[] };
        const id = `client-${randomBytes(6).toString('hex')}`;
        registered.set(id, { redirectUris: metadata.redirect_uris });
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ ...metadata, client_id: id, token_endpoint_auth_method: 'none' }));
      });
      return true;
    }
    if (url.pathname !== '/authorize' && url.pathname !== '/authorize/login') return false;
    const redirectUri = q.get('redirect_uri') ?? '';
    if (!client?.redirectUris.includes(redirectUri) || q.get('code_challenge_method') !== 'S256') {
      res.writeHead(400).end('unknown client, redirect_uri or PKCE method');
      return true;
    }
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        `<form method="post" action="/authorize/login?${q.toString().replaceAll('&', '&amp;')}">` +
          '<input type="hidden" name="prompt" value="login"><input name="login"><input name="password" type="password">' +
          '<button type="submit">Sign in</button></form>',
      );
      return true;
    }
    void bodyOf(req).then((text) => {
      const code = randomBytes(16).toString('base64url');
      const sub = new URLSearchParams(text).get('login') ?? '';
      codes.set(code, { client: q.get('client_id')!, redirectUri, challenge: q.get('code_challenge')!, sub });
      const back = new URL(redirectUri);
      back.search = new URLSearchParams({ code, state: q.get('state') ?? '', iss: issuer }).toString();
      res.writeHead(302, { location: back.href }).end();
    });
    return true;
  }

  async function codeGrant(form: URLSearchParams): Promise<[number, unknown]> {
    const code = codes.get(form.get('code') ?? '');
    codes.delete(form.get('code') ?? '');
    const verifier = form.get('code_verifier') ?? '';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (!code || code.client !== form.get('client_id') || code.redirectUri !== form.get('redirect_uri'))
      return [400, { error: 'invalid_grant' }];
    if (challenge !== code.challenge) return [400, { error: 'invalid_grant', error_description: 'PKCE' }];
    const aud = options.people?.audience ?? form.get('resource') ?? options.resource;
    issued++;
    const accessToken = await mint({ sub: code.sub, aud, client_id: code.client });
    return [200, { access_token: accessToken, token_type: 'Bearer', expires_in: 300 }];
  }

  async function token(authorization: string | undefined, form: URLSearchParams): Promise<[number, unknown]> {
    if (options.people && form.get('grant_type') === 'authorization_code') return codeGrant(form);
    const basic = /^Basic (.+)$/.exec(authorization ?? '');
    const [id, secret] = basic
      ? Buffer.from(basic[1]!, 'base64').toString('utf8').split(':').map(decodeURIComponent)
      : [form.get('client_id') ?? '', form.get('client_secret') ?? ''];
    const client = options.clients?.[id ?? ''];
    if (client === undefined || client.secret !== secret) return [401, { error: 'invalid_client' }];
    if (form.get('grant_type') !== 'client_credentials') return [400, { error: 'unsupported_grant_type' }];
    const resource = form.get('resource');
    if (resource !== null && resource !== options.resource) return [400, { error: 'invalid_target' }];
    const asked = (form.get('scope') ?? client.scopes.join(' ')).split(' ').filter((s) => s.length > 0);
    const granted = asked.filter((s) => client.scopes.includes(s));
    issued++;
    const accessToken = await mint({ sub: `client:${id}`, client_id: id, scope: granted.join(' ') });
    return [200, { access_token: accessToken, token_type: 'Bearer', expires_in: 300, scope: granted.join(' ') }];
  }

  async function mint(claims: JWTPayload = {}, header: { kid?: string; alg?: string } = {}): Promise<string> {
    const key = keys[keys.length - 1]!;
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: issuer, aud: options.resource, sub: 'user-1', iat: now, exp: now + 300, ...claims })
      .setProtectedHeader({ alg: header.alg ?? 'RS256', kid: header.kid ?? key.kid, typ: 'at+jwt' })
      .sign(key.privateKey);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    get jwksFetches() {
      return jwksFetches;
    },
    get issued() {
      return issued;
    },
    get currentPublicJwk() {
      return keys[keys.length - 1]!.publicJwk;
    },
    mint,
    async rotate({ dropOld = true } = {}) {
      const key = await newKey();
      keys = dropOld ? [key] : [...keys, key];
      return key.kid;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function bodyOf(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => resolve(body));
  });
}
