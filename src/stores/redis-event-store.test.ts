import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RedisServer, startRedis } from '../../test/support/redis-server.js';
import { RedisEventStore } from './redis-event-store.js';
import { assertRedisUrl, parseClusterUrl, redactRedisUrl } from './redis-url.js';

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

async function replay(store: RedisEventStore, after: string) {
  const seen: Array<[string, string]> = [];
  const stream = await store.replayEventsAfter(after, (id, data) => {
    seen.push([id, data]);
  });
  return { stream, seen };
}

describe('RedisEventStore', () => {
  test('replays the events of one stream written after an id, in order, skipping priming events', async () => {
    const store = new RedisEventStore(redis, { prefix: 't1:' });
    const prime = await store.storeEvent('s.0', '');
    const a = await store.storeEvent('s.0', '{"a":1}');
    await store.storeEvent('other.1', '{"x":1}');
    const b = await store.storeEvent('s.0', '{"b":2}');
    expect([prime, a, b]).toEqual(['s.0_1', 's.0_2', 's.0_3']);
    expect(await replay(store, prime)).toEqual({
      stream: 's.0',
      seen: [
        ['s.0_2', '{"a":1}'],
        ['s.0_3', '{"b":2}'],
      ],
    });
    expect(await replay(store, b)).toEqual({ stream: 's.0', seen: [] });
  });

  test('two stores on one Redis (two instances) continue one sequence per stream', async () => {
    const one = new RedisEventStore(redis, { prefix: 't2:' });
    const second = new Redis(server.url);
    const two = new RedisEventStore(second, { prefix: 't2:' });
    const first = await one.storeEvent('s.0', '1');
    await two.storeEvent('s.0', '2');
    await one.storeEvent('s.0', '3');
    expect((await replay(two, first)).seen.map(([, data]) => data)).toEqual(['2', '3']);
    second.disconnect();
  });

  test('ids it never issued, evicted ids and malformed ids are unknown', async () => {
    const store = new RedisEventStore(redis, { prefix: 't3:', maxPerStream: 2 });
    const first = await store.storeEvent('s.0', 'a');
    await store.storeEvent('s.0', 'b');
    await store.storeEvent('s.0', 'c');
    expect((await replay(store, first)).stream).toBeUndefined(); // evicted: only the newest 2 are kept
    expect((await replay(store, 'nope')).stream).toBeUndefined();
    expect((await replay(store, 'never.0_5')).stream).toBeUndefined();
    expect((await replay(store, 's.0_x')).stream).toBeUndefined();
  });

  test('a stream expires ttlMs after its last event', async () => {
    const store = new RedisEventStore(redis, { prefix: 't4:', ttlMs: 1000 });
    await store.storeEvent('s.0', 'a');
    const ttl = await redis.pttl('t4:events:{s}.0');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1000);
  });
});

describe('Redis URLs', () => {
  test('only redis://, rediss:// and redis+cluster:// are accepted, and errors never show the password', () => {
    expect(() => assertRedisUrl('redis://127.0.0.1:6379/2')).not.toThrow();
    expect(() => assertRedisUrl('rediss://user:pw@cache.example.com')).not.toThrow();
    expect(() => assertRedisUrl('127.0.0.1:6379')).toThrow(/is not a URL/);
    expect(() => assertRedisUrl('memcached://db:11211')).toThrow(
      /not a redis:\/\/, rediss:\/\/ or redis\+cluster:\/\/ URL/,
    );
    expect(() => assertRedisUrl('http://u:secret@x')).toThrow(/"http:\/\/u:\*\*\*@x"/);
    expect(redactRedisUrl('redis://:hunter2@db:6379')).toBe('redis://:***@db:6379');
    expect(redactRedisUrl('redis://token@db')).toBe('redis://***@db');
    expect(redactRedisUrl('redis://db:6379')).toBe('redis://db:6379');
  });

  test('a Redis Cluster URL lists seed nodes; a node that is not host:port is refused, without the password', () => {
    expect(parseClusterUrl('redis+cluster://10.0.0.5:7000,10.0.0.6:7001')).toEqual({
      nodes: [
        { host: '10.0.0.5', port: 7000 },
        { host: '10.0.0.6', port: 7001 },
      ],
      tls: false,
    });
    expect(parseClusterUrl('rediss+cluster://app:s%40cret@[::1]:7000')).toEqual({
      nodes: [{ host: '::1', port: 7000 }],
      username: 'app',
      password: 's@cret',
      tls: true,
    });
    expect(() => assertRedisUrl('redis+cluster://:pw@db:7000,db')).toThrow(/node "db" that is not host:port/);
    expect(() => assertRedisUrl('redis+cluster://:pw@db:7000,db')).not.toThrow(/pw/);
    expect(() => assertRedisUrl('redis+cluster://db:99999')).toThrow(/not host:port/);
  });
});
