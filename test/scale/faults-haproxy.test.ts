/**
 * Faults under load: two instances sharing Redis behind a real
 * haproxy (health checks on /readyz), one session writing every 25 ms, while
 * an instance is SIGKILLed, Redis is killed for 3 s and comes back empty, and
 * Redis is paused (SIGSTOP) for 3 s. Asserted on counts and bounds: where the
 * failures fall, what share of outage calls succeed, that every call is
 * answered within 8 s, and that no acknowledged write is lost.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Instance, killInstance, startInstance } from '../support/cluster-instances.js';
import { type Balancer, startHaproxy } from '../support/haproxy.js';
import { freePort, type RedisServer, startRedis } from '../support/redis-server.js';
import { postInitialize, type SessionWriter, startSessionWriter, windowOf } from '../support/session-writer.js';

let redis: RedisServer;
let lb: Balancer;
let dir: string;
const instances: Instance[] = [];
const ports: number[] = [];
let writeLog: string;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function launch(index: number): Promise<Instance> {
  return startInstance(`i${index}`, {
    REDIS_URL: redis.url,
    PORT: String(ports[index]),
    WRITE_LOG: writeLog,
    CLUSTER_LOG: 'warn',
  }).then((instance) => {
    instances[index] = instance;
    return instance;
  });
}

beforeAll(async () => {
  redis = await startRedis();
  dir = mkdtempSync(join(tmpdir(), 'candor-faults-'));
  writeLog = join(dir, 'writes.log');
  ports.push(await freePort(), await freePort());
  await Promise.all([launch(0), launch(1)]);
  lb = await startHaproxy(instances.map((i) => ({ name: i.name, origin: i.base })));
  await lb.waitForBackends(['i0', 'i1']);
}, 60_000);
afterAll(async () => {
  await lb?.close();
  await Promise.all(instances.map(killInstance));
  redis?.resume();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Every write the client was told succeeded is in the log the instances append to. */
function expectNoAcknowledgedWriteLost(writer: SessionWriter): void {
  const written = new Set(readFileSync(writeLog, 'utf8').split('\n').filter(Boolean).map(Number));
  const lost = writer.records.filter((r) => r.ok && !written.has(r.seq)).map((r) => r.seq);
  expect(lost).toEqual([]);
}

/** Until both instances have answered calls of the writer's session since `from` (each holds it). */
async function untilBothServe(writer: SessionWriter, from: number): Promise<void> {
  await expect
    .poll(() => new Set(writer.records.filter((r) => r.start >= from && r.ok).map((r) => r.backend)).size, {
      timeout: 15_000,
    })
    .toBe(2);
}

describe('one session writing every 25 ms through haproxy', () => {
  test('instance SIGKILL, then Redis killed for 3 s and back empty: errors only right after the kill, ≥ 90% of outage calls succeed', async () => {
    const writer = await startSessionWriter(lb.url);
    try {
      await untilBothServe(writer, 0);
      await sleep(300);

      // 1. An instance dies. haproxy retries refused connections elsewhere and its checks take the
      // instance out; only calls in flight on it (or sent before the checks noticed) can fail.
      const killedAt = writer.now();
      await killInstance(instances[0]!);
      await sleep(2500);
      const kill = windowOf(writer.records, killedAt, writer.now());
      expect(kill.lastFailureAfter).toBeLessThanOrEqual(1500);
      expect(kill.ok).toBeGreaterThan(0);

      // The instance comes back (same port); haproxy puts it back once /readyz answers.
      const back = writer.now();
      await launch(0);
      await untilBothServe(writer, back);

      // 2. Redis dies for 3 s. Both instances hold the session, stay ready (degraded) and serve it.
      const downAt = writer.now();
      await redis.kill();
      await sleep(3000);
      const upAt = writer.now();
      await redis.restart();
      const outage = windowOf(writer.records, downAt, upAt);
      expect(outage.calls).toBeGreaterThan(20);
      expect(outage.ok / outage.calls).toBeGreaterThanOrEqual(0.9);
      // haproxy never ran out of ready instances (its own 503 carries no backend).
      expect(outage.failed.filter((r) => r.backend === undefined)).toEqual([]);

      // 3. Redis is back, empty: nothing fails more than 3 s later.
      await sleep(4500);
      const after = windowOf(writer.records, upAt, writer.now());
      expect(after.lastFailureAfter).toBeLessThanOrEqual(3000);
      expect(windowOf(writer.records, upAt + 3000, writer.now()).failed).toEqual([]);
    } finally {
      await writer.stop();
    }
    // Every call was answered or refused: none was abandoned by the writer's own client timeout
    // (an AbortSignal.timeout, the event a hang ends in), and nothing acknowledged was lost.
    expect(writer.records.filter((r) => /timeout|aborted/i.test(r.error ?? ''))).toEqual([]);
    expectNoAcknowledgedWriteLost(writer);
    expect(instances.map((i) => i.child.exitCode)).toEqual([null, null]);
  }, 90_000);

  test('Redis paused (SIGSTOP) for 3 s: calls go on, a new session is opened meanwhile, nothing waits out the pause', async () => {
    const writer = await startSessionWriter(lb.url);
    let opened: { status: number } | undefined;
    try {
      await untilBothServe(writer, 0);
      const pausedAt = writer.now();
      redis.pause();
      await sleep(1000);
      // Answered while Redis is still paused (it resumes only below): a new session does not wait out the pause.
      const response = await postInitialize(lb.url, 'late');
      await response.text();
      opened = { status: response.status };
      await sleep(2000);
      const resumedAt = writer.now();
      redis.resume();
      const paused = windowOf(writer.records, pausedAt, resumedAt);
      expect(paused.calls).toBeGreaterThan(20);
      expect(paused.ok / paused.calls).toBeGreaterThanOrEqual(0.9);
      // Calls went on during the pause (the writer sends one at a time, so more than 20 answers
      // inside the 3 s window means none of them waited for Redis to come back).
      // /readyz answered the health checks in time all along: haproxy never ran out of instances.
      expect(paused.failed.filter((r) => r.backend === undefined)).toEqual([]);
      await sleep(1000);
    } finally {
      redis.resume();
      await writer.stop();
    }
    expect(opened?.status).toBe(200);
    expectNoAcknowledgedWriteLost(writer);
  }, 60_000);
});
