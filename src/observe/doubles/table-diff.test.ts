import { describe, expect, it } from 'vitest';
import { keyPattern } from './redis.js';
import { addRow, CONTENT_KEY, type DbState, describeDbChange, diffStates, emptyState } from './table-diff.js';

/** A state from `table → [[id, hash], …]`, each table also listed as an object. */
function state(tables: Record<string, Array<[string, string]>>, objects: string[] = []): DbState {
  const out = emptyState();
  for (const [table, rows] of Object.entries(tables)) {
    out.objects.set(`table ${table}`, 'id integer');
    for (const [id, hash] of rows) addRow(out, table, id, hash);
  }
  for (const object of objects) out.objects.set(object, '');
  return out;
}

describe('diffStates', () => {
  it('counts rows inserted, updated and deleted by primary key', () => {
    const before = state({
      notes: [
        ['1', 'a'],
        ['2', 'b'],
        ['3', 'c'],
      ],
    });
    const after = state({
      notes: [
        ['1', 'a'],
        ['2', 'B'],
        ['4', 'd'],
        ['5', 'e'],
      ],
    });
    expect(diffStates('postgres', before, after)).toEqual([
      { kind: 'db-write', service: 'postgres', table: 'notes', inserted: 2, updated: 1, deleted: 1 },
    ]);
  });

  it('sees every row of a table deleted, not a dropped table, when the table is still there', () => {
    const before = state({
      orders: [
        ['1', 'a'],
        ['2', 'b'],
      ],
    });
    const after = state({ orders: [] });
    expect(diffStates('mysql', before, after)).toEqual([
      { kind: 'db-write', service: 'mysql', table: 'orders', inserted: 0, updated: 0, deleted: 2 },
    ]);
  });

  it('reports a dropped table as dropped, without its rows as deletions', () => {
    const before = state({ products: [['1', 'a']], notes: [] });
    const after = state({ notes: [] });
    expect(diffStates('sqlite', before, after)).toEqual([
      { kind: 'db-schema', service: 'sqlite', object: 'table products', change: 'dropped' },
    ]);
  });

  it('reports a created table, its rows as inserts, and an altered one', () => {
    const before = state({ notes: [] });
    before.objects.set('table notes', 'id integer');
    const after = state({ notes: [], cache: [['1', 'x']] });
    after.objects.set('table notes', 'id integer, body text');
    expect(diffStates('postgres', before, after)).toEqual([
      { kind: 'db-write', service: 'postgres', table: 'cache', inserted: 1, updated: 0, deleted: 0 },
      { kind: 'db-schema', service: 'postgres', object: 'table notes', change: 'altered' },
      { kind: 'db-schema', service: 'postgres', object: 'table cache', change: 'created' },
    ]);
  });

  it('pairs a gone and a new row of a table without a key as one update', () => {
    const before = state({
      log: [
        [`${CONTENT_KEY}a`, 'a'],
        [`${CONTENT_KEY}a`, 'a'],
        [`${CONTENT_KEY}b`, 'b'],
      ],
    });
    const after = state({
      log: [
        [`${CONTENT_KEY}a`, 'a'],
        [`${CONTENT_KEY}a`, 'a'],
        [`${CONTENT_KEY}c`, 'c'],
      ],
    });
    expect(diffStates('mysql', before, after)).toEqual([
      { kind: 'db-write', service: 'mysql', table: 'log', inserted: 0, updated: 1, deleted: 0 },
    ]);
  });

  it('counts Redis keys under a pattern with no table object: the last key gone is a deletion', () => {
    const before = emptyState();
    addRow(before, 'note:*', 'note:todo', 'x');
    const after = emptyState();
    expect(diffStates('redis', before, after)).toEqual([
      { kind: 'db-write', service: 'redis', table: 'note:*', inserted: 0, updated: 0, deleted: 1 },
    ]);
  });

  it('reports nothing when nothing changed', () => {
    const a = state({ notes: [['1', 'a']] }, ['database candor']);
    const b = state({ notes: [['1', 'a']] }, ['database candor']);
    expect(diffStates('postgres', a, b)).toEqual([]);
  });
});

describe('describeDbChange', () => {
  it('says rows for SQL and keys for Redis', () => {
    expect(
      describeDbChange({
        kind: 'db-write',
        service: 'postgres',
        table: 'public.notes',
        inserted: 1,
        updated: 2,
        deleted: 0,
      }),
    ).toBe('postgres: inserted 1 row, updated 2 rows in public.notes');
    expect(
      describeDbChange({ kind: 'db-write', service: 'redis', table: 'seen:*', inserted: 1, updated: 0, deleted: 3 }),
    ).toBe('redis: created 1 key, deleted 3 keys in seen:*');
    expect(describeDbChange({ kind: 'db-schema', service: 'mysql', object: 'table candor.t', change: 'dropped' })).toBe(
      'mysql: dropped table candor.t',
    );
  });
});

describe('keyPattern', () => {
  it('replaces the last part of a key with *', () => {
    expect(keyPattern('customer:1')).toBe('customer:*');
    expect(keyPattern('session:ab:cart')).toBe('session:ab:*');
    expect(keyPattern('tags')).toBe('tags');
    expect(keyPattern(':odd')).toBe(':odd');
  });
});
