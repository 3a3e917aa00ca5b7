import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RedisServer, startRedis } from '../../test/support/redis-server.js';
import { waitFor } from '../../test/support/until.js';
import { createRedisTaskStore, type RedisTaskStore } from './redis-task-store.js';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedis();
});
afterAll(() => server?.stop());

/**
 * A loopback TCP relay in front of the real Redis that can drop every connection and,
 * on the connections opened after that, hold Redis's answers back from the moment the
 * client asks `INFO` (ioredis's ready check) until released.
 */
async function relay(port: number) {
  const pairs = new Set<[Socket, Socket]>();
  const held: Array<() => void> = [];
  let holding = false;
  let infos = 0;
  let quits = 0;
  const front: Server = createServer((client) => {
    const redis = createConnection({ port, host: '127.0.0.1' });
    const pair: [Socket, Socket] = [client, redis];
    pairs.add(pair);
    const holdHere = holding;
    let asked = false;
    client.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1').toLowerCase();
      if (text.includes('\r\ninfo\r\n')) {
        asked = true;
        infos++;
      }
      if (text.includes('\r\nquit\r\n')) quits++;
      redis.write(chunk);
    });
    redis.on('data', (chunk: Buffer) => {
      if (holdHere && asked) held.push(() => client.write(chunk));
      else client.write(chunk);
    });
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      redis.destroy();
    };
    client.on('close', end).on('error', end);
    // Redis hanging up reaches the client after the answers held before it.
    redis.on('close', () => (holdHere && asked ? held.push(end) : end())).on('error', end);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const address = front.address();
  return {
    url: `redis://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    infos: () => infos,
    quits: () => quits,
    dropAll(hold = false) {
      holding = hold;
      infos = 0;
      for (const [client, redis] of pairs) {
        client.destroy();
        redis.destroy();
      }
    },
    release() {
      for (const send of held.splice(0)) send();
    },
    close: () => new Promise<void>((resolve) => front.close(() => resolve())),
  };
}

test('closing while the subscriber is mid-reconnect leaves no stray rejection behind', async () => {
  const stray: unknown[] = [];
  const onStray = (reason: unknown) => stray.push(reason);
  process.on('unhandledRejection', onStray);
  const front = await relay(server.port);
  try {
    const store = createRedisTaskStore(front.url, { prefix: 'reconnect:' }) as RedisTaskStore;
    await store.ready();
    expect(await store.get('none')).toBeUndefined();
    // Both connections reconnect and send their ready checks; the answers wait.
    front.dropAll(true);
    await waitFor(() => front.infos() >= 2, 'both ready checks');
    const closed = store.close();
    await waitFor(() => front.quits() >= 2, 'both QUITs');
    // Redis answers INFO (the client is ready and resubscribes), then QUIT, then hangs up.
    front.release();
    await closed;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stray.map(String)).toEqual([]);
  } finally {
    process.off('unhandledRejection', onStray);
    await front.close();
  }
});

test('after a reconnect the store hears settled tasks again', async () => {
  const front = await relay(server.port);
  const publisher = new Redis(server.url);
  const store = createRedisTaskStore(front.url, { prefix: 'rejoin:' }) as RedisTaskStore;
  try {
    const heard: string[] = [];
    store.onSettled((taskId, status) => heard.push(`${taskId} ${status}`));
    await store.ready();
    front.dropAll();
    await waitFor(() => front.infos() >= 2, 'both connections back');
    // Published until heard: the subscription may come back a moment after the ready check.
    await waitFor(() => {
      void publisher.publish('rejoin:tasks:settled', 't1 completed');
      return heard.length > 0;
    }, 'the settled message');
    expect(heard[0]).toBe('t1 completed');
  } finally {
    await store.close();
    publisher.disconnect();
    await front.close();
  }
});
