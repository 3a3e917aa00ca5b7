/**
 * The MySQL-protocol double: Debian's MariaDB (`mariadbd`), its data folder
 * copied from one initialised once per machine, listening only on a Unix
 * socket in the double's folder, without grant tables (any user and password
 * is let in: a throwaway database has nothing to guard), seeded with the shop.
 * Inside the sandbox the server finds it at `127.0.0.1:3306`. The witness reads,
 * through the `mariadb` client, every table's rows (primary key → a hash of the
 * row, `JSON_ARRAY` of its columns) and every object's definition.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { asRoot, copyTemplate, doubleFailed, run, startDaemon, template } from './daemon.js';
import { SEED_SQL, SEED_TAG, sqlSeeds } from './seed.js';
import { stateWitness, stopOnce } from './state-witness.js';
import { addRow, CONTENT_KEY, type DbState, emptyState } from './table-diff.js';
import type { DoubleOptions, StartedDouble } from './types.js';

const PORT = 3306;
const USER = 'candor';
const DATABASE = 'candor';
const MAX_ROWS = 200_000;
const DAEMON = '/usr/sbin/mariadbd';
const SYSTEM = "('mysql', 'information_schema', 'performance_schema', 'sys')";

/** Small buffers and logs: a few tables of a few rows. */
const SIZES = ['--innodb-buffer-pool-size=16M', '--innodb-log-file-size=4M'];

/** Tables and views, columns (with the primary key), indexes and databases, tagged by kind. */
const OBJECTS_SQL = `SELECT 'T', TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA NOT IN ${SYSTEM};
SELECT 'C', TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, COLUMN_KEY FROM information_schema.COLUMNS
  WHERE TABLE_SCHEMA NOT IN ${SYSTEM} ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION;
SELECT 'I', TABLE_SCHEMA, TABLE_NAME, INDEX_NAME, GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX) FROM information_schema.STATISTICS
  WHERE TABLE_SCHEMA NOT IN ${SYSTEM} GROUP BY TABLE_SCHEMA, TABLE_NAME, INDEX_NAME;
SELECT 'D', SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME NOT IN ${SYSTEM};`;

/** A reading never waits long behind a lock the server holds (a table being altered): it gives up. */
const NO_WAIT = 'SET SESSION lock_wait_timeout = 2; SET SESSION innodb_lock_wait_timeout = 2;\n';

const ident = (name: string) => `\`${name.replace(/`/g, '``')}\``;
const literal = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * Start a seeded MariaDB beside an observed server.
 *
 * @example
 * ```ts
 * const db = await startMysqlDouble({ dir: '/tmp/candor-double-y' });
 * db.env.MYSQL_HOST; // '127.0.0.1'
 * await db.stop();
 * ```
 */
export async function startMysqlDouble(options: DoubleOptions): Promise<StartedDouble> {
  if (!existsSync(DAEMON))
    throw doubleFailed('mysql', 'MariaDB is not installed (Debian: apt-get install mariadb-server).');
  const user = asRoot() ? ['--user=root'] : [];
  // The template holds the seeded database too: a start is a copy and the server's own start-up.
  const initialised = await template(`mariadb-${SEED_TAG}`, async (folder) => {
    await run('mariadb-install-db', [
      ...['--no-defaults', `--datadir=${path.join(folder, 'data')}`, ...user],
      ...['--auth-root-authentication-method=normal', '--skip-test-db', '--skip-name-resolve', ...SIZES],
    ]).catch((error: { output?: string }) => {
      throw doubleFailed('mysql', 'mariadb-install-db failed', error.output);
    });
    const server = await serve(folder, user, options.signal);
    try {
      await server.client(`CREATE DATABASE ${DATABASE};`, 'mysql');
      await server.client(SEED_SQL);
    } catch (error) {
      throw doubleFailed('mysql', 'seeding failed', (error as { output?: string }).output);
    } finally {
      await server.daemon.stop();
    }
  });
  await mkdir(options.dir, { recursive: true });
  await copyTemplate(path.join(initialised, 'data'), path.join(options.dir, 'data'));
  const { daemon, client, socket } = await serve(options.dir, user, options.signal);
  if (options.seedFile) {
    try {
      await client(`DROP DATABASE ${DATABASE};\nCREATE DATABASE ${DATABASE};`, 'mysql');
      await client(`source ${options.seedFile}\n`);
    } catch (error) {
      await daemon.stop();
      throw doubleFailed('mysql', 'seeding failed', (error as { output?: string }).output);
    }
  }
  const url = `mysql://${USER}:${USER}@127.0.0.1:${PORT}/${DATABASE}`;
  return {
    kind: 'mysql',
    env: {
      MYSQL_URL: url,
      MYSQL_HOST: '127.0.0.1',
      MYSQL_PORT: String(PORT),
      MYSQL_USER: USER,
      MYSQL_PASSWORD: USER,
      MYSQL_DATABASE: DATABASE,
      MYSQL_DB: DATABASE,
    },
    mounts: [],
    hosts: [],
    destinations: [],
    sockets: { [`127.0.0.1:${PORT}`]: socket },
    values: { url, host: '127.0.0.1', port: String(PORT), user: USER, password: USER, database: DATABASE },
    seeds: sqlSeeds(DATABASE, DATABASE),
    witness: stateWitness('mysql', () => readMysql(client)),
    stop: stopOnce(daemon, options.dir),
  };
}

/** Run MariaDB on `home/data`, listening only on `home/mysql.sock`; and a client for it. */
async function serve(home: string, user: string[], signal?: AbortSignal) {
  const socket = path.join(home, 'mysql.sock');
  const daemon = await startDaemon({
    kind: 'mysql',
    command: DAEMON,
    args: [
      ...['--no-defaults', `--datadir=${path.join(home, 'data')}`, `--socket=${socket}`],
      ...[`--pid-file=${path.join(home, 'pid')}`, `--tmpdir=${home}`],
      ...['--skip-networking', '--skip-grant-tables', '--skip-log-bin', ...user, ...SIZES],
    ],
    ready: /ready for connections/,
    ...(signal ? { signal } : {}),
  });
  const client = (sql: string, database = DATABASE) =>
    run('mariadb', ['--no-defaults', '-S', socket, '-u', USER, '-B', '-N', database], {
      input: sql,
      timeoutMs: 30_000,
    });
  return { daemon, client, socket };
}

/** One reading: the objects, then a query over every base table's rows built from their columns. */
async function readMysql(client: (sql: string, database?: string) => Promise<string>): Promise<DbState> {
  const state = emptyState();
  const columns = new Map<string, Array<{ name: string; type: string; key: boolean }>>();
  const kinds = new Map<string, string>();
  const indexes: string[][] = [];
  for (const line of (await client(`${NO_WAIT}${OBJECTS_SQL}`, 'information_schema')).split('\n')) {
    const [tag, ...f] = line.split('\t');
    if (tag === 'T') kinds.set(`${f[0]}.${f[1]}`, f[2] === 'BASE TABLE' ? 'table' : 'view');
    else if (tag === 'C') {
      const table = `${f[0]}.${f[1]}`;
      if (!columns.has(table)) columns.set(table, []);
      columns.get(table)!.push({ name: f[2]!, type: f[3]!, key: f[4] === 'PRI' });
    } else if (tag === 'I') indexes.push(f);
    else if (tag === 'D') state.objects.set(`database ${f[0]}`, '');
  }
  const queries: string[] = [];
  for (const [table, kind] of kinds) {
    const cols = columns.get(table) ?? [];
    state.objects.set(`${kind} ${table}`, cols.map((c) => `${c.name} ${c.type}`).join(', '));
    if (kind !== 'table' || cols.length === 0) continue;
    const [schema, ...rest] = table.split('.');
    const from = `${ident(schema!)}.${ident(rest.join('.'))}`;
    const all = `MD5(JSON_ARRAY(${cols.map((c) => ident(c.name)).join(', ')}))`;
    const keys = cols.filter((c) => c.key);
    const id =
      keys.length > 0
        ? `MD5(JSON_ARRAY(${keys.map((c) => ident(c.name)).join(', ')}))`
        : `CONCAT('${CONTENT_KEY}', ${all})`;
    queries.push(`(SELECT 'R', ${literal(table)}, ${id}, ${all} FROM ${from} LIMIT ${MAX_ROWS + 1})`);
  }
  for (const [schema, table, name, cols] of indexes) state.objects.set(`index ${schema}.${table}.${name}`, cols ?? '');
  const counts = new Map<string, number>();
  if (queries.length > 0) {
    for (const line of (await client(`${NO_WAIT}${queries.join(' UNION ALL ')};`, 'information_schema')).split('\n')) {
      const [tag, table, id, hash] = line.split('\t');
      if (tag !== 'R' || table === undefined || id === undefined || hash === undefined) continue;
      addRow(state, table, id, hash);
      counts.set(table, (counts.get(table) ?? 0) + 1);
    }
  }
  for (const [table, n] of counts) if (n > MAX_ROWS) state.tables.delete(table);
  return state;
}
