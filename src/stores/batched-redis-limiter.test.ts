import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RedisServer, startRedis } from '../../test/support/redis-server.js';
import { BatchedRedisLimiter } from './batched-redis-limiter.js';

let server: RedisServer;
let redis: Redis;
beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url);
});
afterAll(async () => {
  redis?.disconnect();
  await server?.stop();
});

type Outcome = { allowed: boolean; res: RateLimiterRes };
const outcome = (promise: Promise<RateLimiterRes>): Promise<Outcome> =>
  promise.then(
    (res) => ({ allowed: true, res }),
    (res: RateLimiterRes) => ({ allowed: false, res }),
  );

/** Scripts Redis has run (rate-limiter-flexible consumes with one EVALSHA). */
async function scriptCalls(): Promise<number> {
  const stats = await redis.info('commandstats');
  return [...stats.matchAll(/cmdstat_(?:evalsha|eval|multi):calls=(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
}

describe('BatchedRedisLimiter', () => {
  test('concurrent calls for one key: the same allow/refuse decisions as one by one, in fewer round trips', async () => {
    const batched = new BatchedRedisLimiter({ storeClient: redis, points: 10, duration: 60, keyPrefix: 'b1' });
    const plain = new RateLimiterRedis({ storeClient: redis, points: 10, duration: 60, keyPrefix: 'p1' });
    const before = await scriptCalls();
    const together = await Promise.all(Array.from({ length: 25 }, () => outcome(batched.consume('k'))));
    const roundTrips = (await scriptCalls()) - before;
    const oneByOne: Outcome[] = [];
    for (let i = 0; i < 25; i++) oneByOne.push(await outcome(plain.consume('k')));

    expect(together.map((o) => o.allowed)).toEqual(oneByOne.map((o) => o.allowed));
    expect(together.filter((o) => o.allowed)).toHaveLength(10);
    expect(together.map((o) => o.res.consumedPoints)).toEqual(oneByOne.map((o) => o.res.consumedPoints));
    expect(together.map((o) => o.res.remainingPoints)).toEqual(oneByOne.map((o) => o.res.remainingPoints));
    for (const refused of together.filter((o) => !o.allowed)) {
      expect(refused.res).toBeInstanceOf(RateLimiterRes);
      expect(refused.res.msBeforeNext).toBeGreaterThan(0);
    }
    // The first call went alone; the other 24 waited for it and went as one.
    expect(roundTrips).toBe(2);
    expect((await batched.get('k'))?.consumedPoints).toBe(25);
  });

  test('calls of several points are placed in arrival order', async () => {
    const limiter = new BatchedRedisLimiter({ storeClient: redis, points: 5, duration: 60, keyPrefix: 'b2' });
    const results = await Promise.all([3, 1, 3, 1].map((points) => outcome(limiter.consume('k', points))));
    // 3 (of 5) → allowed; then one batch: 1 → 4 allowed, 3 → 7 refused, 1 → 8 refused.
    expect(results.map((o) => [o.allowed, o.res.consumedPoints])).toEqual([
      [true, 3],
      [true, 4],
      [false, 7],
      [false, 8],
    ]);
  });

  test('keys are counted apart, and a key is free again once its batches are done', async () => {
    const limiter = new BatchedRedisLimiter({ storeClient: redis, points: 2, duration: 60, keyPrefix: 'b3' });
    const results = await Promise.all(
      ['a', 'b', 'a', 'b', 'a'].map((key) => outcome(limiter.consume(key)).then((o) => `${key}:${o.allowed}`)),
    );
    expect(results).toEqual(['a:true', 'b:true', 'a:true', 'b:true', 'a:false']);
    const later = await outcome(limiter.consume('b'));
    expect([later.allowed, later.res.consumedPoints]).toEqual([false, 3]);
  });

  test('when Redis fails, every waiting call hears the error (nothing hangs); with an insurance limiter it counts locally', async () => {
    const broken = new Redis(server.url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    const strict = new BatchedRedisLimiter({
      storeClient: broken,
      points: 5,
      duration: 60,
      keyPrefix: 'b4',
      rejectIfRedisNotReady: true,
    });
    const failed = await Promise.all(Array.from({ length: 4 }, () => outcome(strict.consume('k'))));
    for (const o of failed) {
      expect(o.allowed).toBe(false);
      expect(o.res).not.toBeInstanceOf(RateLimiterRes);
    }
    const insured = new BatchedRedisLimiter({
      storeClient: broken,
      points: 2,
      duration: 60,
      keyPrefix: 'b5',
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ points: 2, duration: 60 }),
    });
    const local = await Promise.all(Array.from({ length: 3 }, () => outcome(insured.consume('k'))));
    expect(local.map((o) => o.allowed)).toEqual([true, true, false]);
    broken.disconnect();
  });
});
