/**
 * Shared state on Redis against the in-memory defaults, in one run:
 * the same candor server (bench/servers/candor-shared.ts) with and without
 * REDIS_URL, against a real `redis-server` on loopback (Debian's, started
 * here), loaded with autocannon over Streamable HTTP:
 *
 * - `echo` in a 2025 session (sessions live in Redis, but a session this
 *   instance already holds costs no Redis round trip per call);
 * - `echo` in a session another instance opened (restored once from Redis);
 * - `limited`: a per-tool rate limit counted in Redis on every call;
 * - `steps`: three progress notifications, so every call is an SSE stream
 *   whose four events are written to the event store;
 * - 2026-07-28 stateless `echo` (no session at all);
 * - two instances sharing one Redis, loaded at once, against one instance.
 *
 * Goal: Redis ≥ 60% of in-memory. Nothing here asserts a time.
 *
 *   npm run build && node --import tsx bench/redis.ts   (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROUNDS,
 *   BENCH_CASES=limited,steps to run only the cases whose label contains one of those words)
 */
import { startRedis } from '../test/support/redis-server.js';
import {
  BENCH_CONNECTIONS,
  BENCH_SECONDS,
  JSON_HEADERS,
  type LoadResult,
  load,
  MODERN_ECHO_CALL,
  MODERN_ECHO_HEADERS,
  post,
  record,
  startServer,
  table,
} from './_harness.js';

const V2025 = '2025-11-25';
const INIT = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: V2025, capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } },
};
const call = (name: string, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) },
  });

async function openSession(url: string): Promise<Record<string, string>> {
  const init = await post(url, INIT, JSON_HEADERS);
  const id = init.headers.get('mcp-session-id');
  if (!id) throw new Error(`${url}: no session id (${init.status})`);
  const headers = { ...JSON_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': V2025 };
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  return headers;
}

const modernHeaders = MODERN_ECHO_HEADERS;
const modernBody = JSON.stringify(MODERN_ECHO_CALL);

async function check(url: string, headers: Record<string, string>, body: string): Promise<void> {
  const answer = await post(url, JSON.parse(body), headers);
  if (answer.status !== 200 || answer.json?.result === undefined || answer.json.result.isError) {
    throw new Error(`${url}: ${answer.status} ${JSON.stringify(answer.json)}`);
  }
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const median = (results: LoadResult[]) =>
  [...results].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(results.length / 2)]!;

const redis = await startRedis();
const seconds = BENCH_SECONDS;
const connections = BENCH_CONNECTIONS;
const rows: string[][] = [];
const figures: Record<string, { memory: number; redis: number }> = {};
const fmt = (r: LoadResult) => Math.round(r.requestsPerSecond).toLocaleString('en-US');

try {
  const memory = await startServer('candor-shared.ts');
  const shared = await startServer('candor-shared.ts', [], { REDIS_URL: redis.url });
  const other = await startServer('candor-shared.ts', [], { REDIS_URL: redis.url });
  try {
    const cases: Array<{ label: string; run: (url: string, session: Record<string, string>) => Promise<LoadResult> }> =
      [
        {
          label: 'echo, 2025 session',
          run: (url, headers) => load({ url, headers, body: call('echo', { text: 'hello' }), seconds, connections }),
        },
        {
          label: 'limited (rate limit counted per call)',
          run: (url, headers) => load({ url, headers, body: call('limited', { text: 'hello' }), seconds, connections }),
        },
        {
          label: 'steps (SSE, 4 stored events per call)',
          run: (url, headers) =>
            load({ url, headers, body: call('steps', {}, { progressToken: 'p' }), seconds, connections }),
        },
        {
          label: 'echo, 2026-07-28 stateless',
          run: (url) => load({ url, headers: modernHeaders, body: modernBody, seconds, connections }),
        },
      ];
    const only = process.env.BENCH_CASES?.split(',').filter(Boolean);
    for (const { label, run } of cases) {
      if (only && !only.some((word) => label.includes(word))) continue;
      const memorySession = await openSession(memory.url);
      const sharedSession = await openSession(shared.url);
      await check(memory.url, memorySession, call('echo', { text: 'x' }));
      await check(shared.url, sharedSession, call('echo', { text: 'x' }));
      // Rounds alternate so a noisy machine slows both alike; the median round is kept.
      const memoryRounds: LoadResult[] = [];
      const redisRounds: LoadResult[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        memoryRounds.push(await run(memory.url, memorySession));
        redisRounds.push(await run(shared.url, sharedSession));
      }
      const inMemory = median(memoryRounds);
      const onRedis = median(redisRounds);
      figures[label] = { memory: inMemory.requestsPerSecond, redis: onRedis.requestsPerSecond };
      rows.push([
        label,
        fmt(inMemory),
        fmt(onRedis),
        `${Math.round((100 * onRedis.requestsPerSecond) / inMemory.requestsPerSecond)}%`,
        `${onRedis.latencyP50} / ${onRedis.latencyP99}`,
        String(onRedis.non2xx + onRedis.errors),
      ]);
    }
    // A session opened on `other`, loaded on `shared`: restored from Redis on the first request.
    const foreign = await openSession(other.url);
    const restored = await load({
      url: shared.url,
      headers: foreign,
      body: call('echo', { text: 'hello' }),
      seconds,
      connections,
    });
    const base = figures['echo, 2025 session']?.memory ?? Number.NaN;
    rows.push([
      'echo, session opened on another instance',
      '—',
      fmt(restored),
      `${Math.round((100 * restored.requestsPerSecond) / base)}%`,
      `${restored.latencyP50} / ${restored.latencyP99}`,
      String(restored.non2xx + restored.errors),
    ]);
    table(
      `Shared state: requests/s, ${connections} connections, median of ${ROUNDS} alternating rounds of ${seconds} s (one instance; Redis on loopback)`,
      ['case', 'in memory', 'Redis', 'Redis / memory', 'Redis p50 / p99 ms', 'errors'],
      rows,
    );

    // Two instances against one, sharing one Redis: both loaded at once, each through its own session.
    const one = await load({
      url: shared.url,
      headers: await openSession(shared.url),
      body: call('limited', { text: 'hello' }),
      seconds,
      connections,
    });
    const [left, right] = await Promise.all([
      load({
        url: shared.url,
        headers: await openSession(shared.url),
        body: call('limited', { text: 'hello' }),
        seconds,
        connections: connections / 2,
      }),
      load({
        url: other.url,
        headers: await openSession(other.url),
        body: call('limited', { text: 'hello' }),
        seconds,
        connections: connections / 2,
      }),
    ]);
    const both = left.requestsPerSecond + right.requestsPerSecond;
    table(
      'One instance against two (rate-limited calls, one Redis budget; the load generator shares the same 2 cores)',
      ['instances', 'requests/s', 'ratio'],
      [
        ['1', fmt(one), '1.00×'],
        ['2', Math.round(both).toLocaleString('en-US'), `${(both / one.requestsPerSecond).toFixed(2)}×`],
      ],
    );
    record('redis', {
      ...figures,
      restoredSession: restored.requestsPerSecond,
      oneInstance: one.requestsPerSecond,
      twoInstances: both,
    });
  } finally {
    await Promise.all([memory.stop(), shared.stop(), other.stop()]);
  }
} finally {
  await redis.stop();
}
