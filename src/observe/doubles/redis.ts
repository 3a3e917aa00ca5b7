/**
 * The Redis double: Debian's `redis-server`, with no TCP port (a Unix socket in
 * the double's folder), no persistence, seeded with the shop as keys. Inside
 * the sandbox the server finds it at `127.0.0.1:6379`. The witness walks every
 * logical database's keys (SCAN) and hashes each key's serialised value
 * (DUMP), so a key created, changed or deleted shows; keys are grouped by
 * pattern (`customer:1` → `customer:*`), the "table" of a key-value store.
 * A key's time to live is not part of its value, so EXPIRE alone does not show. A seed file
 * holds one command a line, its words separated by spaces (`HSET user:1 name Ada`).
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import { doubleFailed, startDaemon } from './daemon.js';
import { REDIS_SEEDS, SEED_REDIS } from './seed.js';
import { stateWitness, stopOnce } from './state-witness.js';
import { addRow, type DbState, emptyState } from './table-diff.js';
import type { DoubleOptions, StartedDouble } from './types.js';

const PORT = 6379;
/** Databases with more keys than this are left out of the comparison. */
const MAX_KEYS = 200_000;

/**
 * The pattern a key is counted under: its last `:`-separated part replaced by `*`
 * (`customer:1` → `customer:*`), or the key itself when it has no `:`.
 *
 * @example
 * ```ts
 * keyPattern('session:ab12:cart'); // 'session:ab12:*'
 * ```
 */
export function keyPattern(key: string): string {
  const cut = key.lastIndexOf(':');
  return cut > 0 ? `${key.slice(0, cut)}:*` : key;
}

/**
 * Start a seeded Redis beside an observed server.
 *
 * @example
 * ```ts
 * const redis = await startRedisDouble({ dir: '/tmp/candor-double-z' });
 * redis.env.REDIS_URL; // 'redis://127.0.0.1:6379'
 * await redis.stop();
 * ```
 */
export async function startRedisDouble(options: DoubleOptions): Promise<StartedDouble> {
  await mkdir(options.dir, { recursive: true });
  const socket = path.join(options.dir, 'redis.sock');
  const daemon = await startDaemon({
    kind: 'redis',
    command: 'redis-server',
    args: [
      ...['--port', '0', '--unixsocket', socket, '--unixsocketperm', '777', '--dir', options.dir],
      ...['--save', '', '--appendonly', 'no', '--loglevel', 'notice'],
    ],
    ready: /ready to accept connections/i,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const client = new Redis({ path: socket, lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: true });
  try {
    await client.connect();
    if (options.seedFile) {
      const lines = (await readFile(options.seedFile, 'utf8'))
        .split('\n')
        .filter((l) => l.trim() && !l.startsWith('#'));
      for (const line of lines) {
        const [name, ...args] = line.trim().split(/\s+/);
        await client.call(name!, ...args);
      }
    } else for (const [name, ...args] of SEED_REDIS) await client.call(name!, ...args);
  } catch (error) {
    client.disconnect();
    await daemon.stop();
    throw doubleFailed('redis', `seeding failed: ${(error as Error).message}`);
  }
  const url = `redis://127.0.0.1:${PORT}`;
  const stop = stopOnce(daemon, options.dir);
  return {
    kind: 'redis',
    env: { REDIS_URL: url, REDIS_HOST: '127.0.0.1', REDIS_PORT: String(PORT) },
    mounts: [],
    hosts: [],
    destinations: [],
    sockets: { [`127.0.0.1:${PORT}`]: socket },
    values: { url, host: '127.0.0.1', port: String(PORT) },
    seeds: REDIS_SEEDS,
    witness: stateWitness('redis', () => readRedis(client)),
    stop: async () => {
      client.disconnect();
      await stop();
    },
  };
}

/** Every key of every database that holds any, under its pattern (`db3:` before it outside database 0). */
async function readRedis(client: Redis): Promise<DbState> {
  const state = emptyState();
  const keyspace = await client.info('keyspace');
  const databases = [...keyspace.matchAll(/^db(\d+):keys=(\d+)/gm)].map((m) => ({
    db: Number(m[1]),
    keys: Number(m[2]),
  }));
  for (const { db, keys } of databases) {
    if (keys > MAX_KEYS) continue;
    await client.select(db);
    let cursor = '0';
    do {
      const [next, batch] = await client.scan(cursor, 'COUNT', 1000);
      cursor = next;
      const pipeline = client.pipeline();
      for (const key of batch) pipeline.dumpBuffer(key);
      const dumps = (await pipeline.exec()) ?? [];
      batch.forEach((key, i) => {
        const value = dumps[i]?.[1] as Buffer | null | undefined;
        if (!value) return; // expired or deleted between SCAN and DUMP
        const hash = createHash('sha1').update(value).digest('hex');
        addRow(state, `${db === 0 ? '' : `db${db}:`}${keyPattern(key)}`, key, hash);
      });
    } while (cursor !== '0');
  }
  await client.select(0);
  return state;
}
