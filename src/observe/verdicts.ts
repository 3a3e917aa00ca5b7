/**
 * Verdicts (issue 12): what a tool did, held against what its hints claim
 * (spec defaults where absent). Findings use lint's shape, severities and
 * reporters, so `candor observe` reads and exports like `candor lint`.
 */
import type { Finding } from '../lint/types.js';
import type { ResolvedHints } from '../tool/types.js';
import type { SnapshotDiff } from './snapshot.js';
import type { Effect } from './trace.js';

/** The observe rules, in the lint rule shape (for SARIF's rule list). */
export const OBSERVE_RULES = [
  {
    id: 'observe/read-only-wrote',
    severity: 'error',
    summary: 'A tool marked readOnlyHint: true changed files, ran a program or connected out.',
    explanation:
      'Hosts skip confirmation for read-only tools and let them through plan mode; a tool that writes while claiming to read defeats both.',
  },
  {
    id: 'observe/closed-world-connected',
    severity: 'error',
    summary:
      'A tool marked openWorldHint: false connected (or tried to) to a non-loopback address, or resolved a name.',
    explanation:
      'openWorldHint: false says the tool touches only its own closed set of things; reaching the network is an open world.',
  },
  {
    id: 'observe/non-destructive-deleted',
    severity: 'error',
    summary: 'A tool marked destructiveHint: false deleted, truncated or overwrote existing data.',
    explanation:
      'destructiveHint: false promises only additive changes; hosts may skip the extra confirmation destructive calls get.',
  },
  {
    id: 'observe/idempotent-changed-again',
    severity: 'warning',
    summary:
      'A tool marked idempotentHint: true changed state again when called a second time with the same arguments.',
    explanation:
      'Hosts retry idempotent calls after failures; a repeat that changes things again is not safe to retry.',
  },
  {
    id: 'observe/destructive-no-effect',
    severity: 'info',
    summary: 'A tool marked destructiveHint: true changed nothing in any observed call.',
    explanation:
      'It may only be destructive for other arguments; if it never is, a lighter hint spares people needless prompts.',
  },
] as const;

/** What one observed call did. */
export interface CallRecord {
  args: Record<string, unknown>;
  ok: boolean;
  error?: string;
  effects: Effect[];
  diff: SnapshotDiff;
}

/** Bookkeeping nobody would call a state change: caches and bytecode the runtime writes on its own. */
const BOOKKEEPING = /(\/\.cache\/|\.pyc$|__pycache__|\/node-compile-cache\/|-journal$|-wal$|-shm$)/;

/** DNS: a connection to this port is a name lookup. */
const DNS_PORT = 53;

/** The effects that change state (writes, deletes, renames, execs) and outbound connections, minus bookkeeping. */
export function stateChanges(call: CallRecord): {
  changed: string[];
  deleted: string[];
  overwritten: string[];
  execs: string[];
  outbound: Effect[];
} {
  const changed = new Set<string>();
  for (const file of [...call.diff.created, ...call.diff.modified, ...call.diff.deleted]) {
    if (!BOOKKEEPING.test(file)) changed.add(file);
  }
  const deleted = new Set(call.diff.deleted.filter((f) => !BOOKKEEPING.test(f)));
  // Overwritten: an existing file opened with O_TRUNC (or truncated) and changed. Appending
  // changes a file too, but adds; the snapshot alone cannot tell the two apart.
  const created = new Set(call.diff.created);
  const overwritten = new Set(
    call.effects
      .filter((e) => e.kind === 'truncate' && !created.has(e.path) && !BOOKKEEPING.test(e.path))
      .map((e) => (e as { path: string }).path)
      .filter((f) => call.diff.modified.includes(f)),
  );
  for (const effect of call.effects) {
    if ((effect.kind === 'delete' || effect.kind === 'rmdir') && !BOOKKEEPING.test(effect.path))
      deleted.add(effect.path);
  }
  const execs = call.effects.filter((e) => e.kind === 'exec').map((e) => e.path);
  // A name lookup counts even through a loopback resolver (systemd-resolved's 127.0.0.53):
  // resolving a name is reaching for the open world.
  const outbound = call.effects.filter(
    (e) => e.kind === 'connect' && e.family !== 'unix' && (!e.loopback || e.port === DNS_PORT),
  );
  return { changed: [...changed], deleted: [...deleted], overwritten: [...overwritten], execs, outbound };
}

/**
 * Judge one tool's calls against its hints.
 *
 * @example
 * ```ts
 * judge('get_status', hints, calls); // [{ ruleId: 'observe/read-only-wrote', … }]
 * ```
 */
export function judge(
  tool: string,
  hints: ResolvedHints,
  calls: readonly CallRecord[],
): Array<Finding & { evidence: string[] }> {
  const findings: Array<Finding & { evidence: string[] }> = [];
  const exercised = calls.filter((c) => c.ok);
  if (exercised.length === 0) return findings;
  const seen = exercised.map(stateChanges);
  const all = {
    changed: [...new Set(seen.flatMap((s) => s.changed))],
    deleted: [...new Set(seen.flatMap((s) => s.deleted))],
    overwritten: [...new Set(seen.flatMap((s) => s.overwritten))],
    execs: [...new Set(seen.flatMap((s) => s.execs))],
    outbound: seen.flatMap((s) => s.outbound),
  };
  const connects = [
    ...new Set(
      all.outbound.map((e) =>
        e.kind !== 'connect'
          ? ''
          : `${e.port === DNS_PORT ? 'resolved a name: ' : ''}connect ${e.address}:${e.port ?? ''} (${e.succeeded ? 'connected' : 'attempted'})`,
      ),
    ),
  ];
  const add = (id: (typeof OBSERVE_RULES)[number]['id'], message: string, evidence: string[]) => {
    const rule = OBSERVE_RULES.find((r) => r.id === id)!;
    findings.push({ ruleId: id, severity: rule.severity, tool, message, evidence });
  };
  if (hints.readOnlyHint && (all.changed.length > 0 || all.execs.length > 0 || all.outbound.length > 0)) {
    add('observe/read-only-wrote', `${tool} claims readOnlyHint: true, but its calls changed the system.`, [
      ...all.changed.map((f) => `changed ${f}`),
      ...all.execs.map((f) => `executed ${f}`),
      ...connects,
    ]);
  }
  if (!hints.openWorldHint && all.outbound.length > 0) {
    add(
      'observe/closed-world-connected',
      `${tool} claims openWorldHint: false, but it reached for the network.`,
      connects,
    );
  }
  if (!hints.readOnlyHint && !hints.destructiveHint && (all.deleted.length > 0 || all.overwritten.length > 0)) {
    add('observe/non-destructive-deleted', `${tool} claims destructiveHint: false, but it deleted or overwrote data.`, [
      ...all.deleted.map((f) => `deleted ${f}`),
      ...all.overwritten.map((f) => `overwrote ${f}`),
    ]);
  }
  if (!hints.readOnlyHint && hints.idempotentHint) {
    // Repeats of the same arguments (calls come in pairs) must change nothing the first did not.
    for (let i = 1; i < exercised.length; i++) {
      const first = exercised[i - 1]!;
      const again = exercised[i]!;
      if (JSON.stringify(first.args) !== JSON.stringify(again.args)) continue;
      const changes = stateChanges(again).changed;
      const modifiedAgain = again.diff.modified.filter((f) => changes.includes(f));
      if (modifiedAgain.length > 0 || again.diff.created.some((f) => changes.includes(f))) {
        add(
          'observe/idempotent-changed-again',
          `${tool} claims idempotentHint: true, but repeating a call changed state again.`,
          [
            ...again.diff.created.map((f) => `created ${f} on the repeat`),
            ...modifiedAgain.map((f) => `changed ${f} again on the repeat`),
          ],
        );
        break;
      }
    }
  }
  if (!hints.readOnlyHint && hints.destructiveHint && all.changed.length === 0 && all.execs.length === 0) {
    add(
      'observe/destructive-no-effect',
      `${tool} claims destructiveHint: true, but none of ${exercised.length} calls changed anything.`,
      [],
    );
  }
  return findings;
}
