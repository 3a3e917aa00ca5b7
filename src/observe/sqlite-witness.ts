/**
 * A database witness: the file snapshot sees a SQLite file only as
 * "modified", whether a call inserted a row or deleted a hundred. For each SQLite
 * file in the workdir copy, the witness lists the rowids of every table before and
 * after a call, so deleted rows are evidence of a deletion. It reads through the
 * `sqlite3` command-line shell, read-only, with a short busy timeout; without the
 * shell (or on a locked file) it says nothing and the snapshot still holds.
 */
import { execFile } from 'node:child_process';
import { open } from 'node:fs/promises';
import { addRow, type DbState, emptyState } from './doubles/table-diff.js';

/** Table → rowids, per database file. */
export type RowSets = Map<string, Map<string, Set<string>>>;

/** Tables larger than this are left out (their rowid list would be too long to compare cheaply). */
const MAX_ROWS = 200_000;

/** Whether a file starts with the SQLite header. */
export async function isSqliteFile(file: string): Promise<boolean> {
  try {
    const handle = await open(file, 'r');
    try {
      const header = Buffer.alloc(16);
      await handle.read(header, 0, 16, 0);
      return header.toString('latin1') === 'SQLite format 3\0';
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

function sqlite(file: string, sql: string, mode: string[] = []): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      'sqlite3',
      ['-readonly', '-batch', '-noheader', ...mode, '-cmd', '.timeout 1000', file, sql],
      { timeout: 10_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => resolve(error ? undefined : stdout),
    );
  });
}

/** The rowids of every ordinary table of one database; undefined when it cannot be read. */
async function rowsOf(file: string): Promise<Map<string, Set<string>> | undefined> {
  const names = await sqlite(
    file,
    "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE '%WITHOUT ROWID%';",
  );
  if (names === undefined) return undefined;
  const tables = new Map<string, Set<string>>();
  for (const name of names.split('\n').filter(Boolean)) {
    const quoted = `"${name.replace(/"/g, '""')}"`;
    const out = await sqlite(file, `SELECT rowid FROM ${quoted} LIMIT ${MAX_ROWS + 1};`);
    if (out === undefined) continue;
    const ids = out.split('\n').filter(Boolean);
    if (ids.length <= MAX_ROWS) tables.set(name, new Set(ids));
  }
  return tables;
}

/**
 * Read the rows of the given SQLite files.
 *
 * @example
 * ```ts
 * const before = await readRows(['/tmp/c/work/app.db']);
 * ```
 */
export async function readRows(files: readonly string[]): Promise<RowSets> {
  const out: RowSets = new Map();
  for (const file of files) {
    const rows = await rowsOf(file);
    if (rows) out.set(file, rows);
  }
  return out;
}

/** Rows deleted between two readings, per file and table. */
export interface DeletedRows {
  file: string;
  table: string;
  rows: number;
}

/**
 * The rows present before and gone after (a dropped table counts all its rows).
 *
 * @example
 * ```ts
 * deletedRows(before, after); // [{ file: '/tmp/c/work/app.db', table: 'notes', rows: 2 }]
 * ```
 */
export function deletedRows(before: RowSets, after: RowSets): DeletedRows[] {
  const out: DeletedRows[] = [];
  for (const [file, tables] of before) {
    const later = after.get(file);
    if (later === undefined) continue;
    for (const [table, ids] of tables) {
      const now = later.get(table) ?? new Set<string>();
      let gone = 0;
      for (const id of ids) if (!now.has(id)) gone++;
      if (gone > 0) out.push({ file, table, rows: gone });
    }
  }
  return out;
}

/** `-ascii` output: fields end at U+001F, records at U+001E (neither appears in names or SQL). */
const ASCII = ['-ascii'];
const records = (out: string) =>
  out
    .split('\x1e')
    .filter(Boolean)
    .map((record) => record.split('\x1f'));
const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;
const quoteText = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * One reading of a SQLite file for a database witness: every object (`table notes`, `index …`)
 * with its SQL, and every ordinary table's rows, keyed by primary key (else rowid) with a SHA-3
 * of their values (the shell's `sha3()`). Undefined when it cannot be read.
 *
 * @example
 * ```ts
 * const state = await readSqliteState('/tmp/candor-double-x/app.db');
 * ```
 */
export async function readSqliteState(file: string): Promise<DbState | undefined> {
  const out = await sqlite(
    file,
    `SELECT 'O', type, name, coalesce(sql, '') FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%';
SELECT 'C', m.name, p.name, p.pk FROM sqlite_schema m JOIN pragma_table_info(m.name) p
  WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY m.name, p.cid;`,
    ASCII,
  );
  if (out === undefined) return undefined;
  const state = emptyState();
  const columns = new Map<string, Array<{ name: string; pk: boolean }>>();
  for (const [tag, a, b, c] of records(out)) {
    if (tag === 'O') state.objects.set(`${a} ${b}`, c ?? '');
    else if (tag === 'C') {
      if (!columns.has(a!)) columns.set(a!, []);
      columns.get(a!)!.push({ name: b!, pk: c !== '0' });
    }
  }
  const queries = [...columns].map(([table, cols]) => {
    const values = (list: typeof cols) => list.map((col) => `quote(${quoteName(col.name)})`).join(` || ',' || `);
    const keys = cols.filter((col) => col.pk);
    const id = keys.length > 0 ? values(keys) : 'rowid';
    return `SELECT 'R', ${quoteText(table)}, ${id}, sha3(${values(cols)}) FROM ${quoteName(table)}`;
  });
  if (queries.length === 0) return state;
  const rows = await sqlite(file, `${queries.join(' UNION ALL ')};`, ASCII);
  if (rows === undefined) return undefined;
  for (const [tag, table, id, hash] of records(rows)) {
    if (tag === 'R' && table !== undefined) addRow(state, table, id ?? '', hash ?? '');
  }
  return state;
}
