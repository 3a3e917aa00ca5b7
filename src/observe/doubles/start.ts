/**
 * The double registry: kind → the function that starts it. Adding a kind is one
 * line here (and its name in `DoubleKind`).
 */
import { startHttpsApiDouble } from './https-api.js';
import { startMysqlDouble } from './mysql.js';
import { startPageDouble } from './page.js';
import { startPostgresDouble } from './postgres.js';
import { startRedisDouble } from './redis.js';
import { startSqliteDouble } from './sqlite.js';
import type { DoubleKind, DoubleOptions, StartedDouble } from './types.js';

/** Starts one kind of double. */
export type DoubleStarter = (options: DoubleOptions) => Promise<StartedDouble>;

/** Every double candor can start, by kind. */
export const DOUBLES: Partial<Record<DoubleKind, DoubleStarter>> = {
  postgres: startPostgresDouble,
  mysql: startMysqlDouble,
  redis: startRedisDouble,
  sqlite: startSqliteDouble,
  'https-api': startHttpsApiDouble,
  page: startPageDouble,
};

/** Other names people use for a kind (`--service mariadb`). */
export const DOUBLE_ALIASES: Readonly<Record<string, DoubleKind>> = {
  postgresql: 'postgres',
  pg: 'postgres',
  mariadb: 'mysql',
  https: 'https-api',
  api: 'https-api',
};

/**
 * Start a double of `kind`.
 *
 * @example
 * ```ts
 * const db = await startDouble('redis', { dir: '/tmp/candor-double-r' });
 * ```
 */
export function startDouble(kind: DoubleKind, options: DoubleOptions): Promise<StartedDouble> {
  const starter = DOUBLES[kind];
  if (!starter) return Promise.reject(new Error(`no double of kind ${kind}`));
  return starter(options);
}
