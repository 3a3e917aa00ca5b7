import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RedisServer, startRedis } from '../../test/support/redis-server.js';
import { isStoreUnavailable, StoreHealth } from './store-health.js';

let server: RedisServer;
let redis: Redis;
beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
  redis.on('error', () => {});
});
afterAll(async () => {
  server.resume();
  redis?.disconnect();
  await server?.stop();
});

describe('StoreHealth', () => {
  test('a paused Redis: the first operation gives up after the timeout, the next fail at once, PING brings it back', async () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    const health = new StoreHealth({
      timeoutMs: 300,
      probe: () => redis.ping(),
      probeEveryMs: 50,
      logger: { warn: log, info: log, error: log, debug: () => {} },
    });
    let restored = 0;
    health.onRestored(() => restored++);
    expect(await health.run(() => redis.set('k', 'v'))).toBe('OK');
    server.pause();
    const first = await health.run(() => redis.get('k')).catch((error: unknown) => error);
    expect(isStoreUnavailable(first)).toBe(true);
    expect((first as Error).message).toMatch(/did not answer within 300 ms/);
    expect(health.up).toBe(false);
    // Known down: no wait at all (the operation is not even started).
    let started = false;
    const second = await health
      .run(async () => {
        started = true;
        return redis.get('k');
      })
      .catch((error: unknown) => error);
    expect(isStoreUnavailable(second)).toBe(true);
    expect(started).toBe(false);
    server.resume();
    await expect.poll(() => health.up, { timeout: 5000 }).toBe(true);
    expect(restored).toBe(1);
    expect(await health.run(() => redis.get('k'))).toBe('v');
    expect(lines.join('\n')).toMatch(/unreachable: .*did not answer within 300 ms; degraded/);
    expect(lines.join('\n')).toMatch(/answers again after \d+ ms/);
    health.close();
  });

  test('an error Redis answers with (a reply error) says nothing about its health', async () => {
    const health = new StoreHealth({ probe: () => redis.ping() });
    await redis.set('text', 'x');
    await expect(health.run(() => redis.incr('text'))).rejects.toThrow(/not an integer/);
    expect(health.up).toBe(true);
    health.close();
  });

  test('a timeout that is not a positive number is refused', () => {
    expect(() => new StoreHealth({ probe: async () => {}, timeoutMs: 0 })).toThrow(/positive number of ms/);
  });
});
