/**
 * `observe()`: start a server in the sandbox, call its tools one at a time,
 * attribute every traced effect and file change to the call that made it, and
 * judge each tool against its hints.
 */
import picomatch from 'picomatch';
import { z } from 'zod';
import { protocolMismatch } from '../targets/connect.js';
import { normaliseTool, type WireToolLike } from '../tool/annotations.js';
import type { ResolvedHints } from '../tool/types.js';
import { generateArguments } from './arguments.js';
import { type CallRecord, effectClasses, type Scene } from './evidence.js';
import { isTimeout, requestFailure, startFailure } from './failures.js';
import { OwnLogs } from './own-log.js';
import type { PathStyle } from './path-names.js';
import { LATE_MS, QuietWatch } from './quiet.js';
import { readAnswer } from './read-answer.js';
import { argumentsInCopy, checkPlatform, inCopy, pathPattern, prepareSandbox } from './sandbox.js';
import { connectSandboxed, type SandboxedClient } from './sandboxed-client.js';
import { observedVerdict, type ServerVerdict, serverVerdict } from './server-verdict.js';
import { type ServiceRequest, startServices } from './services.js';
import { diffSnapshots, firstFile, type Snapshot, type SnapshotDiff, snapshot } from './snapshot.js';
import { deletedRows, isSqliteFile, type RowSets, readRows } from './sqlite-witness.js';
import { parseTrace, type TracedEffect } from './trace.js';
import { TraceReader } from './trace-reader.js';
import { callOrder, ValuePool } from './value-pool.js';
import { judge, judgeServer, type ObserveFinding } from './verdicts.js';

/** Everything `observe()` accepts. */
export interface ObserveOptions {
  /** The stdio server: program and arguments. */
  command: string;
  args?: string[];
  /** Extra environment for the server (over PATH and LANG). */
  env?: Record<string, string>;
  /** Copied into the sandbox as the server's working directory (default: the current directory). */
  workdir?: string;
  /** Globs (relative to the workdir) left out of the copy; `.git` is copied unless excluded. */
  exclude?: string[];
  /** Calls per tool (default 2: the same arguments twice, to check idempotency). */
  calls?: number;
  /** Only tools matching these globs. */
  tools?: string[];
  /** Leave out tools matching these globs. */
  skip?: string[];
  /**
   * Exact arguments per tool: one object (used for every call) or a list. `{workdir}`
   * and paths naming the real workdir, anywhere in a string, become the sandbox's copy.
   */
  arguments?: Record<string, Record<string, unknown> | Array<Record<string, unknown>>>;
  /** Per-call timeout in milliseconds (default 10 000); the sandbox is killed past it. */
  timeoutMs?: number;
  /** Seed of the argument generator (default 1). */
  seed?: number;
  /**
   * How long to wait after each call for late effects (default 150 ms). The wait ends
   * sooner once every process in the sandbox sleeps with nothing due in that time.
   */
  quietMs?: number;
  /**
   * The protocol era to speak: `auto` (default) offers 2026-07-28 and falls back to
   * 2025-11-25; `modern` or `legacy` forces one (a server without it fails clearly).
   */
  protocol?: 'legacy' | 'modern' | 'auto';
  /** When to stop (`Date.now()` time): later tools are not exercised, "out of time". A running call finishes. */
  deadline?: number;
  /** Doubles started beside the server (`--service`): a seeded database it is pointed at, whose witness sees each call's writes. */
  services?: ServiceRequest[];
  /**
   * Seeded data the generator may use for selectors, by name (`{ table: ['users'] }`): what a
   * service double loaded. Values earlier answers returned are offered the same way.
   */
  seeds?: Record<string, string[]>;
}

/** What was seen of one tool. */
export interface ToolObservation {
  name: string;
  hints: ResolvedHints;
  calls: CallRecord[];
  /** Why the tool was not exercised (no successful call), if so. */
  notExercised?: string;
  /** The evidence classes its calls showed: wrote, deleted, ran a program, network, scratch, server log. */
  effects: string[];
  findings: ObserveFinding[];
}

/** Why observing stopped before the last tool, with the server's last stderr lines. */
export interface ObserveFailure {
  /** `hung`: a call got no answer in time and the sandbox was killed; `exited`: the server died. */
  kind: 'hung' | 'exited';
  /** The tool whose call it happened in. */
  tool: string;
  stderr: string[];
}

/**
 * The report of one observed server. Its verdict states its coverage (`exercised` of
 * `total` tools, the reasons for the rest); `label` is what to print.
 */
export interface ObserveReport extends ServerVerdict {
  tools: ToolObservation[];
  /** Effects during start-up and listing (normal: caches, logs), reported apart. */
  startup: { effects: TracedEffect[]; diff: SnapshotDiff };
  /** Per-tool findings, then findings about the whole server (no `tool`). Paths are relative to the workdir. */
  findings: ObserveFinding[];
  /** True when a call hung and the sandbox was killed (later tools were not observed). */
  killed: boolean;
  /** Set when observing stopped early: a call hung, or the server exited. */
  failure?: ObserveFailure;
  /** Things the person asked for that were not done as asked (an --args list longer than --calls, say). */
  warnings: string[];
  /** The raw tools/list answer, for checks of the definitions (lint, pins) on the same start. */
  listed?: WireToolLike[];
  /** The protocol version spoken with the server (2026-07-28 or 2025-11-25). */
  protocolVersion?: string;
}

const LOOSE = z.looseObject({});

/** One way of generating a tool's arguments. */
interface Attempt {
  style: PathStyle;
  optional: boolean;
}

const ATTEMPTS: readonly Attempt[] = [
  ...(['existing', 'new', 'folder'] as const).map((style) => ({ style, optional: false })),
  ...(['existing', 'new', 'folder'] as const).map((style) => ({ style, optional: true })),
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The tools a model may call: MCP Apps tools whose visibility lacks "model" are an app's (often long polls). */
const appOnly = (visibility: readonly string[]): boolean => !visibility.includes('model');

/**
 * Observe a stdio server's tools in a sandbox.
 *
 * @example
 * ```ts
 * const report = await observe({ command: 'node', args: ['server.js'] });
 * for (const f of report.findings) console.log(f.tool, f.ruleId, f.evidence);
 * ```
 */
export async function observe(options: ObserveOptions): Promise<ObserveReport> {
  checkPlatform();
  const services = await startServices(options.services ?? []);
  const sandbox = await prepareSandbox({
    command: options.command,
    args: (options.args ?? []).map(services.fill),
    workdir: options.workdir ?? process.cwd(),
    ...(options.exclude ? { exclude: options.exclude } : {}),
    services: services.sandbox,
  }).catch((error: unknown) => services.stop().then(() => Promise.reject(error)));
  const roots = [sandbox.work, sandbox.home, sandbox.tmp];
  const reader = new TraceReader(sandbox.trace);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const quietMs = options.quietMs ?? 150;
  const callsPerTool = Math.max(1, options.calls ?? 2);
  const era = options.protocol ?? 'auto';
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: process.env.LANG ?? 'C.UTF-8',
    ...services.env,
    ...Object.fromEntries(
      Object.entries(options.env ?? {}).map(([k, v]) => [k, inCopy(services.fill(v), sandbox.source, sandbox.work)]),
    ),
  };
  let session: SandboxedClient | undefined;
  const report: ObserveReport = {
    tools: [],
    startup: { effects: [], diff: { created: [], modified: [], deleted: [] } },
    findings: [],
    killed: false,
    warnings: [],
    ...serverVerdict({ listed: [], tools: [], contradictions: false }),
  };
  const pool = new ValuePool({ ...services.seeds, ...options.seeds }); // the doubles' seeded data, under the person's own
  const given = options.arguments ? argumentsInCopy(options.arguments, sandbox.source, sandbox.work) : undefined;
  let exited = false;
  try {
    const startSnapshot = await snapshot(roots);
    const scene: Scene = {
      work: sandbox.work,
      home: sandbox.home,
      tmp: sandbox.tmp,
      initial: new Set(startSnapshot.keys()),
      doubles: (options.services ?? []).map((service) => service.kind),
    };
    const started = await connectSandboxed({
      command: sandbox.command,
      args: sandbox.args,
      env,
      era,
      timeoutMs,
      roots: [sandbox.work],
    });
    if ('failed' in started) {
      const mismatch = protocolMismatch(options.command, era, started.failed);
      if (mismatch) throw mismatch;
      throw startFailure(started.failed, timeoutMs, started.stderr);
    }
    session = started;
    const { client, stderr } = session;
    const version = client.getNegotiatedProtocolVersion();
    if (version !== undefined) report.protocolVersion = version;
    // The fence after a call: a request the server answers only once it has read everything before it.
    // 2026-07-28 has no ping; server/discover is its cheapest request.
    const fenceName = client.getProtocolEra() === 'modern' ? 'server/discover' : 'ping';
    const fence = () => client.request({ method: fenceName, params: {} } as never, LOOSE, { timeout: timeoutMs });
    client.onclose = () => {
      exited = true;
    };
    const watch = new QuietWatch(session.transport.pid ?? undefined);
    watch.read();
    /** The quiet period after a fence: over once the sandbox's processes all sleep with nothing due soon (quiet.ts). */
    const settle = async (): Promise<void> => {
      const at = Date.now();
      await watch.settle(at + quietMs, at + Math.max(quietMs, LATE_MS));
    };
    // Raw listing: the SDK's typed listTools() drops keys a hint check must see.
    const listed = (await client
      .request({ method: 'tools/list', params: {} } as never, LOOSE)
      .catch((error: unknown) => Promise.reject(requestFailure('tools/list', error, stderr.lines())))) as {
      tools?: WireToolLike[];
    };
    report.listed = listed.tools ?? [];
    watch.read();
    await fence().catch((error: unknown) => Promise.reject(requestFailure(fenceName, error, stderr.lines())));
    await settle();
    report.startup = {
      effects: parseTrace(await reader.read(), sandbox.work),
      diff: diffSnapshots(startSnapshot, await snapshot(roots)),
    };
    const logs = new OwnLogs(scene.initial);
    logs.saw(report.startup.effects);
    const existingFile = firstFile(startSnapshot, sandbox.work);
    // The database witness: SQLite files the workdir held before the server started.
    const databases: string[] = [];
    for (const [file, value] of startSnapshot) {
      if (file.startsWith(`${sandbox.work}/`) && /^\d+:/.test(value) && (await isSqliteFile(file)))
        databases.push(file);
    }
    // Rows are a function of the database's bytes: read them again only when a snapshot says those changed.
    let rowsSeen: { key: string; rows: RowSets } | undefined;
    const rowsAt = async (shot: Snapshot): Promise<RowSets> => {
      const key = JSON.stringify(databases.map((db) => ['', '-wal', '-journal'].map((end) => shot.get(db + end))));
      if (rowsSeen?.key !== key) rowsSeen = { key, rows: await readRows(databases) };
      return rowsSeen.rows;
    };
    /** One call: snapshot, call, fence, wait out the quiet period, cut the trace. */
    const callOnce = async (name: string, args: Record<string, unknown>): Promise<CallRecord> => {
      const before = await snapshot(roots);
      const rowsBefore = databases.length > 0 ? await rowsAt(before) : undefined;
      logs.saw(parseTrace(await reader.read(), sandbox.work));
      await services.mark();
      const record: CallRecord = { args, ok: false, effects: [], diff: { created: [], modified: [], deleted: [] } };
      try {
        const result = await client.callTool({ name, arguments: args }, { timeout: timeoutMs });
        const answer = readAnswer(result);
        record.ok = answer.error === undefined;
        if (record.ok) pool.add(name, result);
        record.answer = answer.text;
        if (answer.error !== undefined) record.error = answer.error;
        watch.read();
        await fence();
        await settle();
      } catch (error) {
        record.ok = false;
        if (isTimeout(error)) {
          report.killed = true;
          record.error = `no answer within ${timeoutMs} ms; the sandbox and every process in it were killed`;
          report.failure = { kind: 'hung', tool: name, stderr: stderr.lines() };
        } else {
          await sleep(100);
          record.error = exited ? 'the server exited during this call' : (error as Error).message;
        }
        if (exited && !report.failure) report.failure = { kind: 'exited', tool: name, stderr: stderr.lines() };
        await settle();
      }
      record.effects = parseTrace(await reader.read(), sandbox.work);
      const after = await snapshot(roots);
      record.diff = diffSnapshots(before, after, startSnapshot);
      await logs.setAside(record, before);
      if (rowsBefore) {
        const gone = deletedRows(rowsBefore, await rowsAt(after));
        if (gone.length > 0) record.rowsDeleted = gone;
      }
      const changes = await services.changes();
      if (changes.length > 0) record.changes = changes;
      return record;
    };
    const only = options.tools?.length ? picomatch(options.tools) : undefined;
    const skip = options.skip?.length ? picomatch(options.skip) : undefined;
    const wires = new Map<string, WireToolLike>();
    for (const name of Object.keys(given ?? {})) {
      if (!(listed.tools ?? []).some((t) => t.name === name)) {
        report.warnings.push(`--args names ${name}, which the server does not list; its arguments were not used.`);
      }
    }
    // Tools that need a selector (an id, a name) run after those that can give one: list → get → update → delete.
    for (const wire of callOrder(listed.tools ?? [], (t) => normaliseTool(t).hints)) {
      if ((only && !only(wire.name)) || skip?.(wire.name)) continue;
      const normalised = normaliseTool(wire);
      const observation: ToolObservation = {
        name: wire.name,
        hints: normalised.hints,
        calls: [],
        effects: [],
        findings: [],
      };
      report.tools.push(observation);
      wires.set(wire.name, wire);
      if (report.failure) {
        observation.notExercised =
          report.failure.kind === 'hung'
            ? `the sandbox was killed after a call of ${report.failure.tool} hung`
            : `the server exited during a call of ${report.failure.tool}`;
        continue;
      }
      if (options.deadline !== undefined && Date.now() >= options.deadline) {
        observation.notExercised = 'out of time';
        continue;
      }
      if (appOnly(normalised.visibility) && !only) {
        observation.notExercised =
          'app-only (its _meta.ui.visibility lacks "model"): only an app calls it, often as a long poll; name it with --tools to observe it';
        continue;
      }
      const mine = given?.[wire.name];
      const offers = pool.offersFor(wire.name);
      const schema = (wire.inputSchema ?? {}) as Record<string, unknown>;
      if (Array.isArray(mine) && mine.length > callsPerTool) {
        report.warnings.push(
          `--args gives ${mine.length} argument objects for ${wire.name}, but --calls is ${callsPerTool}: the last ${mine.length - callsPerTool} were not used (raise --calls).`,
        );
      }
      // Calls come in pairs with the same arguments, so a repeat can be compared with the first;
      // every other pair also fills the optional properties.
      const argumentsFor = (i: number, attempt: Attempt): Record<string, unknown> | undefined => {
        if (Array.isArray(mine)) return mine[i % mine.length];
        if (mine) return mine;
        const pair = Math.floor(i / 2);
        return generateArguments(schema, {
          seed: (options.seed ?? 1) + pair,
          workdir: sandbox.work,
          pathStyle: attempt.style,
          optional: attempt.optional || pair % 2 === 1,
          ...(existingFile ? { existingFile } : {}),
          offers,
          pick: pair,
        });
      };
      // Generated paths point at an existing file first, then a new one, then the workdir, then the
      // same with the optional properties filled: the first way a call succeeds is kept for the rest.
      const attempts = mine ? [{ style: 'new' as const, optional: false }] : ATTEMPTS;
      const distinct = attempts.filter(
        (attempt, i) =>
          attempts.findIndex((a) => JSON.stringify(argumentsFor(0, a)) === JSON.stringify(argumentsFor(0, attempt))) ===
          i,
      );
      if (distinct.every((attempt) => argumentsFor(0, attempt) === undefined)) {
        observation.notExercised = 'no arguments could be generated from its input schema (pass them with --args)';
        continue;
      }
      let chosen: Attempt = distinct[0]!;
      for (const candidate of distinct) {
        const args = argumentsFor(0, candidate);
        if (args === undefined) continue;
        chosen = candidate;
        const record = await callOnce(wire.name, args);
        observation.calls.push(record);
        if (record.ok || report.failure) break;
      }
      for (let i = 1; i < callsPerTool && !report.failure; i++) {
        const args = argumentsFor(i, chosen);
        if (args !== undefined) observation.calls.push(await callOnce(wire.name, args));
      }
      if (!observation.calls.some((c) => c.ok)) {
        observation.notExercised = `every call failed: ${observation.calls[0]?.error ?? 'no call was made'}`;
      }
    }
    const order = (listed.tools ?? []).map((t) => t.name);
    report.tools.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
    // Judged once every tool was seen: what the server does on every call is one finding, not one per tool.
    const server = judgeServer(report.tools, scene);
    for (const observation of report.tools) {
      observation.findings = judge(observation.name, observation.hints, observation.calls, scene, server.lines);
      observation.effects = effectClasses(observation.calls, scene);
      report.findings.push(...observation.findings);
    }
    report.findings.push(...server.findings);
    Object.assign(report, observedVerdict(order, report));
  } finally {
    if (session) {
      session.client.onclose = undefined;
      await session.client.close().catch(() => {});
      await session.transport.close().catch(() => {});
    }
    await sandbox.dispose();
    await services.stop();
  }
  return relativeToWorkdir(report, sandbox);
}

/** The report with sandbox paths said as a person knows them: relative to their workdir, `~` and `$TMPDIR` for the sandbox's HOME and TMPDIR. */
function relativeToWorkdir(report: ObserveReport, sandbox: { work: string; home: string; tmp: string }): ObserveReport {
  const swaps: Array<[RegExp, string]> = [
    [new RegExp(`${pathPattern(sandbox.work).source}/`, 'g'), ''],
    [pathPattern(sandbox.work), '.'],
    [pathPattern(sandbox.home), '~'],
    [pathPattern(sandbox.tmp), '$TMPDIR'],
  ];
  const shown = (text: string) => swaps.reduce((out, [pattern, to]) => out.replace(pattern, to), text);
  const diff = (d: SnapshotDiff) =>
    Object.fromEntries(Object.entries(d).map(([key, files]) => [key, files.map(shown)])) as unknown as SnapshotDiff;
  const effect = (e: TracedEffect): TracedEffect =>
    e.kind === 'connect'
      ? e
      : e.kind === 'rename'
        ? { ...e, path: shown(e.path), to: shown(e.to) }
        : { ...e, path: shown(e.path) };
  const finding = (f: ObserveFinding): ObserveFinding => ({
    ...f,
    message: shown(f.message),
    evidence: f.evidence.map(shown),
  });
  return {
    ...report,
    reasons: report.reasons.map((r) => ({ ...r, reason: shown(r.reason) })),
    tools: report.tools.map((t) => ({
      ...t,
      ...(t.notExercised === undefined ? {} : { notExercised: shown(t.notExercised) }),
      calls: t.calls.map((c) => ({
        ...c,
        ...(c.error === undefined ? {} : { error: shown(c.error) }),
        ...(c.answer === undefined ? {} : { answer: shown(c.answer) }),
        // Arguments keep {workdir}, so they can be given back with --args as they are.
        args: argumentsInCopy(c.args, sandbox.work, '{workdir}'),
        effects: c.effects.map(effect),
        diff: diff(c.diff),
        ...(c.rowsDeleted ? { rowsDeleted: c.rowsDeleted.map((r) => ({ ...r, file: shown(r.file) })) } : {}),
      })),
      findings: t.findings.map(finding),
    })),
    startup: { effects: report.startup.effects.map(effect), diff: diff(report.startup.diff) },
    findings: report.findings.map(finding),
  };
}
