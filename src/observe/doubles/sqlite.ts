/**
 * The SQLite double: a database file in the double's folder, seeded with the
 * shop, which the sandboxed server may write (the folder is writable inside,
 * for its journal). There is no program to run; the witness reads the file
 * through the `sqlite3` shell (sqlite-witness.ts), read-only, around each call.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { readSqliteState } from '../sqlite-witness.js';
import { doubleFailed, run } from './daemon.js';
import { SEED_SQL, sqlSeeds } from './seed.js';
import { stateWitness, stopOnce } from './state-witness.js';
import type { DoubleOptions, StartedDouble } from './types.js';

/**
 * Make a seeded SQLite file for an observed server.
 *
 * @example
 * ```ts
 * const db = await startSqliteDouble({ dir: '/tmp/candor-double-s' });
 * db.env.SQLITE_DB_PATH; // '/tmp/candor-double-s/candor.db'
 * ```
 */
export async function startSqliteDouble(options: DoubleOptions): Promise<StartedDouble> {
  await mkdir(options.dir, { recursive: true });
  const file = path.join(options.dir, 'candor.db');
  await run('sqlite3', ['-batch', file], {
    input: options.seedFile ? `.read ${JSON.stringify(options.seedFile)}\n` : SEED_SQL,
  }).catch((error: { output?: string; message: string }) => {
    throw doubleFailed('sqlite', 'seeding failed', error.output ?? error.message);
  });
  return {
    kind: 'sqlite',
    env: { SQLITE_DB_PATH: file, SQLITE_PATH: file, SQLITE_DATABASE: file },
    mounts: [],
    hosts: [],
    destinations: [],
    write: [options.dir],
    values: { url: file, path: file },
    seeds: sqlSeeds('main', file),
    witness: stateWitness('sqlite', async () => {
      const state = await readSqliteState(file);
      if (!state) throw new Error(`cannot read ${file}`);
      return state;
    }),
    stop: stopOnce({ stop: async () => {} }, options.dir),
  };
}
