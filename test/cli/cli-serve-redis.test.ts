/**
 * `candor serve --redis` through the built binary: the workspace
 * example as a protected, multi-instance service without writing code — two
 * `candor serve` processes sharing one real Redis and one authorization
 * server, behind a real haproxy (round robin, health checks on /readyz) — and
 * clear refusals of a bad URL.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, type ServeProcess, startServe } from '../support/cli-harness.js';
import { startHaproxy } from '../support/haproxy.js';
import { INITIALIZE, POST_HEADERS } from '../support/http-support.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';
import { startAuthorizationServer, type TestAuthorizationServer } from '../support/test-authorization-server.js';

const RESOURCE = 'http://mcp.test/mcp';
let as: TestAuthorizationServer;
let redis: RedisServer;

beforeAll(async () => {
  ensureBuilt();
  [as, redis] = await Promise.all([startAuthorizationServer({ resource: RESOURCE }), startRedis()]);
});
afterAll(async () => {
  await Promise.all([as?.close(), redis?.stop()]);
});

describe('candor serve --redis', () => {
  it('two protected workspace instances share sessions, bound to the principal that opened them', async () => {
    const args = [
      '--example',
      'workspace',
      '--redis',
      redis.url,
      '--auth-issuer',
      as.issuer,
      '--auth-resource',
      RESOURCE,
    ];
    const served: ServeProcess[] = await Promise.all([startServe(args), startServe(args)]);
    const proxy = await startHaproxy(served.map((s, i) => ({ name: `i${i}`, origin: new URL(s.url).origin })));
    try {
      for (const s of served)
        expect(s.stderr()).toMatch(/shared state on Redis at redis:\/\/127\.0\.0\.1:\d+ \(instance [0-9a-f]{8}\)/);
      const token = await as.mint({ scope: 'tools:read tools:write', sub: 'ada' });
      await proxy.waitForBackends(['i0', 'i1']);
      const client = new Client({ name: 'cli-redis', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(proxy.url), {
          fetch: proxy.fetch,
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      for (let i = 0; i < 4; i++) {
        const listed = await client.callTool({ name: 'list_directory', arguments: { path: '.' } });
        expect(listed.isError).toBeFalsy();
      }
      expect(new Set(proxy.routed.filter((r) => r.rpc === 'tools/call').map((r) => r.backend))).toEqual(
        new Set(['i0', 'i1']),
      );
      // Another user with the session id gets "not found" on either instance (the binding is shared).
      const session = (client.transport as StreamableHTTPClientTransport).sessionId!;
      const intruder = await as.mint({ scope: 'tools:read tools:write', sub: 'mallory' });
      for (const s of served) {
        const stolen = await fetch(s.url, {
          method: 'POST',
          headers: {
            ...POST_HEADERS,
            authorization: `Bearer ${intruder}`,
            'mcp-session-id': session,
            'mcp-protocol-version': '2025-11-25',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
        });
        expect(stolen.status).toBe(404);
      }
      await client.close();
      // The probes answer without a token (for load balancers), and say Redis is up.
      expect(await (await fetch(`${new URL(served[0]!.url).origin}/readyz`)).json()).toEqual({
        status: 'ready',
        redis: 'up',
      });
    } finally {
      await proxy.close();
      await Promise.all(served.map((s) => s.stop()));
    }
  });

  it('SIGTERM drains: a call in flight finishes, /readyz says draining, new sessions are refused, exit 0', async () => {
    const served = await startServe(['--example', 'workspace', '--redis', redis.url]);
    const origin = new URL(served.url).origin;
    const client = new Client({ name: 'drain', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
    const running = client.callTool({ name: 'run_command', arguments: { argv: ['sleep', '1.5'] } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopped = served.stop('SIGTERM');
    await expect.poll(() => served.stderr(), { timeout: 5000 }).toContain('SIGTERM received');
    const ready = await fetch(`${origin}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'draining', redis: 'up' });
    const late = await fetch(served.url, { method: 'POST', headers: POST_HEADERS, body: JSON.stringify(INITIALIZE) });
    expect(late.status).toBe(503);
    const result = await running;
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toMatch(/exit(?:ed| code)[^0-9]*0/i);
    expect(await stopped).toBe(0);
    await expect(fetch(`${origin}/healthz`)).rejects.toThrow();
  });

  it('refuses a --redis that is not a redis:// URL, without echoing its password', async () => {
    const bad = await runCli([
      'serve',
      '--example',
      'workspace',
      '--http',
      '0',
      '--redis',
      'http://user:hunter2@db:6379',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not a redis://, rediss:// or redis+cluster:// URL');
    expect(bad.stderr).not.toContain('hunter2');
    const gateway = await runCli(['gateway', '--http', '0', '--redis', 'nonsense', '--', 'node', '-e', '0']);
    expect(gateway.code).toBe(2);
    expect(gateway.stderr).toContain('--redis: "nonsense" is not a URL');
  });
});
