/**
 * One scan of one server: install (npm targets), then the scan at the door,
 * lint, observe and the pin hashes, all over one start of the server (observe's
 * sandboxed start lists the tools; lint, the door and the pins read that list).
 */
import { scanAtTheDoor } from '../host/door-scan.js';
import { pinHash } from '../host/pins/pin-hash.js';
import { lint } from '../lint/lint.js';
import { observe } from '../observe/observe.js';
import type { ScanReport, ScanTool } from './types.js';

/** What to scan and how. */
export interface ScanOptions {
  /** What the person named (a package spec, a config entry, a command line), for the report. */
  target: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** The workdir observe copies into the sandbox. */
  workdir: string;
  /** The installed package, for npm targets. */
  package?: ScanReport['package'];
  /** Tools to leave out (globs). */
  skip?: string[];
  /** Per-call timeout in milliseconds. */
  timeoutMs?: number;
  candorVersion: string;
  /** When the scan started (`Date.now()`), install included. */
  startedAt: number;
  progress?: (line: string) => void;
}

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/**
 * Scan one stdio server. Throws what observe throws when the server does not start.
 *
 * @example
 * ```ts
 * const report = await scanServer({ target: 'memory', command: 'node', args: ['index.js'], workdir, candorVersion: '1.0.0', startedAt: Date.now() });
 * report.verdict; // 'consistent'
 * ```
 */
export async function scanServer(options: ScanOptions): Promise<ScanReport> {
  options.progress?.(`starting ${options.target} in the sandbox and calling its tools`);
  const observed = await observe({
    command: options.command,
    args: options.args,
    ...(options.env ? { env: options.env } : {}),
    workdir: options.workdir,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.skip ? { skip: options.skip } : {}),
  });
  const listed = observed.listed ?? [];
  const door = [...scanAtTheDoor(listed).findings.values()].flat().map(({ accepted: _, ...finding }) => finding);
  const linted = lint(listed).findings;
  const tools: ScanTool[] = listed.map((wire) => {
    const seen = observed.tools.find((t) => t.name === wire.name);
    const annotations = (wire.annotations ?? {}) as Record<string, unknown>;
    const declared = Object.fromEntries(
      HINTS.filter((hint) => typeof annotations[hint] === 'boolean').map((hint) => [
        hint,
        annotations[hint] as boolean,
      ]),
    );
    const contradicts = observed.findings.some((f) => f.tool === wire.name && f.severity === 'error');
    const reason = seen === undefined ? 'observing stopped before this tool' : seen.notExercised;
    options.progress?.(`  ${wire.name}: ${reason ? 'not exercised' : contradicts ? 'contradicts' : 'consistent'}`);
    return {
      name: wire.name,
      declared,
      effects: seen?.effects ?? [],
      verdict: reason ? 'not exercised' : contradicts ? 'contradicts' : 'consistent',
      ...(reason ? { reason } : {}),
      pin: pinHash(wire),
    };
  });
  const errors = [...linted, ...observed.findings].filter((f) => f.severity === 'error');
  return {
    target: options.target,
    ...(options.package ? { package: options.package } : {}),
    tools,
    door,
    lint: linted,
    observe: {
      findings: observed.findings,
      warnings: observed.warnings,
      ...(observed.failure ? { failure: observed.failure } : {}),
    },
    verdict: errors.length > 0 ? 'contradictions' : 'consistent',
    seconds: Math.round((Date.now() - options.startedAt) / 100) / 10,
    candorVersion: options.candorVersion,
    date: new Date(options.startedAt).toISOString(),
  };
}
