/**
 * The PostgreSQL double: Debian's `postgres`, its data folder copied from one
 * initialised once per machine (`initdb` takes seconds, the copy a fraction of
 * one), listening only on a Unix socket in the double's folder (no TCP port on
 * the machine), seeded with the shop (seed.ts). Inside the sandbox the server
 * finds it at `127.0.0.1:5432`, the usual place. As root it runs as `nobody`
 * (PostgreSQL refuses root). The witness reads, through `psql`, every table's
 * rows (primary key → a hash of the row) and every object's definition.
 */
import { existsSync, readdirSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asRoot, copyTemplate, doubleFailed, handOver, run, startDaemon, template, unprivileged } from './daemon.js';
import { SEED_SQL, SEED_TAG, sqlSeeds } from './seed.js';
import { stateWitness, stopOnce } from './state-witness.js';
import { addRow, type DbState, emptyState } from './table-diff.js';
import type { DoubleOptions, StartedDouble } from './types.js';

/** The port the server finds PostgreSQL at inside the sandbox (and the socket's name outside). */
const PORT = 5432;
const USER = 'candor';
const DATABASE = 'candor';
/** Tables with more rows than this are left out of the row comparison (too long to compare per call). */
const MAX_ROWS = 200_000;

/** Debian installs PostgreSQL's programs per major version, off PATH; the newest one. */
function programs(): { bin: string; version: string } {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0)
    throw doubleFailed('postgres', 'PostgreSQL is not installed (Debian: apt-get install postgresql).');
  return { bin: path.join(root, versions[0]!, 'bin'), version: versions[0]! };
}

/** Objects: tables, views, indexes, sequences (with their columns), schemas, databases. */
const OBJECTS_SQL = `SELECT 'O', o.kind || ' ' || o.name, o.sig FROM (
  SELECT CASE c.relkind WHEN 'r' THEN 'table' WHEN 'p' THEN 'table' WHEN 'v' THEN 'view'
      WHEN 'm' THEN 'materialized view' WHEN 'i' THEN 'index' ELSE 'sequence' END AS kind,
    n.nspname || '.' || c.relname AS name,
    coalesce((SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod), ', ' ORDER BY a.attnum)
      FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '') AS sig
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'p', 'v', 'm', 'i', 'S') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
    AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%') o
UNION ALL SELECT 'O', 'schema ' || nspname, '' FROM pg_namespace
  WHERE nspname NOT IN ('pg_catalog', 'information_schema') AND nspname NOT LIKE 'pg\\_toast%' AND nspname NOT LIKE 'pg\\_temp%'
UNION ALL SELECT 'O', 'database ' || datname, '' FROM pg_database WHERE NOT datistemplate;`;

/**
 * One query per table, made by the database and run by psql's \\gexec: the table's name, each
 * row's identity (its primary key, else its content) and a hash of the row.
 */
const ROWS_SQL = `SELECT string_agg(format('(SELECT %L, %L, %s, md5(t::text) FROM %I.%I t LIMIT ${MAX_ROWS + 1})',
    'R', n.nspname || '.' || c.relname,
    coalesce((SELECT 'md5(ROW(' || string_agg(format('t.%I', a.attname), ', ' ORDER BY a.attnum) || ')::text)'
      FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
      WHERE i.indrelid = c.oid AND i.indisprimary), '''content:'' || md5(t::text)'),
    n.nspname, c.relname), ' UNION ALL ')
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND n.nspname NOT IN ('pg_catalog', 'information_schema')
  AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
\\gexec
`;

/**
 * Start a seeded PostgreSQL beside an observed server.
 *
 * @example
 * ```ts
 * const pg = await startPostgresDouble({ dir: '/tmp/candor-double-x' });
 * pg.env.DATABASE_URL; // 'postgresql://candor:candor@127.0.0.1:5432/candor'
 * await pg.stop();
 * ```
 */
export async function startPostgresDouble(options: DoubleOptions): Promise<StartedDouble> {
  const { bin, version } = programs();
  // The template holds the seeded database too: a start is a copy and the server's own start-up.
  const initialised = await template(`postgres-${version}-${SEED_TAG}`, async (folder) => {
    await handOver(folder);
    const [command, args] = unprivileged(path.join(bin, 'initdb'), [
      ...['-D', path.join(folder, 'data'), '-A', 'trust', '-U', USER, '-E', 'UTF8', '--locale=C'],
      ...['--no-sync', '--no-instructions'],
    ]);
    await run(command, args).catch((error: { output?: string }) => {
      throw doubleFailed('postgres', 'initdb failed', error.output);
    });
    const server = await serve(bin, folder, options.signal);
    try {
      await server.psql('postgres', `CREATE DATABASE ${DATABASE};`);
      await server.psql(DATABASE, SEED_SQL);
    } catch (error) {
      throw doubleFailed('postgres', 'seeding failed', (error as { output?: string }).output);
    } finally {
      await server.daemon.stop();
    }
  });
  await mkdir(options.dir, { recursive: true });
  // As root the database runs as nobody, who must reach its folder: one of its own under TMPDIR
  // (passable, not listable), since the folder given may sit in folders only root can enter.
  const home = asRoot() ? await mkdtemp(path.join(tmpdir(), 'candor-double-pg-')) : options.dir;
  await chmod(home, 0o711);
  await copyTemplate(path.join(initialised, 'data'), path.join(home, 'data'));
  const { daemon, psql, socketDir } = await serve(bin, home, options.signal);
  if (options.seedFile) {
    try {
      await psql('postgres', `DROP DATABASE ${DATABASE};\nCREATE DATABASE ${DATABASE};`);
      await psql(DATABASE, `\\i ${JSON.stringify(options.seedFile).slice(1, -1)}\n`);
    } catch (error) {
      await daemon.stop();
      throw doubleFailed('postgres', 'seeding failed', (error as { output?: string }).output);
    }
  }
  const url = `postgresql://${USER}:${USER}@127.0.0.1:${PORT}/${DATABASE}`;
  return {
    kind: 'postgres',
    env: {
      DATABASE_URL: url,
      POSTGRES_URL: url,
      POSTGRES_CONNECTION_STRING: url,
      PGHOST: '127.0.0.1',
      PGPORT: String(PORT),
      PGUSER: USER,
      PGPASSWORD: USER,
      PGDATABASE: DATABASE,
    },
    mounts: [],
    hosts: [],
    destinations: [],
    sockets: { [`127.0.0.1:${PORT}`]: path.join(socketDir, `.s.PGSQL.${PORT}`) },
    values: { url, host: '127.0.0.1', port: String(PORT), user: USER, password: USER, database: DATABASE },
    seeds: sqlSeeds('public', DATABASE),
    witness: stateWitness('postgres', () => readPostgres(psql)),
    stop: stopOnce(
      {
        stop: async () => {
          await daemon.stop();
          await rm(home, { recursive: true, force: true });
        },
      },
      options.dir,
    ),
  };
}

/** Run PostgreSQL on `home/data`, listening only on a socket in `home/run`; and a psql for it. */
async function serve(bin: string, home: string, signal?: AbortSignal) {
  const data = path.join(home, 'data');
  const socketDir = path.join(home, 'run');
  await mkdir(socketDir);
  await handOver(socketDir);
  const [command, args] = unprivileged(path.join(bin, 'postgres'), [
    ...['-D', data, '-p', String(PORT), '-k', socketDir],
    // Only the socket; a throwaway database needs no durability.
    ...['-c', 'listen_addresses=', '-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'synchronous_commit=off'],
    ...['-c', 'max_connections=30', '-c', 'shared_buffers=16MB'],
  ]);
  const daemon = await startDaemon({
    kind: 'postgres',
    command,
    args,
    ready: /database system is ready to accept connections/,
    ...(signal ? { signal } : {}),
  });
  const psql = (database: string, sql: string, extra: string[] = []) =>
    run(
      'psql',
      ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', socketDir, '-p', String(PORT), '-U', USER, ...extra, '-d', database],
      { input: sql, timeoutMs: 30_000 },
    );
  return { daemon, psql, socketDir };
}

/** One reading, through one psql: the objects, then every table's rows (NUL-separated fields). */
async function readPostgres(
  psql: (database: string, sql: string, extra?: string[]) => Promise<string>,
): Promise<DbState> {
  const out = await psql(DATABASE, `SET lock_timeout = '2s';\n${OBJECTS_SQL}\n${ROWS_SQL}`, ['-A', '-t', '-z', '-0']);
  const state = emptyState();
  const counts = new Map<string, number>();
  // Fields and records both end with NUL (-z -0); each record's tag says how many fields follow.
  const fields = out.split('\0');
  for (let i = 0; i < fields.length; ) {
    const tag = fields[i];
    if (tag === 'O') {
      state.objects.set(fields[i + 1]!, fields[i + 2]!);
      i += 3;
    } else if (tag === 'R') {
      const table = fields[i + 1]!;
      addRow(state, table, fields[i + 2]!, fields[i + 3]!);
      counts.set(table, (counts.get(table) ?? 0) + 1);
      i += 4;
    } else i++;
  }
  for (const [table, n] of counts) if (n > MAX_ROWS) state.tables.delete(table);
  return state;
}
