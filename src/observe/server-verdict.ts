/**
 * A server's verdict carries what it covers: how many of its tools were
 * exercised, of how many, and why each of the others was not. The words a
 * report prints come from here only, so "consistent" is said of a server only
 * when every tool ran, "consistent (N of M exercised)" when some did, and
 * "not verified" (its own exit code) when none did: a CI gate that reads the
 * exit code never passes a server that did not run. A leaf file: it imports
 * nothing from its siblings.
 */

/**
 * What a server's run showed, worst first: `contradictions` (an error-level finding),
 * `failed` (a call hung or the server died, and nothing contradicted), `not verified`
 * (no tool was exercised), `partial` (consistent where exercised, some tools not), `consistent`
 * (every tool exercised, nothing contradicted).
 */
export type VerdictKind = 'contradictions' | 'failed' | 'not verified' | 'partial' | 'consistent';

/** One tool that was not exercised, and why. */
export interface NotExercised {
  tool: string;
  reason: string;
}

/** A server's verdict with its coverage. Built only by {@link serverVerdict}. */
export interface ServerVerdict {
  verdict: VerdictKind;
  /** The words to print: `consistent`, `consistent (2 of 3 exercised)`, `not verified (0 of 3 exercised)`, … */
  label: string;
  /** Tools with at least one call that did its work. */
  exercised: number;
  /** Tools the server listed. */
  total: number;
  /** Every tool not exercised, with its reason (kept whole). */
  reasons: NotExercised[];
  /** Why observing stopped early (a call hung, the server exited, it could not start), when it did. */
  stopped?: string;
}

/**
 * The exit code of each verdict: 0 consistent (also where only some tools ran, said so
 * in the label), 1 contradictions, 2 could not observe (a hang, the server died or did not
 * start), 3 not verified (no tool ran).
 */
export const VERDICT_EXIT: Readonly<Record<VerdictKind, number>> = Object.freeze({
  consistent: 0,
  partial: 0,
  contradictions: 1,
  failed: 2,
  'not verified': 3,
});

/** What {@link serverVerdict} reads. */
export interface VerdictInput {
  /** Every tool the server listed, in order. */
  listed: readonly string[];
  /** The tools observed; a listed tool missing here was left out (`leftOut` says why). */
  tools: ReadonlyArray<{ name: string; notExercised?: string | undefined }>;
  /** Whether any error-level finding (observe's or lint's) was made. */
  contradictions: boolean;
  /** Why observing stopped early, when it did. */
  failure?: string | undefined;
  /** The reason for a listed tool that was not observed at all (default: left out by --tools/--skip). */
  leftOut?: string;
}

/**
 * The verdict of one server.
 *
 * @example
 * ```ts
 * serverVerdict({ listed: ['a', 'b'], tools: [{ name: 'a' }, { name: 'b', notExercised: 'every call failed: …' }], contradictions: false });
 * // { verdict: 'partial', label: 'consistent (1 of 2 exercised)', exercised: 1, total: 2, reasons: [{ tool: 'b', … }] }
 * ```
 */
export function serverVerdict(input: VerdictInput): ServerVerdict {
  const byName = new Map(input.tools.map((t) => [t.name, t]));
  const names = [...new Set([...input.listed, ...input.tools.map((t) => t.name)])];
  const reasons: NotExercised[] = [];
  for (const name of names) {
    const tool = byName.get(name);
    const reason = tool === undefined ? (input.leftOut ?? 'left out (--tools/--skip)') : tool.notExercised;
    if (reason !== undefined) reasons.push({ tool: name, reason });
  }
  const total = names.length;
  const exercised = total - reasons.length;
  const verdict: VerdictKind = input.contradictions
    ? 'contradictions'
    : input.failure !== undefined
      ? 'failed'
      : exercised === 0
        ? 'not verified'
        : exercised < total
          ? 'partial'
          : 'consistent';
  return {
    verdict,
    label: labelOf(verdict, exercised, total, input.failure),
    exercised,
    total,
    reasons,
    ...(input.failure !== undefined ? { stopped: input.failure } : {}),
  };
}

/**
 * The verdict of a run that stopped before any tool was listed or called (the server
 * did not start, the install failed): `failed`, nothing exercised.
 *
 * @example
 * ```ts
 * failedVerdict('The server stopped before finishing the MCP handshake …').label; // 'failed: The server stopped …'
 * ```
 */
export function failedVerdict(failure: string): ServerVerdict {
  return {
    verdict: 'failed',
    label: labelOf('failed', 0, 0, failure),
    exercised: 0,
    total: 0,
    reasons: [],
    stopped: failure,
  };
}

function labelOf(verdict: VerdictKind, exercised: number, total: number, failure: string | undefined): string {
  // "consistent" alone only when every tool ran; every other verdict says how many did.
  const coverage = exercised === total && total > 0 ? '' : ` (${exercised} of ${total} exercised)`;
  const word = verdict === 'partial' ? 'consistent' : verdict;
  const base = verdict === 'failed' && total === 0 ? word : `${word}${coverage}`;
  if (failure === undefined) return base;
  const first = failure.split('\n')[0]!;
  return verdict === 'failed' ? `${base}: ${first}` : `${base}; ${first}`;
}

/**
 * "exercised N of M tools": the line every server report states.
 *
 * @example
 * ```ts
 * coverageLine(verdict); // 'exercised 2 of 3 tools'
 * ```
 */
export function coverageLine(verdict: Pick<ServerVerdict, 'exercised' | 'total'>): string {
  return `exercised ${verdict.exercised} of ${verdict.total} ${verdict.total === 1 ? 'tool' : 'tools'}`;
}

/**
 * The sentence for a failure that stopped observing: which tool, and what happened.
 *
 * @example
 * ```ts
 * failureSentence({ kind: 'hung', tool: 'wait' }); // 'observing stopped: a call of wait got no answer in time and the sandbox was killed'
 * ```
 */
export function failureSentence(failure: { kind: 'hung' | 'exited'; tool: string }): string {
  return failure.kind === 'hung'
    ? `observing stopped: a call of ${failure.tool} got no answer in time and the sandbox was killed`
    : `observing stopped: the server exited during a call of ${failure.tool}`;
}

/**
 * The verdict of an observed server: its tools, whether any finding above info was made (observe's
 * warnings fail a run too), and why it stopped.
 *
 * @example
 * ```ts
 * Object.assign(report, observedVerdict(listedNames, report));
 * ```
 */
export function observedVerdict(
  listed: readonly string[],
  report: {
    tools: VerdictInput['tools'];
    findings: ReadonlyArray<{ severity: string }>;
    failure?: { kind: 'hung' | 'exited'; tool: string } | undefined;
  },
): ServerVerdict {
  return serverVerdict({
    listed,
    tools: report.tools,
    contradictions: report.findings.some((f) => f.severity !== 'info'),
    failure: report.failure ? failureSentence(report.failure) : undefined,
  });
}

/**
 * A SARIF log (text, as lint's reporter writes it) with the verdict in its run: the run's
 * `properties` carry verdict, label, exercised, total and reasons; each tool not exercised
 * is a warning notification with its reason, and a run that failed or verified nothing is
 * an unsuccessful execution with an error notification saying so.
 *
 * @example
 * ```ts
 * process.stdout.write(sarifWithVerdict(formatSarif(reports), report));
 * ```
 */
export function sarifWithVerdict(sarif: string, verdict: ServerVerdict): string {
  const log = JSON.parse(sarif) as { runs: Array<Record<string, unknown>> };
  const run = log.runs[0]!;
  const { verdict: kind, label, exercised, total, reasons } = verdict;
  run.properties = { ...(run.properties as object), verdict: kind, label, exercised, total, reasons };
  const invocations = (run.invocations as Array<Record<string, unknown>> | undefined) ?? [{}];
  const invocation = invocations[0]!;
  const notes = (invocation.toolExecutionNotifications as unknown[] | undefined) ?? [];
  if (kind === 'failed' || kind === 'not verified') {
    invocation.executionSuccessful = false;
    notes.push({ level: 'error', message: { text: `${label}: ${coverageLine(verdict)}` } });
  }
  for (const r of reasons) notes.push({ level: 'warning', message: { text: `${r.tool}: not exercised: ${r.reason}` } });
  if (notes.length > 0) invocation.toolExecutionNotifications = notes;
  run.invocations = invocations;
  return `${JSON.stringify(log, null, 2)}\n`;
}
