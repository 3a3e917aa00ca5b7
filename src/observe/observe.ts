/**
 * `observe()`: start a server in the sandbox, call its tools one at a time,
 * attribute every traced effect and file change to the call that made it, and
 * judge each tool against its hints (issue 12).
 */
import { open, stat } from 'node:fs/promises';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import picomatch from 'picomatch';
import { z } from 'zod';
import { CandorError } from '../errors.js';
import { normaliseTool, type WireToolLike } from '../host/annotations.js';
import type { Finding } from '../lint/types.js';
import type { ResolvedHints } from '../tool/types.js';
import { generateArguments, type PathStyle } from './arguments.js';
import { checkPlatform, inCopy, prepareSandbox } from './sandbox.js';
import { diffSnapshots, type Snapshot, type SnapshotDiff, snapshot } from './snapshot.js';
import { type Effect, parseTrace } from './trace.js';
import { type CallRecord, judge } from './verdicts.js';

/** Everything `observe()` accepts. */
export interface ObserveOptions {
  /** The stdio server: program and arguments. */
  command: string;
  args?: string[];
  /** Extra environment for the server (over PATH and LANG). */
  env?: Record<string, string>;
  /** Copied into the sandbox as the server's working directory (default: the current directory). */
  workdir?: string;
  /** Calls per tool (default 2: the same arguments twice, to check idempotency). */
  calls?: number;
  /** Only tools matching these globs. */
  tools?: string[];
  /** Leave out tools matching these globs. */
  skip?: string[];
  /** Exact arguments per tool: one object (used for every call) or a list. */
  arguments?: Record<string, Record<string, unknown> | Array<Record<string, unknown>>>;
  /** Per-call timeout in milliseconds (default 10 000); the sandbox is killed past it. */
  timeoutMs?: number;
  /** Seed of the argument generator (default 1). */
  seed?: number;
  /** How long to wait after each call for late effects (default 150 ms). */
  quietMs?: number;
}

/** What was seen of one tool. */
export interface ToolObservation {
  name: string;
  hints: ResolvedHints;
  calls: CallRecord[];
  /** Why the tool was not exercised (no successful call), if so. */
  notExercised?: string;
  findings: Array<Finding & { evidence: string[] }>;
}

/** The report of one observed server. */
export interface ObserveReport {
  tools: ToolObservation[];
  /** Effects during start-up and listing (normal: caches, logs), reported apart. */
  startup: { effects: Effect[]; diff: SnapshotDiff };
  findings: Array<Finding & { evidence: string[] }>;
  /** True when a call hung and the sandbox was killed (later tools were not observed). */
  killed: boolean;
}

class TraceReader {
  #offset = 0;
  #rest = '';
  constructor(readonly file: string) {}

  /** The lines strace wrote since the last read. */
  async read(): Promise<string[]> {
    let size: number;
    try {
      size = (await stat(this.file)).size;
    } catch {
      return [];
    }
    if (size <= this.#offset) return [];
    const handle = await open(this.file, 'r');
    try {
      const buffer = Buffer.alloc(size - this.#offset);
      await handle.read(buffer, 0, buffer.length, this.#offset);
      this.#offset = size;
      const text = this.#rest + buffer.toString('utf8');
      const cut = text.lastIndexOf('\n');
      this.#rest = text.slice(cut + 1);
      return text
        .slice(0, cut + 1)
        .split('\n')
        .filter(Boolean);
    } finally {
      await handle.close();
    }
  }
}

const LOOSE = z.looseObject({});

/** A start-up failure, said plainly: the usual cause of a silent server here is the missing network. */
function startFailure(error: Error, timeoutMs: number): CandorError {
  const timedOut = /timed out|timeout/i.test(error.message);
  return new CandorError(
    timedOut
      ? `The server did not finish the MCP handshake within ${timeoutMs} ms in the sandbox. It has no network there: a command that downloads at start (npx -y, uvx) cannot — install the server and give its path, or raise --timeout.`
      : `The server stopped before finishing the MCP handshake in the sandbox (${error.message}). Run the same command outside candor observe to see why.`,
    { code: 'observe_start_failed' },
  );
}

const PATH_STYLES: readonly PathStyle[] = ['existing', 'new', 'folder'];

/** The first file (by name) in the workdir copy, outside hidden folders: what "an existing file" arguments name. */
function firstFile(shot: Snapshot, work: string): string | undefined {
  return [...shot.entries()]
    .filter(
      ([file, value]) => file.startsWith(`${work}/`) && /^\d+:/.test(value) && !file.slice(work.length).includes('/.'),
    )
    .map(([file]) => file)
    .sort()[0];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function errorText(result: { content?: unknown }): string {
  const blocks = Array.isArray(result.content) ? (result.content as Array<{ text?: unknown }>) : [];
  return (
    blocks
      .map((b) => (typeof b.text === 'string' ? b.text : ''))
      .join(' ')
      .slice(0, 200) || 'the tool reported an error'
  );
}

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
  const sandbox = await prepareSandbox({
    command: options.command,
    args: options.args ?? [],
    workdir: options.workdir ?? process.cwd(),
  });
  const roots = [sandbox.work, sandbox.home, sandbox.tmp];
  const reader = new TraceReader(sandbox.trace);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const quietMs = options.quietMs ?? 150;
  const callsPerTool = Math.max(1, options.calls ?? 2);
  const client = new Client({ name: 'candor-observe', version: '0.1.0' });
  const transport = new StdioClientTransport({
    command: sandbox.command,
    args: sandbox.args,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      LANG: process.env.LANG ?? 'C.UTF-8',
      ...Object.fromEntries(
        Object.entries(options.env ?? {}).map(([k, v]) => [k, inCopy(v, sandbox.source, sandbox.work)]),
      ),
    },
    stderr: 'ignore',
  });
  const report: ObserveReport = {
    tools: [],
    startup: { effects: [], diff: { created: [], modified: [], deleted: [] } },
    findings: [],
    killed: false,
  };
  try {
    const startSnapshot = await snapshot(roots);
    await client.connect(transport, { timeout: timeoutMs }).catch((error: Error) => {
      throw startFailure(error, timeoutMs);
    });
    // Raw listing: the SDK's typed listTools() drops keys a hint check must see.
    const listed = (await client.request({ method: 'tools/list', params: {} } as never, LOOSE)) as {
      tools?: WireToolLike[];
    };
    await client.ping();
    await sleep(quietMs);
    report.startup = {
      effects: parseTrace(await reader.read(), sandbox.work),
      diff: diffSnapshots(startSnapshot, await snapshot(roots)),
    };
    const existingFile = firstFile(startSnapshot, sandbox.work);
    /** One call: snapshot, call, fence with a ping, wait out the quiet period, cut the trace. */
    const callOnce = async (name: string, args: Record<string, unknown>): Promise<CallRecord> => {
      const before = await snapshot(roots);
      await reader.read();
      const record: CallRecord = { args, ok: false, effects: [], diff: { created: [], modified: [], deleted: [] } };
      try {
        const result = (await client.callTool({ name, arguments: args }, { timeout: timeoutMs })) as {
          isError?: boolean;
          content?: unknown;
        };
        record.ok = result.isError !== true;
        if (!record.ok) record.error = errorText(result);
        await client.ping({ timeout: timeoutMs });
      } catch (error) {
        record.error = (error as Error).message;
        if (/timed out|timeout/i.test(record.error)) {
          report.killed = true;
          record.error = `no answer within ${timeoutMs} ms; the sandbox and every process in it were killed`;
        }
      }
      await sleep(quietMs);
      record.effects = parseTrace(await reader.read(), sandbox.work);
      record.diff = diffSnapshots(before, await snapshot(roots));
      return record;
    };
    const only = options.tools?.length ? picomatch(options.tools) : undefined;
    const skip = options.skip?.length ? picomatch(options.skip) : undefined;
    for (const wire of listed.tools ?? []) {
      if ((only && !only(wire.name)) || skip?.(wire.name)) continue;
      const hints = normaliseTool(wire).hints;
      const observation: ToolObservation = { name: wire.name, hints, calls: [], findings: [] };
      report.tools.push(observation);
      if (report.killed) {
        observation.notExercised = 'the sandbox was killed after an earlier call hung';
        continue;
      }
      const given = options.arguments?.[wire.name];
      const schema = (wire.inputSchema ?? {}) as Record<string, unknown>;
      // Calls come in pairs with the same arguments, so a repeat can be compared with the first.
      const argumentsFor = (i: number, pathStyle: PathStyle): Record<string, unknown> | undefined => {
        if (Array.isArray(given)) return given[i % given.length];
        if (given) return given;
        const seed = (options.seed ?? 1) + Math.floor(i / 2);
        return generateArguments(schema, { seed, workdir: sandbox.work, pathStyle, existingFile });
      };
      // Generated paths point at an existing file first, then a new one, then the workdir:
      // the first way a call succeeds with is kept for the rest of the tool's calls.
      const styles = given ? (['new'] as const) : PATH_STYLES;
      const distinct = styles.filter(
        (style, i) =>
          styles.findIndex((s) => JSON.stringify(argumentsFor(0, s)) === JSON.stringify(argumentsFor(0, style))) === i,
      );
      if (distinct.every((style) => argumentsFor(0, style) === undefined)) {
        observation.notExercised = 'no arguments could be generated from its input schema (pass them with --args)';
        continue;
      }
      let style: PathStyle = distinct[0]!;
      for (const candidate of distinct) {
        style = candidate;
        const record = await callOnce(wire.name, argumentsFor(0, candidate)!);
        observation.calls.push(record);
        if (record.ok || report.killed) break;
      }
      for (let i = 1; i < callsPerTool && !report.killed; i++) {
        const args = argumentsFor(i, style);
        if (args !== undefined) observation.calls.push(await callOnce(wire.name, args));
      }
      if (!observation.calls.some((c) => c.ok)) {
        observation.notExercised = `every call failed: ${observation.calls[0]?.error ?? 'no call was made'}`;
      }
      observation.findings = judge(wire.name, hints, observation.calls);
      report.findings.push(...observation.findings);
    }
  } finally {
    await client.close().catch(() => {});
    await transport.close().catch(() => {});
    await sandbox.dispose();
  }
  return report;
}
