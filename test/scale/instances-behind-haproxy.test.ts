/**
 * Several real instances of one server sharing a real Redis,
 * behind a real haproxy (round robin, no stickiness, health checks on
 * /readyz;): sessions, resumable
 * streams, tool toggles, rate limits and elicitation answers work wherever a
 * request lands, and an instance can die without taking sessions with it.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type Instance, killInstance, startInstance as launchInstance } from '../support/cluster-instances.js';
import { type Balancer, startHaproxy } from '../support/haproxy.js';
import { INITIALIZE, messagesOf, POST_HEADERS, readSse, type SseEvent } from '../support/http-support.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';

let redis: RedisServer;
let inspect: Redis;
const running: Instance[] = [];
const closers: Array<() => Promise<unknown> | unknown> = [];

beforeAll(async () => {
  redis = await startRedis();
  inspect = new Redis(redis.url, { maxRetriesPerRequest: 1 });
  inspect.on('error', () => {}); // the outage tests stop Redis on purpose
});
afterAll(async () => {
  inspect?.disconnect();
  await redis?.stop();
});
beforeEach(async () => {
  redis.resume();
  await inspect.flushall();
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await Promise.all(running.splice(0).map(stop));
});

async function startInstance(name: string, env: Record<string, string> = {}): Promise<Instance> {
  const instance = await launchInstance(name, { REDIS_URL: redis.url, ...env });
  running.push(instance);
  return instance;
}

const stop = killInstance;

/** The balancer of the running test: raw requests to its URL go through its recording fetch. */
let balancer: Balancer | undefined;

async function cluster(
  count = 2,
  env: Record<string, string> = {},
): Promise<{ instances: Instance[]; proxy: Balancer }> {
  const instances = await Promise.all(Array.from({ length: count }, (_, i) => startInstance(`i${i}`, env)));
  const proxy = await startHaproxy(instances.map((i) => ({ name: i.name, origin: i.base })));
  balancer = proxy;
  closers.push(() => {
    balancer = undefined;
    return proxy.close();
  });
  await proxy.waitForBackends(instances.map((i) => i.name));
  return { instances, proxy };
}

const fetchFor = (url: string): typeof fetch =>
  balancer !== undefined && url === balancer.url ? balancer.fetch : fetch;

const text = (result: unknown) => (result as { content: Array<{ text?: string }> }).content[0]?.text;

async function rawInitialize(url: string, version = '2025-11-25'): Promise<string> {
  const response = await fetchFor(url)(url, {
    method: 'POST',
    headers: POST_HEADERS,
    body: JSON.stringify({ ...INITIALIZE, params: { ...INITIALIZE.params, protocolVersion: version } }),
  });
  expect(response.status).toBe(200);
  await response.text();
  const session = response.headers.get('mcp-session-id')!;
  await rawPost(url, session, { jsonrpc: '2.0', method: 'notifications/initialized' });
  return session;
}

function rawPost(url: string, session: string, body: unknown, version = '2025-11-25'): Promise<Response> {
  return fetchFor(url)(url, {
    method: 'POST',
    headers: { ...POST_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': version },
    body: JSON.stringify(body),
  });
}

async function rawCall(url: string, session: string, name: string, args: Record<string, unknown> = {}) {
  const response = await rawPost(url, session, {
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name, arguments: args },
  });
  const type = response.headers.get('content-type') ?? '';
  const body = type.includes('event-stream')
    ? messagesOf(await readSse(response)).find((m) => m.id === 7)
    : ((await response.json()) as Record<string, any>);
  return { status: response.status, body };
}

describe('sessions across instances', () => {
  test.each([
    ['SDK v2', 'v2'],
    ['SDK v1', 'v1'],
  ] as const)('an %s client keeps its session while the balancer alternates instances', async (_name, sdk) => {
    const { proxy } = await cluster(2);
    const options = { fetch: proxy.fetch };
    const transport =
      sdk === 'v2' ? new TransportV2(new URL(proxy.url), options) : new TransportV1(new URL(proxy.url), options);
    const client =
      sdk === 'v2'
        ? new ClientV2({ name: 'cluster-test', version: '1.0.0' })
        : new ClientV1({ name: 'cluster-test', version: '1.0.0' });
    await client.connect(transport as never);
    closers.push(() => client.close());
    const answered = new Set<string>();
    for (let i = 0; i < 6; i++) answered.add(text(await client.callTool({ name: 'whoami', arguments: {} }))!);
    for (let i = 0; i < 3; i++) {
      expect(text(await client.callTool({ name: 'echo', arguments: { text: `n${i}` } }))).toBe(`n${i}`);
    }
    // Both instances answered calls of the one session that only one of them opened: no affinity needed.
    expect([...answered].sort()).toEqual(['i0', 'i1']);
    const calls = proxy.routed.filter((r) => r.rpc === 'tools/call');
    expect(new Set(calls.map((r) => r.backend))).toEqual(new Set(['i0', 'i1']));
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('whoami');
  });

  test('a session ended with DELETE on one instance is gone on the other', async () => {
    const { instances } = await cluster(2);
    const [a, b] = instances as [Instance, Instance];
    const session = await rawInitialize(a.url);
    // b learns the session from Redis and caches it.
    expect((await rawCall(b.url, session, 'whoami')).body?.result?.content[0].text).toBe('i1');
    const deleted = await fetch(a.url, {
      method: 'DELETE',
      headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    });
    expect(deleted.status).toBe(200);
    await expect.poll(async () => (await rawCall(b.url, session, 'whoami')).status, { timeout: 5000 }).toBe(404);
    expect((await rawCall(a.url, session, 'whoami')).status).toBe(404);
  });

  test('a session id no instance issued is 404 everywhere', async () => {
    const { proxy } = await cluster(2);
    for (let i = 0; i < 2; i++) expect((await rawCall(proxy.url, crypto.randomUUID(), 'whoami')).status).toBe(404);
  });
});

describe('server→client requests across instances', () => {
  test('an elicitation answered through the other instance completes the call', async () => {
    const { proxy } = await cluster(2);
    const client = new ClientV2({ name: 'cluster-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Ada' } }));
    // The call goes to i0; the client's answer (its own POST) to i1.
    proxy.policy = ({ rpc }) => (rpc === 'tools/call' ? 'i0' : rpc === 'response' ? 'i1' : undefined);
    await client.connect(new TransportV2(new URL(proxy.url), { fetch: proxy.fetch }));
    closers.push(() => client.close());
    expect(text(await client.callTool({ name: 'ask_name', arguments: {} }))).toBe('hello Ada from i0');
    const answer = proxy.routed.find((r) => r.rpc === 'response');
    expect(answer?.backend).toBe('i1');
  });
});

describe('tool toggles across instances', () => {
  test('a tool disabled on one instance disappears for clients of the other, with list_changed', async () => {
    const { instances } = await cluster(2);
    const [a, b] = instances as [Instance, Instance];
    const client = new ClientV2({ name: 'on-b', version: '1.0.0' });
    let changed = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      changed++;
    });
    await client.connect(new TransportV2(new URL(b.url)));
    closers.push(() => client.close());
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('echo');
    // Give the client's GET stream a moment to open on b.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const session = await rawInitialize(a.url);
    expect(
      (await rawCall(a.url, session, 'set_tool_enabled', { name: 'echo', enabled: false })).body?.result,
    ).toBeDefined();
    await expect.poll(() => changed, { timeout: 5000 }).toBeGreaterThanOrEqual(1);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('echo');
    // A call to it on b is refused like any unavailable tool.
    const refused = (await client.callTool({ name: 'echo', arguments: { text: 'x' } }).catch((e: Error) => e)) as any;
    expect(refused instanceof Error ? refused.message : text(refused)).toMatch(/echo/);
    // An instance started later begins with the shared state.
    const c = await startInstance('i2');
    const late = await rawInitialize(c.url);
    const list = await rawPost(c.url, late, { jsonrpc: '2.0', id: 3, method: 'tools/list' });
    const names = ((await list.json()) as any).result.tools.map((t: { name: string }) => t.name);
    expect(names).not.toContain('echo');
    expect(names).toContain('whoami');
  });
});

describe('rate limits across instances', () => {
  test('a per-tool limit of 3 a minute refuses the 4th call wherever it lands', async () => {
    const { proxy } = await cluster(2);
    const session = await rawInitialize(proxy.url);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await rawCall(proxy.url, session, 'limited'));
    const served = proxy.routed.filter((r) => r.rpc === 'tools/call').map((r) => r.backend);
    expect(new Set(served)).toEqual(new Set(['i0', 'i1']));
    expect(results.slice(0, 3).map((r) => r.body?.result?.isError)).toEqual([undefined, undefined, undefined]);
    expect(results[3]!.body?.result?.isError).toBe(true);
    expect(results[3]!.body?.result?.content[0].text).toMatch(/limit|again/i);
  });

  test('the global endpoint limit is one budget for all instances (HTTP 429 with Retry-After)', async () => {
    const { proxy } = await cluster(2, { RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_MS: '60000' });
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 6; i++) {
      const response = await proxy.fetch(proxy.url, {
        method: 'POST',
        headers: POST_HEADERS,
        body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'ping' }),
      });
      statuses.push(response.status);
      if (response.status === 429) retryAfter = response.headers.get('retry-after');
      await response.text();
    }
    expect(new Set(proxy.routed.map((r) => r.backend))).toEqual(new Set(['i0', 'i1']));
    expect(statuses.slice(0, 5).every((s) => s !== 429)).toBe(true);
    expect(statuses[5]).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});

describe('resumable streams across instances', () => {
  test('a GET stream resumed after its instance was killed replays the missed events, then goes on live', async () => {
    const { instances } = await cluster(2);
    const [a, b] = instances as [Instance, Instance];
    const session = await rawInitialize(a.url);
    const headers = {
      accept: 'text/event-stream',
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-11-25',
    };
    // 1. The client listens on a and gets one list_changed live.
    const abort = new AbortController();
    const get = await fetch(a.url, { headers, signal: abort.signal });
    expect(get.status).toBe(200);
    const other = await rawInitialize(b.url);
    const seen = readSse(get, (events) => events.some((e) => e.data.includes('list_changed')));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await rawCall(b.url, other, 'set_tool_enabled', { name: 'echo', enabled: false });
    const live = await seen;
    const lastSeen = live.filter((e) => e.id !== undefined).at(-1)!.id!;
    // 2. The connection drops; a change happens meanwhile (a stores it for the client).
    abort.abort();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await rawCall(b.url, other, 'set_tool_enabled', { name: 'echo', enabled: true });
    const stream = `candor:events:{${session}}.0`;
    await expect
      .poll(async () => (await inspect.lrange(stream, 0, -1)).filter((e) => e.includes('list_changed')).length, {
        timeout: 5000,
      })
      .toBe(2);
    // 3. a dies. The client comes back through b with Last-Event-ID.
    await stop(a);
    const resumed = await fetch(b.url, { headers: { ...headers, 'last-event-id': lastSeen } });
    expect(resumed.status).toBe(200);
    const changes = (events: SseEvent[]) => events.filter((e) => e.data.includes('list_changed'));
    const reading = readSse(resumed, (all) => changes(all).length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // 4. A change made now reaches the client live on b.
    await rawCall(b.url, other, 'set_tool_enabled', { name: 'echo', enabled: false });
    const got = changes(await reading);
    const seq = (id: string | undefined) => Number(id?.split('_').at(-1));
    expect(got).toHaveLength(2);
    expect(got.every((e) => e.id?.startsWith(`${session}.0_`))).toBe(true);
    expect(seq(got[0]!.id)).toBeGreaterThan(seq(lastSeen));
    expect(seq(got[1]!.id)).toBeGreaterThan(seq(got[0]!.id));
  });
});

describe('Redis outage (degraded mode)', () => {
  test('a hung Redis: sessions keep working, new sessions are kept locally and shared on its return, /readyz says degraded', async () => {
    const { instances } = await cluster(2, { CLUSTER_LOG: 'info' });
    const [a, b] = instances as [Instance, Instance];
    const session = await rawInitialize(a.url);
    expect((await rawCall(b.url, session, 'whoami')).body?.result?.content[0].text).toBe('i1');

    redis.pause();
    // Calls of sessions these instances already hold need nothing from Redis.
    expect((await rawCall(a.url, session, 'whoami')).body?.result?.content[0].text).toBe('i0');
    expect((await rawCall(b.url, session, 'echo', { text: 'still here' })).body?.result?.content[0].text).toBe(
      'still here',
    );
    // A rate-limited tool falls back to per-process counting (not to "unlimited", not to an error), and says so.
    const limited = await rawCall(a.url, session, 'limited');
    expect(limited.body?.result?.content[0].text).toBe('ok from i0');
    // Answered while Redis is still paused (it resumes only after these checks): no wait on the store.
    for (let i = 0; i < 3; i++) await rawCall(a.url, session, 'limited');
    expect((await rawCall(a.url, session, 'limited')).body?.result?.isError).toBe(true);
    await expect.poll(() => a.stderr(), { timeout: 5000 }).toMatch(/rate limits are counted per process/);
    // A new session is accepted here, without waiting on the paused Redis.
    const opened = await rawInitialize(b.url);
    const during = opened;
    expect((await rawCall(b.url, during, 'whoami')).body?.result?.content[0].text).toBe('i1');
    // …but the other instance cannot know it yet: a clear 503, quickly, not a hang.
    const elsewhere = await rawCall(a.url, during, 'whoami');
    expect(elsewhere.status).toBe(503);
    expect(elsewhere.body?.error?.message).toMatch(/Redis\) is unreachable, so this session cannot be served here/);
    // Still ready for the balancer, and says why it is degraded.
    for (const instance of [a, b]) {
      const ready = await fetch(`${instance.base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'degraded', redis: 'down' });
    }

    redis.resume();
    await expect
      .poll(async () => (await (await fetch(`${b.base}/readyz`)).json()) as unknown, { timeout: 10_000 })
      .toEqual({ status: 'ready', redis: 'up' });
    // The session opened during the outage is written to Redis once it answers; any instance serves it.
    await expect.poll(() => inspect.exists(`candor:session:{${during}}`), { timeout: 10_000 }).toBe(1);
    expect((await rawCall(a.url, during, 'whoami')).body?.result?.content[0].text).toBe('i0');
    const c = await startInstance('i2');
    expect((await rawCall(c.url, session, 'whoami')).body?.result?.content[0].text).toBe('i2');
    expect((await rawCall(c.url, during, 'whoami')).body?.result?.content[0].text).toBe('i2');
    expect(b.stderr()).toMatch(/answers again after \d+ ms/);
    expect([a, b, c].map((i) => i.child.exitCode)).toEqual([null, null, null]);
  });

  test('resuming a stream while Redis is away is a clear 503, not a hang', async () => {
    const { instances } = await cluster(1);
    const [a] = instances as [Instance];
    const session = await rawInitialize(a.url);
    redis.pause();
    // Answered while Redis is still paused.
    const resumed = await fetch(a.url, {
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-11-25',
        'last-event-id': `${session}.0_1`,
      },
    });
    expect(resumed.status).toBe(503);
    expect(((await resumed.json()) as any).error.message).toMatch(/cannot be resumed now/);
  });
});

describe('Redis restarted', () => {
  test('a Redis that came back empty gets the live sessions back from the instances holding them', async () => {
    const { instances } = await cluster(2);
    const [a, b] = instances as [Instance, Instance];
    const before = await rawInitialize(a.url);
    await redis.kill();
    // Opened while Redis is down: kept on b.
    const during = await rawInitialize(b.url);
    // a still holds its session; b cannot look it up.
    expect((await rawCall(a.url, before, 'whoami')).body?.result?.content[0].text).toBe('i0');
    expect((await rawCall(b.url, before, 'whoami')).status).toBe(503);
    await redis.restart();
    await expect.poll(async () => (await fetch(`${b.base}/readyz`)).status, { timeout: 10_000 }).toBe(200);
    // Redis kept nothing (no persistence), but the instances wrote back what they hold.
    await expect
      .poll(() => inspect.exists(`candor:session:{${before}}`, `candor:session:{${during}}`), { timeout: 10_000 })
      .toBe(2);
    expect((await rawCall(b.url, before, 'whoami')).body?.result?.content[0].text).toBe('i1');
    expect((await rawCall(a.url, during, 'whoami')).body?.result?.content[0].text).toBe('i0');
    // A session no instance holds is gone, as for any ended one.
    expect((await rawCall(b.url, crypto.randomUUID(), 'whoami')).status).toBe(404);
    const after = await rawInitialize(b.url);
    expect((await rawCall(a.url, after, 'whoami')).body?.result?.content[0].text).toBe('i0');
    // Toggles are shared again once Redis is back (the subscriber reconnected by itself).
    await rawCall(b.url, after, 'set_tool_enabled', { name: 'echo', enabled: false });
    await expect
      .poll(async () => JSON.stringify((await rawCall(a.url, after, 'echo', { text: 'x' })).body), {
        timeout: 5000,
      })
      .toMatch(/Tool \\"echo\\" is disabled/);
    expect([a, b].map((i) => i.child.exitCode)).toEqual([null, null]);
  });
});

describe('the 2026-07-28 era across instances', () => {
  async function modernClient(url: string, fetcher: typeof fetch = fetch) {
    const client = new ClientV2(
      { name: 'modern-cluster', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Grace' } }));
    await client.connect(new TransportV2(new URL(url), { fetch: fetcher }));
    closers.push(() => client.close());
    return client;
  }

  test('an input_required retry that lands on the other instance completes (one shared requestState secret)', async () => {
    const { proxy } = await cluster(2);
    const client = await modernClient(proxy.url, proxy.fetch);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const result = await client.callTool({ name: 'ask_name', arguments: {} });
    const rounds = proxy.routed.filter((r) => r.rpc === 'tools/call');
    expect(rounds).toHaveLength(2);
    expect(rounds[0]!.backend).not.toBe(rounds[1]!.backend);
    expect(text(result)).toBe(`hello Grace from ${rounds[1]!.backend}`);
  });

  test('subscriptions/listen on one instance hears a tool disabled on the other', async () => {
    const { instances } = await cluster(2);
    const [a, b] = instances as [Instance, Instance];
    const client = await modernClient(b.url);
    let heard = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      heard++;
    });
    const subscription = await client.listen({ toolsListChanged: true });
    closers.push(() => subscription.close());
    const session = await rawInitialize(a.url);
    await rawCall(a.url, session, 'set_tool_enabled', { name: 'whoami', enabled: false });
    await expect.poll(() => heard, { timeout: 5000 }).toBe(1);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('whoami');
  });
});
