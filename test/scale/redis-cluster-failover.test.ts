/**
 * The shared stores on a real Redis Cluster: 3 masters with a
 * replica each (`redis-server` processes joined by `redis-cli --cluster
 * create`), two instances behind haproxy with `redis+cluster://…`. A
 * session's keys share one slot (hash tags), so its record and event streams
 * live on one master; sessions, rate limits and toggles work across
 * instances; and when the master holding a writing session's slot is
 * SIGKILLed, its replica takes over and the session goes on.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Instance, killInstance, startInstance } from '../support/cluster-instances.js';
import { type Balancer, startHaproxy } from '../support/haproxy.js';
import { POST_HEADERS } from '../support/http-support.js';
import { type RedisClusterServer, startRedisCluster } from '../support/redis-cluster-server.js';
import { postInitialize, startSessionWriter, windowOf } from '../support/session-writer.js';

let redis: RedisClusterServer;
let lb: Balancer;
let dir: string;
let writeLog: string;
const instances: Instance[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  redis = await startRedisCluster();
  dir = mkdtempSync(join(tmpdir(), 'candor-cluster-'));
  writeLog = join(dir, 'writes.log');
  instances.push(
    ...(await Promise.all(
      ['i0', 'i1'].map((name) =>
        startInstance(name, { REDIS_URL: redis.url, WRITE_LOG: writeLog, CLUSTER_LOG: 'info' }),
      ),
    )),
  );
  lb = await startHaproxy(instances.map((i) => ({ name: i.name, origin: i.base })));
  await lb.waitForBackends(['i0', 'i1']);
}, 90_000);
afterAll(async () => {
  await lb?.close();
  await Promise.all(instances.map(killInstance));
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function openSession(url: string): Promise<string> {
  const response = await postInitialize(url, 'cluster');
  await response.text();
  expect(response.status).toBe(200);
  const session = response.headers.get('mcp-session-id')!;
  await (
    await fetch(url, {
      method: 'POST',
      headers: { ...POST_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    })
  ).text();
  return session;
}

async function call(url: string, session: string, name: string, args: Record<string, unknown> = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...POST_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const body = (await response.json().catch(() => undefined)) as any;
  return { status: response.status, text: body?.result?.content?.[0]?.text as string | undefined, body };
}

const slotOf = async (key: string) => Number((await redis.cli('cluster', 'keyslot', key)).trim());

describe('candor on a Redis Cluster', () => {
  test('a session opened on one instance is served by the other; its record and event streams share a slot', async () => {
    const [a, b] = instances as [Instance, Instance];
    const session = await openSession(a.url);
    expect((await call(b.url, session, 'whoami')).text).toBe('i1');
    expect(Number((await redis.cli('-c', 'exists', `candor:session:{${session}}`)).trim())).toBe(1);
    const slot = await slotOf(`candor:session:{${session}}`);
    expect(await slotOf(`candor:events:{${session}}.0`)).toBe(slot);
    expect(await slotOf(`candor:events:{${session}}.i0-3:seq`)).toBe(slot);
    // Sessions spread over the masters (different sessions, different slots).
    const others = await Promise.all(Array.from({ length: 8 }, () => openSession(lb.url)));
    const masters = new Set(
      await Promise.all(others.map(async (s) => redis.masterOf(await slotOf(`candor:session:{${s}}`)))),
    );
    expect(masters.size).toBeGreaterThan(1);
  });

  test('a per-tool rate limit is one budget across instances; a toggle reaches the other instance', async () => {
    const [a, b] = instances as [Instance, Instance];
    const session = await openSession(a.url);
    const results = [];
    for (const url of [a.url, b.url, a.url, b.url]) results.push(await call(url, session, 'limited'));
    expect(results.slice(0, 3).map((r) => r.body?.result?.isError)).toEqual([undefined, undefined, undefined]);
    expect(results[3]!.body?.result?.isError).toBe(true);
    await call(a.url, session, 'set_tool_enabled', { name: 'echo', enabled: false });
    await expect
      .poll(async () => JSON.stringify((await call(b.url, session, 'echo', { text: 'x' })).body), { timeout: 5000 })
      .toMatch(/is disabled/);
    await call(b.url, session, 'set_tool_enabled', { name: 'echo', enabled: true });
    await expect
      .poll(async () => (await call(a.url, session, 'echo', { text: 'x' })).text, { timeout: 5000 })
      .toBe('x');
  });

  test('the master holding a writing session is SIGKILLed: its replica takes over and the session goes on', async () => {
    const writer = await startSessionWriter(lb.url);
    try {
      await expect.poll(() => writer.records.filter((r) => r.ok).length, { timeout: 10_000 }).toBeGreaterThan(10);
      const slot = await slotOf(`candor:session:{${writer.session}}`);
      const master = await redis.masterOf(slot);
      const killedAt = writer.now();
      await redis.kill(master);
      // The replica is promoted (node timeout 1 s, then an election). Seconds on a quiet
      // machine; a loaded 2-core one was seen to need more than 20 s, so the wait is generous.
      await expect.poll(() => redis.masterOf(slot), { timeout: 45_000, interval: 200 }).not.toBe(master);
      await expect
        .poll(async () => (await redis.cli('cluster', 'info')).includes('cluster_state:ok'), { timeout: 20_000 })
        .toBe(true);
      const promotedAt = writer.now();
      // A session opened after the failover is stored on the new master, and served everywhere.
      const late = await openSession(lb.url);
      expect(await redis.masterOf(await slotOf(`candor:session:{${late}}`))).not.toBe(master);
      await expect
        .poll(async () => Number((await redis.cli('-c', 'exists', `candor:session:{${late}}`)).trim()), {
          timeout: 10_000,
        })
        .toBe(1);
      for (const instance of instances) expect((await call(instance.url, late, 'whoami')).text).toBe(instance.name);
      await sleep(3000);
      const during = windowOf(writer.records, killedAt, promotedAt);
      // Both instances hold the session: the failover does not stop it.
      expect(during.ok / Math.max(1, during.calls)).toBeGreaterThanOrEqual(0.9);
      expect(windowOf(writer.records, promotedAt + 1000, writer.now()).failed).toEqual([]);
      // Ready again (not degraded) once the cluster serves every slot.
      await expect
        .poll(async () => (await (await fetch(`${instances[0]!.base}/readyz`)).json()) as unknown, { timeout: 10_000 })
        .toEqual({ status: 'ready', redis: 'up' });
    } finally {
      await writer.stop();
    }
    expect(writer.records.every((r) => r.end - r.start < 8000)).toBe(true);
    const written = new Set(readFileSync(writeLog, 'utf8').split('\n').filter(Boolean).map(Number));
    expect(writer.records.filter((r) => r.ok && !written.has(r.seq))).toEqual([]);
    expect(instances.map((i) => i.child.exitCode)).toEqual([null, null]);
  }, 150_000);
});
