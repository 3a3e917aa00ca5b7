/**
 * Faults under load: calls per second and the error window while
 * parts of a deployment break. Two `createServer` instances
 * (test/fixtures/cluster-server.ts) share a real `redis-server` behind a real
 * haproxy (health checks on /readyz, config from test/support/haproxy.ts);
 * `WRITERS` sessions (default 4) call the `write` tool back to back through it.
 * For each fault, on a fresh deployment: 2 s of warm-up, 3 s of load, the
 * fault (3 s where it heals), then 5 s more. The gateway row is `candor gateway --http` in front of
 * a stdio upstream (test/fixtures/gateway/upstream.mjs) whose process is
 * SIGKILLed; the gateway starts it again by itself (reconnect backoff, 1 s first).
 *
 * Reported per fault: calls/s before, during (fault start to heal, or 3 s) and
 * after; failed calls; the error window (first and last failing call, ms after
 * the fault began); the slowest call. Nothing here asserts a time; the
 * must-holds are in test/scale/faults-haproxy.test.ts.
 *
 *   npm run build && node --import tsx bench/faults.ts
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Instance, killInstance, startInstance } from '../test/support/cluster-instances.js';
import { type Balancer, startHaproxy } from '../test/support/haproxy.js';
import { freePort, type RedisServer, startRedis } from '../test/support/redis-server.js';
import { type SessionWriterOptions, startSessionWriter, type WriteRecord } from '../test/support/session-writer.js';
import { startTcpProxy, type TcpProxy } from '../test/support/tcp-proxy.js';
import { record, table } from './_harness.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const WRITERS = Number(process.env.WRITERS ?? 4);
const WARMUP_MS = 2000;
const BEFORE_MS = 3000;
const FAULT_MS = 3000;
const AFTER_MS = 5000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Deployment {
  url: string;
  /** Break it; resolves with a function that heals it (undefined: it heals by itself). */
  fault(): Promise<(() => Promise<void>) | undefined>;
  close(): Promise<void>;
}

/** Two instances, Redis (optionally behind a TCP proxy that can be cut), haproxy. */
async function cluster(kind: 'instance' | 'redis-kill' | 'redis-stop' | 'network'): Promise<Deployment> {
  const redis: RedisServer = await startRedis();
  const proxy: TcpProxy | undefined = kind === 'network' ? await startTcpProxy(redis.port) : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'candor-faults-'));
  const redisUrl = proxy === undefined ? redis.url : `redis://127.0.0.1:${proxy.port}`;
  const instances: Instance[] = await Promise.all(
    ['i0', 'i1'].map(async (name) =>
      startInstance(name, { REDIS_URL: redisUrl, PORT: String(await freePort()), WRITE_LOG: join(dir, 'writes.log') }),
    ),
  );
  const lb: Balancer = await startHaproxy(instances.map((i) => ({ name: i.name, origin: i.base })));
  await lb.waitForBackends(['i0', 'i1']);
  return {
    url: lb.url,
    async fault() {
      switch (kind) {
        case 'instance':
          await killInstance(instances[0]!);
          return undefined;
        case 'redis-kill':
          await redis.kill();
          return () => redis.restart();
        case 'redis-stop':
          redis.pause();
          return async () => redis.resume();
        case 'network':
          proxy!.cut();
          return async () => proxy!.mend();
      }
    },
    async close() {
      await lb.close();
      await Promise.all(instances.map(killInstance));
      await proxy?.close();
      redis.resume();
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `candor gateway --http` in front of a stdio upstream; the fault SIGKILLs the upstream process. */
async function gateway(): Promise<Deployment> {
  const port = await freePort();
  const cli = join(repo, 'dist', 'src', 'cli', 'main.js');
  const upstream = join(repo, 'test', 'fixtures', 'gateway', 'upstream.mjs');
  const child: ChildProcess = spawn(
    process.execPath,
    [cli, 'gateway', '--http', `127.0.0.1:${port}`, '--policy', 'yolo', '--', process.execPath, upstream],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the gateway exited:\n${err}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
    if (ready?.status === 200 && childrenOf(child.pid!).length > 0) break;
    if (Date.now() > deadline) throw new Error(`the gateway did not come up:\n${err}`);
    await sleep(100);
  }
  return {
    url,
    async fault() {
      for (const pid of childrenOf(child.pid!)) process.kill(pid, 'SIGKILL');
      return undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Child processes of `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

interface Figures {
  fault: string;
  before: number;
  during: number;
  after: number;
  calls: number;
  failed: number;
  firstFailureMs: number | null;
  lastFailureMs: number | null;
  slowestMs: number;
}

async function measure(fault: string, deployment: Deployment, writer: SessionWriterOptions = {}): Promise<Figures> {
  const t0 = performance.now();
  const writers = await Promise.all(
    Array.from({ length: WRITERS }, () => startSessionWriter(deployment.url, { intervalMs: 0, t0, ...writer })),
  );
  const now = () => performance.now() - t0;
  await sleep(WARMUP_MS + BEFORE_MS);
  const faultAt = now();
  const heal = await deployment.fault();
  if (heal !== undefined) {
    await sleep(FAULT_MS);
    await heal();
  } else {
    await sleep(FAULT_MS);
  }
  const healedAt = now();
  await sleep(AFTER_MS);
  const endAt = now();
  await Promise.all(writers.map((w) => w.stop()));
  const records: WriteRecord[] = writers.flatMap((w) => w.records);
  const rate = (from: number, to: number) =>
    Math.round((records.filter((r) => r.ok && r.end >= from && r.end < to).length * 1000) / (to - from));
  // Calls in flight when the fault began count too.
  const failed = records.filter((r) => !r.ok && r.end >= faultAt);
  const figures: Figures = {
    fault,
    before: rate(faultAt - BEFORE_MS, faultAt),
    during: rate(faultAt, healedAt),
    after: rate(healedAt, endAt),
    calls: records.filter((r) => r.end >= faultAt).length,
    failed: failed.length,
    firstFailureMs: failed.length === 0 ? null : Math.round(Math.min(...failed.map((r) => r.start)) - faultAt),
    lastFailureMs: failed.length === 0 ? null : Math.round(Math.max(...failed.map((r) => r.start)) - faultAt),
    slowestMs: Math.round(records.reduce((most, r) => Math.max(most, r.end - r.start), 0)),
  };
  const failedBefore = records.filter((r) => !r.ok && r.end < faultAt).length;
  if (failedBefore > 0) console.error(`${fault}: ${failedBefore} calls failed before the fault`);
  const sample = failed[0]?.error;
  if (sample !== undefined) console.error(`${fault}: first failure: ${sample.slice(0, 160)}`);
  return figures;
}

const cases: Array<[string, () => Promise<Deployment>, SessionWriterOptions?]> = [
  ['instance SIGKILL (of 2)', () => cluster('instance')],
  ['Redis SIGKILL 3 s, back empty', () => cluster('redis-kill')],
  ['Redis SIGSTOP 3 s', () => cluster('redis-stop')],
  ['network to Redis cut 3 s (TCP proxy stops forwarding)', () => cluster('network')],
  [
    'gateway: stdio upstream SIGKILLed',
    gateway,
    { call: () => ({ name: 'upstream__read_notes', arguments: {} }), accept: () => true },
  ],
];

const only = process.argv.slice(2);
const results: Figures[] = [];
for (const [name, start, writer] of cases) {
  if (only.length > 0 && !only.some((o) => name.includes(o))) continue;
  const deployment = await start();
  try {
    results.push(await measure(name, deployment, writer));
  } finally {
    await deployment.close();
  }
}

const ms = (value: number | null) => (value === null ? '—' : `${value}`);
table(
  `Faults under load: ${WRITERS} sessions calling back to back through haproxy (the gateway: directly), ${BEFORE_MS / 1000} s before, ${FAULT_MS / 1000} s of fault, ${AFTER_MS / 1000} s after`,
  ['fault', 'calls/s before', 'during', 'after', 'failed / calls', 'error window (ms after the fault)', 'slowest call'],
  results.map((r) => [
    r.fault,
    String(r.before),
    String(r.during),
    String(r.after),
    `${r.failed} / ${r.calls}`,
    r.failed === 0 ? 'none' : `${ms(r.firstFailureMs)}–${ms(r.lastFailureMs)}`,
    `${r.slowestMs} ms`,
  ]),
);
record('faults', { writers: WRITERS, results });
process.exit(0);
