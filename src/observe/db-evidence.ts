/**
 * Database evidence: what the witnesses of the doubles beside a server
 * (`--service postgres`) saw a tool's calls change, held against its hints.
 * - A read-only tool whose call changed rows or objects that existed before the
 *   call (INSERT, UPDATE, DELETE, DROP, ALTER, a Redis SET) contradicts its hint.
 *   Creating a new table (and filling it) is reported a level lower: a server may
 *   make its own tables on first use.
 * - A tool that promises only additive changes (destructiveHint: false) and
 *   deleted rows or keys, or dropped an object, is held to account as for files.
 * - An idempotent tool whose repeat (same arguments, back to back) changed the
 *   database again is not safe to retry.
 * - A tool whose hints say it writes, whose calls succeeded on the seeded data,
 *   and which changed nothing anywhere (no row, key, file, nor the network, where a
 *   write the witnesses cannot see may have gone; a program's own writes are traced) is a
 *   warning: absence of a write proves less than a write.
 * The witness sees only the doubles: a database elsewhere, or state the server
 * keeps in its own memory, is not seen.
 */
import type { Finding } from '../lint/types.js';
import type { ResolvedHints } from '../tool/types.js';
import { type DbChange, describeDbChange, isDbChange } from './doubles/table-diff.js';
import { type CallRecord, classify, type Scene } from './evidence.js';

/** The database rules, in the lint rule shape (for SARIF's rule list). */
export const DB_RULES = [
  {
    id: 'observe/read-only-db-write',
    severity: 'error',
    summary:
      'A tool marked readOnlyHint: true inserted, updated or deleted rows (or keys), or altered or dropped a table, in a database double.',
    explanation:
      'Hosts skip confirmation for read-only tools and let them through plan mode; a tool that writes to the database while claiming to read defeats both. The witness compares every table’s rows (by primary key) and every object before and after the call.',
  },
  {
    id: 'observe/read-only-db-created',
    severity: 'warning',
    summary:
      'A tool marked readOnlyHint: true created a table or another object (and perhaps filled it) in a database double.',
    explanation:
      'Creating objects is a write, but many servers create their own tables on first use, whichever tool is called first; so it is a warning. Changing anything that was there before the call is observe/read-only-db-write.',
  },
  {
    id: 'observe/non-destructive-db-deleted',
    severity: 'error',
    summary: 'A tool marked destructiveHint: false deleted rows or keys, or dropped an object, in a database double.',
    explanation:
      'destructiveHint: false promises only additive changes; deleting what was there is not additive. Updates are not counted here (an UPDATE may only fill in a field).',
  },
  {
    id: 'observe/idempotent-db-changed-again',
    severity: 'warning',
    summary:
      'A tool marked idempotentHint: true changed a database double again when called a second time with the same arguments.',
    explanation:
      'Hosts retry idempotent calls after failures; a repeat that inserts another row is not safe to retry. A repeat that writes the same values changes nothing the witness sees, and is fine.',
  },
  {
    id: 'observe/write-no-db-change',
    severity: 'warning',
    summary:
      'A tool whose hints say it writes succeeded on the seeded data, yet changed nothing: no row, key, object or file, and no network.',
    explanation:
      'Its hints may be stricter than it needs (readOnlyHint: true would let hosts run it without asking), or it writes only for other arguments. A warning: the absence of a write proves less than a write. Only for tools whose server annotated them (hints all at the spec’s defaults say nothing) and only while a database double ran beside the server.',
  },
] as const;

type DbRuleId = (typeof DB_RULES)[number]['id'];

/** The doubles whose witness reads a database. */
const DATABASE_KINDS: ReadonlySet<string> = new Set(['postgres', 'mysql', 'redis', 'sqlite']);

/** The hints a tool gets when its server says nothing (the spec's defaults). */
const SPEC_DEFAULTS: ResolvedHints = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

function finding(id: DbRuleId, tool: string, message: string, evidence: string[]): Finding & { evidence: string[] } {
  const rule = DB_RULES.find((r) => r.id === id)!;
  return { ruleId: id, severity: rule.severity, tool, message, evidence };
}

/** The database changes of one call. */
const dbChanges = (call: CallRecord): DbChange[] => (call.changes ?? []).filter(isDbChange);

/** Whether any of the calls changed a database double. */
export function touchedDatabase(calls: readonly CallRecord[]): boolean {
  return calls.some((call) => dbChanges(call).length > 0);
}

/**
 * The changes of one call that touched what existed before it (rows of tables it did not
 * create, objects altered or dropped), and the ones that only made new things.
 */
function split(changes: readonly DbChange[]): { existing: DbChange[]; created: DbChange[] } {
  const made = new Set(
    changes.flatMap((c) => (c.kind === 'db-schema' && c.change === 'created' ? [`${c.service} ${c.object}`] : [])),
  );
  const isNew = (c: DbChange) =>
    c.kind === 'db-schema'
      ? c.change === 'created'
      : made.has(`${c.service} table ${c.table}`) && c.updated === 0 && c.deleted === 0;
  return { existing: changes.filter((c) => !isNew(c)), created: changes.filter(isNew) };
}

const lines = (changes: readonly DbChange[]) => [...new Set(changes.map(describeDbChange))];

/**
 * Judge one tool's successful calls against its hints on what the database witnesses saw.
 *
 * @example
 * ```ts
 * judgeDatabase('list_customers', hints, exercised, scene);
 * // [{ ruleId: 'observe/read-only-db-write', evidence: ['postgres: inserted 1 row in public.notes'], … }]
 * ```
 */
export function judgeDatabase(
  tool: string,
  hints: ResolvedHints,
  exercised: readonly CallRecord[],
  scene: Scene,
): Array<Finding & { evidence: string[] }> {
  const findings: Array<Finding & { evidence: string[] }> = [];
  const parts = exercised.map((call) => split(dbChanges(call)));
  const existing = parts.flatMap((p) => p.existing);
  const created = parts.flatMap((p) => p.created);
  if (hints.readOnlyHint && existing.length > 0) {
    findings.push(
      finding(
        'observe/read-only-db-write',
        tool,
        `${tool} claims readOnlyHint: true, but its calls changed the database.`,
        lines(existing),
      ),
    );
  }
  if (hints.readOnlyHint && created.length > 0) {
    findings.push(
      finding(
        'observe/read-only-db-created',
        tool,
        `${tool} claims readOnlyHint: true, but its calls created objects in the database.`,
        lines(created),
      ),
    );
  }
  const removed = existing.filter(
    (c) => (c.kind === 'db-write' && c.deleted > 0) || (c.kind === 'db-schema' && c.change === 'dropped'),
  );
  if (!hints.readOnlyHint && !hints.destructiveHint && removed.length > 0) {
    findings.push(
      finding(
        'observe/non-destructive-db-deleted',
        tool,
        `${tool} claims destructiveHint: false, but it deleted data from the database.`,
        lines(removed),
      ),
    );
  }
  if (!hints.readOnlyHint && hints.idempotentHint) {
    const again = repeatChanged(exercised);
    if (again)
      findings.push(
        finding(
          'observe/idempotent-db-changed-again',
          tool,
          `${tool} claims idempotentHint: true, but repeating a call changed the database again.`,
          lines(again).map((line) => `${line} on the repeat`),
        ),
      );
  }
  const annotated = (Object.keys(SPEC_DEFAULTS) as Array<keyof ResolvedHints>).some(
    (name) => hints[name] !== SPEC_DEFAULTS[name],
  );
  const databases = (scene.doubles ?? []).filter((kind) => DATABASE_KINDS.has(kind));
  if (!hints.readOnlyHint && annotated && databases.length > 0 && exercised.length > 0) {
    const nothing = exercised.every((call) => {
      const e = classify(call, scene);
      return (
        (call.changes ?? []).length === 0 &&
        e.writes.length + e.deletions.length + e.overwrites.length + e.network.length === 0
      );
    });
    if (nothing)
      findings.push(
        finding(
          'observe/write-no-db-change',
          tool,
          `${tool} claims to write (readOnlyHint: false), but none of ${exercised.length} successful calls changed anything.`,
          [`database doubles running: ${databases.join(', ')}`],
        ),
      );
  }
  return findings;
}

/** The changes of the first back-to-back repeat (same arguments) that changed the database again. */
function repeatChanged(exercised: readonly CallRecord[]): DbChange[] | undefined {
  for (let i = 1; i < exercised.length; i++) {
    const first = exercised[i - 1]!;
    const again = exercised[i]!;
    if (JSON.stringify(first.args) !== JSON.stringify(again.args)) continue;
    const changes = dbChanges(again);
    if (changes.length > 0) return changes;
  }
  return undefined;
}
