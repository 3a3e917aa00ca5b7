/**
 * Authorization cost: how long candor's resource server takes to
 * verify a bearer token (RS256 and ES256 JWTs, keys from a JWKS fetched once
 * over loopback and cached), in µs per request, in process; then tools/call
 * req/s over HTTP (2026-07-28 era) with auth on against auth off, in one run.
 *
 * BENCH_SECONDS / BENCH_CONNECTIONS tune the HTTP load (defaults 10 s, 32).
 */
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { createResourceServer, defineTool, ToolRegistry } from '../dist/src/index.js';
import {
  BENCH_CONNECTIONS,
  BENCH_SECONDS,
  load,
  MODERN_ECHO_CALL,
  MODERN_ECHO_HEADERS,
  post,
  startServer,
  table,
} from './_harness.js';

const ISSUER = 'https://auth.bench.example';
const RESOURCE = 'http://127.0.0.1/mcp';

async function keyPair(alg: 'RS256' | 'ES256', kid: string) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { alg, kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

async function mint(key: Awaited<ReturnType<typeof keyPair>>, scope: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: ISSUER, aud: RESOURCE, sub: 'bench', scope, iat: now, exp: now + 3600 })
    .setProtectedHeader({ alg: key.alg, kid: key.kid })
    .sign(key.privateKey);
}

const rsa = await keyPair('RS256', 'rsa-1');
const ec = await keyPair('ES256', 'ec-1');
const jwks = { keys: [rsa.jwk, ec.jwk] };

// 1. In process: authenticate() with the JWKS served on loopback and cached after the first fetch.
let fetches = 0;
const jwksServer = createHttpServer((_req, res) => {
  fetches++;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(jwks));
});
await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
const tools = new ToolRegistry().add(
  defineTool({ name: 'echo', description: 'Echo.', effect: 'read', world: 'closed', handler: () => 'x' }),
);
const jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks`;
/** The default (verified tokens remembered for 60 s) and every request checked (tokenCacheMs: 0). */
const remembering = createResourceServer({ issuer: ISSUER, resource: RESOURCE, jwks: jwksUrl, tools });
const checking = createResourceServer({ issuer: ISSUER, resource: RESOURCE, jwks: jwksUrl, tools, tokenCacheMs: 0 });

async function perRequest(authorizer: typeof checking, header: (name: string) => string | undefined, n: number) {
  const first = await authorizer.authenticate(header);
  if (!('auth' in first) && header('authorization') !== undefined) {
    throw new Error(`the token was refused: ${JSON.stringify(first)}`);
  }
  for (let i = 0; i < n / 10; i++) await authorizer.authenticate(header); // warm up
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await authorizer.authenticate(header);
  return (Number(process.hrtime.bigint() - started) / 1000 / n).toFixed(1);
}

const rows: string[][] = [];
for (const [label, key] of [
  ['RS256 (2048-bit)', rsa],
  ['ES256 (P-256)', ec],
] as const) {
  const header = `Bearer ${await mint(key, 'tools:read')}`;
  const headers = (name: string) => (name === 'authorization' ? header : undefined);
  rows.push([label, await perRequest(checking, headers, 10_000), await perRequest(remembering, headers, 100_000)]);
}
const missing = (_name: string) => undefined;
const noToken = await perRequest(checking, missing, 100_000);
rows.push(['no token (401 challenge)', noToken, noToken]);
jwksServer.close();
table(
  `Token verification, µs per request, JWKS cached (fetched ${fetches} time(s) in all, once per resource server)`,
  ['token', 'signature checked every request', 'default (verified token remembered)'],
  rows,
);

// 2. Over HTTP: modern tools/call, auth off (candor.ts) against auth on (candor-auth.ts).
const body = MODERN_ECHO_CALL;
const token = await mint(ec, 'tools:read');
const modernHeaders = MODERN_ECHO_HEADERS;
const env = { BENCH_AUTH_ISSUER: ISSUER, BENCH_AUTH_RESOURCE: RESOURCE, BENCH_AUTH_JWKS: JSON.stringify(jwks) };
const runs = [
  { label: 'auth off', file: 'candor.ts', headers: modernHeaders },
  {
    label: 'auth on (ES256 JWT)',
    file: 'candor-auth.ts',
    headers: { ...modernHeaders, authorization: `Bearer ${token}` },
  },
];
const httpRows: string[][] = [];
const rates: number[] = [];
for (const run of runs) {
  const server = await startServer(run.file, ['1'], env);
  try {
    const probe = await post(server.url, body, run.headers);
    if (probe.status !== 200 || probe.json?.result?.content?.[0]?.text !== 'hello') {
      throw new Error(`${run.label} did not answer: ${probe.status} ${JSON.stringify(probe.json)}`);
    }
    const result = await load({
      url: server.url,
      body: JSON.stringify(body),
      headers: run.headers,
      seconds: BENCH_SECONDS,
      connections: BENCH_CONNECTIONS,
    });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${run.label}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    rates.push(result.requestsPerSecond);
    httpRows.push([
      run.label,
      result.requestsPerSecond.toFixed(0),
      `${result.latencyP50} ms`,
      `${result.latencyP99} ms`,
    ]);
  } finally {
    await server.stop();
  }
}
httpRows.push(['ratio on/off', `${((rates[1]! / rates[0]!) * 100).toFixed(0)}%`, '', '']);
table(
  `tools/call over HTTP, 2026-07-28 (${BENCH_SECONDS} s, ${BENCH_CONNECTIONS} connections)`,
  ['server', 'req/s', 'p50', 'p99'],
  httpRows,
);
