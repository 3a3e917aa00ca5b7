/**
 * Verdicts (evidence classes): what a tool did, held against
 * what its hints claim (spec defaults where absent). Each rule reads one class
 * of evidence (evidence.ts): writes and deletions against readOnlyHint,
 * deletions against destructiveHint, network attempts against openWorldHint,
 * repeats (effects and answers) against idempotentHint. Programs run and the
 * server's scratch are reported, never a contradiction by themselves. Findings
 * use lint's shape, severities and reporters, so `candor observe` reads and
 * exports like `candor lint`.
 */

import path from 'node:path';
import type { Finding } from '../lint/types.js';
import type { ResolvedHints } from '../tool/types.js';
import { type AnswerOptions, answersDiffer } from './answers.js';
import { DB_RULES, judgeDatabase, touchedDatabase } from './db-evidence.js';
import { type CallRecord, classify, type Evidence, evidenceLines, type Scene } from './evidence.js';
import { describeRequest, judgeRequests, REQUEST_RULES } from './request-rules.js';

export type { CallRecord } from './evidence.js';

/** The observe rules, in the lint rule shape (for SARIF's rule list). */
export const OBSERVE_RULES = [
  {
    id: 'observe/read-only-wrote',
    severity: 'error',
    summary: 'A tool marked readOnlyHint: true changed or deleted files.',
    explanation:
      'Hosts skip confirmation for read-only tools and let them through plan mode; a tool that writes while claiming to read defeats both. Running a program or reaching the network is not counted as a write (the program’s own writes are).',
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
    summary: 'A tool marked destructiveHint: false deleted, truncated or overwrote data that existed before the run.',
    explanation:
      'destructiveHint: false promises only additive changes; hosts may skip the extra confirmation destructive calls get.',
  },
  {
    id: 'observe/idempotent-changed-again',
    severity: 'warning',
    summary:
      'A tool marked idempotentHint: true changed state again, or answered differently, when called a second time with the same arguments.',
    explanation:
      'Hosts retry idempotent calls after failures; a repeat that changes things again (on disk, or in the server’s memory, as a different answer shows) is not safe to retry. Answers that differ only in timestamps, durations or ids are not counted.',
  },
  {
    id: 'observe/read-only-state-changed',
    severity: 'warning',
    summary:
      'A tool marked readOnlyHint: true answered differently when called again at once with the same arguments, in more than times, ids, durations and measurements.',
    explanation:
      'A read that leaves the server as it found it answers the same when asked again straight away. A second answer that moved (a list one item longer, a counter one higher) shows the call changed state the files do not show: the server’s memory. Hosts let read-only tools run without confirmation and in plan mode; one that changes state should not claim readOnlyHint. The warning is for state no file shows: a tool whose calls changed files is already reported for them (observe/read-only-wrote, or observe/server-wide-effect when the server does it on every call), and its answers may only echo those files. The spec ignores idempotentHint when readOnlyHint is true, so this is read-only’s rule, not idempotency’s. Timestamps, durations, generated ids, process ids, percentages and sizes are blanked before comparing: a read of a changing world is not a change the tool made. A warning, not an error: a few reads legitimately answer with fresh data every time.',
  },
  {
    id: 'observe/server-wide-effect',
    severity: 'error',
    summary:
      'The server changes the same files or reaches the same address on (nearly) every call, whatever the tool: one finding about the server, not one per tool.',
    explanation:
      'Bookkeeping and telemetry done on every call still contradict readOnlyHint: true (a write) or openWorldHint: false (the network); it is reported once, naming the tools whose hints it contradicts. An error only when it contradicts some tool’s hints. The same request sent to an API double by every tool that was called (at least three), whether or not the call then did its work (a usage event posted before each tool runs), is the server’s too: reported here once, not as each tool’s observe/read-only-sent-write or observe/closed-world-requested.',
  },
  {
    id: 'observe/server-log',
    severity: 'info',
    summary:
      'The server appended lines to its own log during calls: a file it made and opened before them. Not counted as any tool’s write.',
    explanation:
      'Many servers write a diagnostic log through a stream opened at start-up and add a line for every request. That records what the server did; it changes nothing a tool claims to leave alone, so it is reported here rather than as observe/read-only-wrote. The evidence has to hold for this run: the trace shows the file opened for writing before the call and no open of it in the call (the bytes went through the descriptor held from before), the server made the file (it was not there when the server started), the call only added whole lines of text to the end (the old content is an exact prefix), and the call’s arguments do not name it. A file opened in the call, even to append one line (a history a tool reads back), stays the tool’s write, and so does any file that was there before the server started.',
  },
  {
    id: 'observe/first-use-state',
    severity: 'warning',
    summary:
      "The server wrote a file in a hidden folder of its HOME during the run's first call (or first call that did its work) and in no other call: state it keeps on first use, reported once for the server.",
    explanation:
      'Many servers create or refresh their own state the first time any tool runs: a telemetry record of the day’s first use, a config or profile made on demand. Which tool pays for it depends only on which is called first, so it is not that tool’s write and is left out of its verdict. The evidence must hold for the run: the file is in a hidden folder or file of the sandbox HOME (~/.config, ~/.cache, ~/.local: where programs keep their own state; not the workdir, and not a person’s folder such as ~/Documents), the call’s arguments do not name it, and no other call of any tool wrote or deleted it. A warning, not silence: a tool that truly writes once, on its first call, looks the same, so the hint is worth a look.',
  },
  {
    id: 'observe/destructive-no-effect',
    severity: 'info',
    summary:
      'A tool marked destructiveHint: true changed nothing, ran no program and reached no network in any observed call.',
    explanation:
      'It may only be destructive for other arguments; if it never is, a lighter hint spares people needless prompts.',
  },
  ...DB_RULES,
  ...REQUEST_RULES,
] as const;

type RuleId = (typeof OBSERVE_RULES)[number]['id'];

/** A finding with what was seen. */
export type ObserveFinding = Finding & { evidence: string[] };

function finding(id: RuleId, tool: string | undefined, message: string, evidence: string[]): ObserveFinding {
  const rule = OBSERVE_RULES.find((r) => r.id === id)!;
  return { ruleId: id, severity: rule.severity, ...(tool === undefined ? {} : { tool }), message, evidence };
}

/** Evidence of many calls as one, minus the lines the server does on every call. */
function merged(evidence: readonly Evidence[], serverWide: ReadonlySet<string>): Evidence {
  const all = (key: keyof Evidence, line: (item: string) => string) => [
    ...new Set(evidence.flatMap((e) => e[key]).filter((item) => !serverWide.has(line(item)))),
  ];
  return {
    writes: all('writes', (f) => `wrote ${f}`),
    deletions: all('deletions', (f) => `deleted ${f}`),
    overwrites: all('overwrites', (f) => `overwrote ${f}`),
    execs: all('execs', (f) => `ran ${f}`),
    network: all('network', (l) => l),
    scratch: all('scratch', (f) => f),
    logs: all('logs', (f) => f),
  };
}

/**
 * Judge one tool's calls against its hints. `serverWide` holds evidence lines
 * already reported once for the whole server (see {@link judgeServer}).
 *
 * @example
 * ```ts
 * judge('get_status', hints, calls, scene); // [{ ruleId: 'observe/read-only-wrote', … }]
 * ```
 */
export function judge(
  tool: string,
  hints: ResolvedHints,
  calls: readonly CallRecord[],
  scene: Scene,
  serverWide: ReadonlySet<string> = new Set(),
): ObserveFinding[] {
  // A request an API double received was sent, whatever the call answered after it: failed calls count too.
  const findings: ObserveFinding[] = judgeRequests(
    tool,
    hints,
    // A request the server sends on (nearly) every call, whatever the tool, is the server's (see serverWide).
    calls.flatMap((c) => c.changes ?? []).filter((c) => c.kind !== 'request' || !serverWide.has(describeRequest(c))),
  );
  const exercised = calls.filter((c) => c.ok);
  if (exercised.length === 0) return findings;
  const evidence = exercised.map((c) => classify(c, scene));
  const all = merged(evidence, serverWide);
  const deleted = all.deletions.length + all.overwrites.length > 0;
  if (hints.readOnlyHint && (all.writes.length > 0 || deleted)) {
    findings.push(
      finding(
        'observe/read-only-wrote',
        tool,
        `${tool} claims readOnlyHint: true, but its calls changed files.`,
        evidenceLines({ writes: all.writes, deletions: all.deletions, overwrites: all.overwrites }),
      ),
    );
  }
  if (!hints.openWorldHint && all.network.length > 0) {
    findings.push(
      finding(
        'observe/closed-world-connected',
        tool,
        `${tool} claims openWorldHint: false, but it reached for the network.`,
        all.network,
      ),
    );
  }
  if (!hints.readOnlyHint && !hints.destructiveHint && deleted) {
    findings.push(
      finding(
        'observe/non-destructive-deleted',
        tool,
        `${tool} claims destructiveHint: false, but it deleted or overwrote data that existed before the run.`,
        evidenceLines({ deletions: all.deletions, overwrites: all.overwrites }),
      ),
    );
  }
  // The answers are the witness of state no file shows. A read whose calls changed files is already
  // held to account for them (here, or once for the server), and its answer may only echo those files
  // (usage counts in a config it returns).
  const changedFiles = evidence.some((e) => e.writes.length + e.deletions.length + e.overwrites.length > 0);
  if (hints.readOnlyHint && !changedFiles) {
    const moved = answerMoved(exercised, { reading: true });
    if (moved)
      findings.push(
        finding(
          'observe/read-only-state-changed',
          tool,
          `${tool} claims readOnlyHint: true, but the same call answered differently the second time.`,
          moved,
        ),
      );
  }
  if (!hints.readOnlyHint && hints.idempotentHint) {
    const repeat = idempotencyBreak(exercised, scene, serverWide);
    if (repeat)
      findings.push(finding('observe/idempotent-changed-again', tool, `${tool} ${repeat.message}`, repeat.evidence));
  }
  if (
    !hints.readOnlyHint &&
    hints.destructiveHint &&
    all.writes.length + all.execs.length + all.network.length === 0 &&
    !deleted &&
    !touchedDatabase(exercised) &&
    !sentWrite(exercised)
  ) {
    findings.push(
      finding(
        'observe/destructive-no-effect',
        tool,
        `${tool} claims destructiveHint: true, but none of ${exercised.length} calls changed anything.`,
        [],
      ),
    );
  }
  findings.push(...judgeDatabase(tool, hints, exercised, scene));
  return findings;
}

/** Whether a call sent an API a request that is not plainly a read, or POSTed a page's form: an effect elsewhere. */
function sentWrite(calls: readonly CallRecord[]): boolean {
  return calls.some((call) =>
    (call.changes ?? []).some(
      (c) =>
        (c.kind === 'request' && c.read !== true) ||
        (c.kind === 'page' && c.action === 'submit' && !['GET', 'HEAD'].includes(c.method)),
    ),
  );
}

/** The first repeat (same arguments, back to back) that changed state again or answered differently. */
function idempotencyBreak(
  exercised: readonly CallRecord[],
  scene: Scene,
  serverWide: ReadonlySet<string>,
): { message: string; evidence: string[] } | undefined {
  for (let i = 1; i < exercised.length; i++) {
    const first = exercised[i - 1]!;
    const again = exercised[i]!;
    if (JSON.stringify(first.args) !== JSON.stringify(again.args)) continue;
    const writes = classify(again, scene).writes.filter((f) => !serverWide.has(`wrote ${f}`));
    if (writes.length > 0) {
      return {
        message: 'claims idempotentHint: true, but repeating a call changed state again.',
        evidence: writes.map(
          (f) => `${again.diff.created.includes(f) ? 'created' : 'changed'} ${f} again on the repeat`,
        ),
      };
    }
  }
  const moved = answerMoved(exercised);
  return moved
    ? {
        message: 'claims idempotentHint: true, but the same call answered differently the second time.',
        evidence: moved,
      }
    : undefined;
}

/** The first back-to-back pair of calls with the same arguments whose answers differ: both answers, as evidence lines. */
function answerMoved(exercised: readonly CallRecord[], options: AnswerOptions = {}): string[] | undefined {
  for (let i = 1; i < exercised.length; i++) {
    const first = exercised[i - 1]!;
    const again = exercised[i]!;
    if (JSON.stringify(first.args) !== JSON.stringify(again.args)) continue;
    const differs = answersDiffer(first.answer, again.answer, options);
    if (differs) return [`first answer: ${differs.first}`, `repeat answer: ${differs.again}`];
  }
  return undefined;
}

/** A tool as {@link judgeServer} needs it. */
export interface JudgedTool {
  name: string;
  hints: ResolvedHints;
  calls: readonly CallRecord[];
}

/** At least this many tools, and this share of the exercised ones, for an effect to be the server's. */
const SERVER_WIDE_MIN_TOOLS = 3;
const SERVER_WIDE_SHARE = 0.75;

/**
 * Effects the server has on (nearly) every call whatever the tool (usage
 * counters, a config rewrite, telemetry): one finding, and the evidence lines
 * to leave out of each tool's own verdict. The server's own log, if its calls
 * appended to one, is a second finding (info).
 *
 * @example
 * ```ts
 * const { findings, lines } = judgeServer(tools, scene);
 * ```
 */
export function judgeServer(
  tools: readonly JudgedTool[],
  scene: Scene,
): { findings: ObserveFinding[]; lines: Set<string> } {
  const log = ownLog(tools, scene);
  const effects = serverWide(tools, scene);
  const first = firstUse(tools, scene);
  return {
    findings: [...effects.findings, ...first.findings, ...log],
    lines: new Set([...effects.lines, ...first.lines]),
  };
}

/**
 * Files under HOME written by the run's first call, or its first call that did its work, and by
 * no other call, not named by that call's arguments: the server's first-use state (see the rule).
 */
function firstUse(tools: readonly JudgedTool[], scene: Scene): { findings: ObserveFinding[]; lines: Set<string> } {
  const calls = tools.flatMap((tool) => tool.calls.map((call) => ({ tool: tool.name, call })));
  const firsts = [calls[0], calls.find((c) => c.call.ok)].filter((c) => c !== undefined);
  const touched = (call: CallRecord) => {
    const e = classify(call, scene);
    return [...e.writes, ...e.deletions, ...e.overwrites];
  };
  const lines = new Set<string>();
  const names = new Set<string>();
  for (const first of new Set(firsts)) {
    const named = JSON.stringify(first.call.args);
    const written = classify(first.call, scene).writes.filter(
      (file) =>
        // A program keeps its own state in HOME's hidden folders and files (~/.config, ~/.cache,
        // ~/.local); a file in a person's folder (~/Documents/tasks.json) is a tool's work.
        file.startsWith(`${scene.home}/.`) &&
        !named.includes(file) &&
        !named.includes(path.basename(file)) &&
        calls.every((other) => other === first || !touched(other.call).includes(file)),
    );
    for (const file of written) lines.add(`wrote ${file}`);
    if (written.length > 0) names.add(first.tool);
  }
  if (lines.size === 0) return { findings: [], lines };
  const message = `The run's first call of ${[...names].join(' and ')} wrote state under HOME that no other call touched.`;
  return { findings: [finding('observe/first-use-state', undefined, message, [...lines].sort())], lines };
}

/** The server's own log, once for the server: the files its calls appended to, and which tools' calls did. */
function ownLog(tools: readonly JudgedTool[], scene: Scene): ObserveFinding[] {
  const files = new Set<string>();
  const names: string[] = [];
  for (const tool of tools) {
    const logs = tool.calls.flatMap((call) => classify(call, scene).logs);
    for (const file of logs) files.add(file);
    if (logs.length > 0) names.push(tool.name);
  }
  if (files.size === 0) return [];
  return [
    finding(
      'observe/server-log',
      undefined,
      `The server appended to its own log, opened before the calls, during calls of ${listOf(names)}.`,
      [...files].sort().map((file) => `appended to ${file}`),
    ),
  ];
}

/** Writes and network on (nearly) every call: see {@link judgeServer}. */
function serverWide(tools: readonly JudgedTool[], scene: Scene): { findings: ObserveFinding[]; lines: Set<string> } {
  const exercised = tools.filter((t) => t.calls.some((c) => c.ok));
  const byLine = new Map<string, Set<string>>();
  for (const tool of exercised) {
    for (const call of tool.calls.filter((c) => c.ok)) {
      const evidence = classify(call, scene);
      // A file the call's own arguments name is the tool's doing, never the server's bookkeeping.
      const named = JSON.stringify(call.args);
      const writes = evidence.writes.filter((f) => !named.includes(f));
      // Writes and network only: deleting pre-existing data on every call would still be each tool's own verdict.
      for (const line of evidenceLines({ writes, network: evidence.network })) {
        if (!byLine.has(line)) byLine.set(line, new Set());
        byLine.get(line)!.add(tool.name);
      }
    }
  }
  const need = Math.max(SERVER_WIDE_MIN_TOOLS, Math.ceil(exercised.length * SERVER_WIDE_SHARE));
  const lines = new Set([...byLine].filter(([, names]) => names.size >= need).map(([line]) => line));
  // Requests an API double received count whatever the call answered (a telemetry event sent before the tool fails),
  // so their share is of the tools that were called at all.
  const called = tools.filter((t) => t.calls.length > 0);
  const byRequest = new Map<string, Set<string>>();
  for (const tool of called)
    for (const change of tool.calls.flatMap((c) => c.changes ?? []))
      if (change.kind === 'request') {
        const line = describeRequest(change);
        if (!byRequest.has(line)) byRequest.set(line, new Set());
        byRequest.get(line)!.add(tool.name);
      }
  // Every called tool, not most: tools that share an endpoint for their own work (one API's answer
  // endpoint behind several tools) send the same request too, but never all of a varied server's.
  for (const [line, names] of byRequest) {
    if (called.length < SERVER_WIDE_MIN_TOOLS || names.size < called.length) continue;
    lines.add(line);
    byLine.set(line, names);
  }
  if (lines.size === 0) return { findings: [], lines };
  const hit = called.filter((t) => [...lines].some((line) => byLine.get(line)!.has(t.name)));
  const reaches = (l: string) => l.startsWith('connect') || l.startsWith('resolved a name') || l.startsWith('sent ');
  // A file line is a write; a request is one when it plainly writes, and a doubtful one lowers the finding.
  const surely = [...lines].some((l) =>
    l.startsWith('sent ') ? /\((a write|a GraphQL mutation)\)$/.test(l) : !reaches(l),
  );
  const doubtful = [...lines].some((l) => l.startsWith('sent ') && l.endsWith('(neither clearly a read nor a write)'));
  const writes = surely || doubtful;
  const network = [...lines].some(reaches);
  const readOnly = writes ? hit.filter((t) => t.hints.readOnlyHint).map((t) => t.name) : [];
  const closed = network ? hit.filter((t) => !t.hints.openWorldHint).map((t) => t.name) : [];
  const contradicted = [
    ...(readOnly.length > 0 ? [`readOnlyHint: true on ${listOf(readOnly)}`] : []),
    ...(closed.length > 0 ? [`openWorldHint: false on ${listOf(closed)}`] : []),
  ];
  const base = finding(
    'observe/server-wide-effect',
    undefined,
    `A server-wide effect contradicts ${contradicted.length > 0 ? contradicted.join(' and ') : 'no tool’s hints'} (${
      hit.length
    }/${byRequest.size > 0 && [...lines].some((l) => l.startsWith('sent ')) ? called.length : exercised.length} tools).`,
    [...lines].sort(),
  );
  // Only a doubtful request against read-only tools, and no closed world broken: one level lower.
  const severity = contradicted.length === 0 ? 'info' : !surely && closed.length === 0 ? 'warning' : undefined;
  return { findings: [severity ? { ...base, severity } : base], lines };
}

function listOf(names: readonly string[]): string {
  return names.length <= 6 ? names.join(', ') : `${names.slice(0, 6).join(', ')} and ${names.length - 6} more`;
}
