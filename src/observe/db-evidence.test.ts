import { describe, expect, it } from 'vitest';
import type { ResolvedHints } from '../tool/types.js';
import { judgeDatabase } from './db-evidence.js';
import type { WitnessChange } from './doubles/types.js';
import type { CallRecord, Scene } from './evidence.js';

const scene: Scene = { work: '/w', home: '/h', tmp: '/t', initial: new Set(), doubles: ['postgres'] };
const readOnly: ResolvedHints = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
const additive: ResolvedHints = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
const defaults: ResolvedHints = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

function call(changes: WitnessChange[] = [], args: Record<string, unknown> = {}): CallRecord {
  return { args, ok: true, effects: [], diff: { created: [], modified: [], deleted: [] }, changes };
}
const rules = (hints: ResolvedHints, calls: CallRecord[], at: Scene = scene) =>
  judgeDatabase('tool', hints, calls, at).map((f) => f.ruleId);

const insert = (table: string): WitnessChange => ({
  kind: 'db-write',
  service: 'postgres',
  table,
  inserted: 1,
  updated: 0,
  deleted: 0,
});
const created = (object: string): WitnessChange => ({
  kind: 'db-schema',
  service: 'postgres',
  object,
  change: 'created',
});

describe('judgeDatabase', () => {
  it('holds an insert into a table that was there against readOnlyHint', () => {
    expect(rules(readOnly, [call([insert('public.notes')])])).toEqual(['observe/read-only-db-write']);
  });

  it('reports a table the call created, and the rows put in it, a level lower', () => {
    const findings = judgeDatabase(
      'tool',
      readOnly,
      [call([created('table public.cache'), insert('public.cache')])],
      scene,
    );
    expect(findings.map((f) => [f.ruleId, f.severity])).toEqual([['observe/read-only-db-created', 'warning']]);
    expect(findings[0]!.evidence).toEqual([
      'postgres: created table public.cache',
      'postgres: inserted 1 row in public.cache',
    ]);
  });

  it('holds a drop, not an update, against destructiveHint: false', () => {
    const update: WitnessChange = {
      kind: 'db-write',
      service: 'postgres',
      table: 't',
      inserted: 0,
      updated: 2,
      deleted: 0,
    };
    expect(rules(additive, [call([update])])).toEqual([]);
    const drop: WitnessChange = { kind: 'db-schema', service: 'postgres', object: 'table public.t', change: 'dropped' };
    expect(rules(additive, [call([drop])])).toEqual(['observe/non-destructive-db-deleted']);
  });

  it('warns about a writer that changed nothing only when its server annotated it and a database ran', () => {
    expect(rules(additive, [call(), call()])).toEqual(['observe/write-no-db-change']);
    expect(rules(defaults, [call(), call()])).toEqual([]);
    expect(rules(additive, [call(), call()], { ...scene, doubles: ['https-api'] })).toEqual([]);
    expect(rules(additive, [call([insert('public.notes')])])).toEqual([]);
  });

  it('holds a repeat that changed the database again against idempotentHint', () => {
    const idempotent = { ...additive, idempotentHint: true };
    expect(rules(idempotent, [call([insert('t')], { a: 1 }), call([insert('t')], { a: 1 })])).toEqual([
      'observe/idempotent-db-changed-again',
    ]);
    expect(rules(idempotent, [call([insert('t')], { a: 1 }), call([], { a: 1 })])).toEqual([]);
  });
});
