/**
 * A database's state as a witness reads it, and what changed between two
 * readings. Each engine reads the same shape: its objects (tables, views,
 * indexes, schemas, databases) with a signature of their definition, and for
 * each table a map from a row's identity to a hash of its content. The identity
 * is the primary key where the table has one (so an UPDATE is one row
 * updated); a table without one is keyed by content, so a changed row shows as
 * one gone and one new, counted as an update when both appear (the deletions
 * reported are never more than the rows that truly went).
 */
import type { DoubleKind, WitnessChange } from './types.js';

/** One reading of a database. */
export interface DbState {
  /**
   * Object name (`table public.notes`: a table's name is `table ` and the name its rows are under)
   * → a signature of its definition (columns and types).
   */
  objects: Map<string, string>;
  /** Table name → row identity → content hash. Repeated content (no key) is counted. */
  tables: Map<string, Map<string, string>>;
}

/** An empty reading, to fill. */
export function emptyState(): DbState {
  return { objects: new Map(), tables: new Map() };
}

/** Record one row; a table without a key may hold the same content twice, so identities get a count. */
export function addRow(state: DbState, table: string, identity: string, hash: string): void {
  let rows = state.tables.get(table);
  if (!rows) {
    rows = new Map();
    state.tables.set(table, rows);
  }
  let id = identity;
  for (let n = 2; rows.has(id); n++) id = `${identity}#${n}`;
  rows.set(id, hash);
}

/**
 * What changed from `before` to `after`: rows per table, then objects created,
 * altered (signature changed) and dropped. A dropped table's rows are not
 * counted as deleted rows; the drop says more.
 *
 * @example
 * ```ts
 * diffStates('postgres', before, after);
 * // [{ kind: 'db-write', service: 'postgres', table: 'public.notes', inserted: 1, updated: 0, deleted: 0 }]
 * ```
 */
export function diffStates(service: DoubleKind, before: DbState, after: DbState): WitnessChange[] {
  const changes: WitnessChange[] = [];
  const tables = new Set([...before.tables.keys(), ...after.tables.keys()]);
  // A table read with no rows is in the objects only; rows not grouped in a table object (Redis
  // keys under a pattern) have no table to drop, so a pattern with no keys left is empty.
  const rowsIn = (state: DbState, table: string) => {
    const tracked = before.objects.has(`table ${table}`) || after.objects.has(`table ${table}`);
    return (
      state.tables.get(table) ??
      (!tracked || state.objects.has(`table ${table}`) ? new Map<string, string>() : undefined)
    );
  };
  for (const table of [...tables].sort()) {
    const was = rowsIn(before, table);
    const now = rowsIn(after, table);
    if (!was || !now) {
      // Created with rows, or dropped: the rows a new table was filled with are inserts.
      if (now && now.size > 0)
        changes.push({ kind: 'db-write', service, table, inserted: now.size, updated: 0, deleted: 0 });
      continue;
    }
    let inserted = 0;
    let updated = 0;
    let deleted = 0;
    for (const [id, hash] of now) {
      const old = was.get(id);
      if (old === undefined) inserted++;
      else if (old !== hash) updated++;
    }
    for (const id of was.keys()) if (!now.has(id)) deleted++;
    // Rows keyed by their content: a changed row is one gone and one new; pair them as updates.
    if (isKeyedByContent(was) || isKeyedByContent(now)) {
      const paired = Math.min(inserted, deleted);
      inserted -= paired;
      deleted -= paired;
      updated += paired;
    }
    if (inserted + updated + deleted > 0)
      changes.push({ kind: 'db-write', service, table, inserted, updated, deleted });
  }
  for (const [object, signature] of after.objects) {
    const old = before.objects.get(object);
    if (old === undefined) changes.push({ kind: 'db-schema', service, object, change: 'created' });
    else if (old !== signature) changes.push({ kind: 'db-schema', service, object, change: 'altered' });
  }
  for (const object of before.objects.keys()) {
    if (!after.objects.has(object)) changes.push({ kind: 'db-schema', service, object, change: 'dropped' });
  }
  return changes;
}

/** The identity prefix a reader uses for a table without a primary key. */
export const CONTENT_KEY = 'content:';

function isKeyedByContent(rows: ReadonlyMap<string, string>): boolean {
  for (const id of rows.keys()) return id.startsWith(CONTENT_KEY);
  return false;
}

/** A change a database witness reports. */
export type DbChange = Extract<WitnessChange, { kind: 'db-write' | 'db-schema' }>;

/** Whether a change is a database's (not a request or a page's). */
export const isDbChange = (change: WitnessChange): change is DbChange =>
  change.kind === 'db-write' || change.kind === 'db-schema';

/**
 * One evidence line for a database change.
 *
 * @example
 * ```ts
 * describeDbChange({ kind: 'db-write', service: 'redis', table: 'customer:*', inserted: 0, updated: 1, deleted: 0 });
 * // 'redis: updated 1 key in customer:*'
 * ```
 */
export function describeDbChange(change: DbChange): string {
  if (change.kind === 'db-schema') return `${change.service}: ${change.change} ${change.object}`;
  const unit = change.service === 'redis' ? 'key' : 'row';
  const count = (n: number) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  const parts = [
    change.inserted > 0 ? `${change.service === 'redis' ? 'created' : 'inserted'} ${count(change.inserted)}` : '',
    change.updated > 0 ? `${change.service === 'redis' ? 'changed' : 'updated'} ${count(change.updated)}` : '',
    change.deleted > 0 ? `deleted ${count(change.deleted)}` : '',
  ].filter(Boolean);
  return `${change.service}: ${parts.join(', ')} in ${change.table}`;
}
