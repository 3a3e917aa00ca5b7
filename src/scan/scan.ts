/**
 * One scan of one server. A stdio server starts once, in observe's sandbox:
 * observe lists and calls its tools, and the scan at the door, lint and the pin
 * hashes read that same listing. A remote server is only listed: observe cannot
 * sandbox what runs elsewhere, so its tools are checked by their definitions.
 */
import { observe } from '../observe/observe.js';
import type { ServiceRequest } from '../observe/services.js';
import { connectTarget } from '../targets/connect.js';
import { listAllTools } from '../targets/list.js';
import type { HttpTarget } from '../targets/types.js';
import type { WireToolLike } from '../tool/annotations.js';
import { scanTools } from './tools.js';
import type { ScanReport } from './types.js';

/** What every scan is told. */
export interface ScanBase {
  /** What the person named (a package spec, a server.json, a URL, a command line), for the report. */
  target: string;
  /** The installed package, for npm targets. */
  package?: ScanReport['package'];
  /** How long the install took, in seconds. */
  installSeconds?: number;
  /** The server.json the target came from. */
  serverJson?: ScanReport['serverJson'];
  /** Required inputs (environment variables, arguments) nobody gave. */
  needs?: string[];
  /** Per-call timeout in milliseconds. */
  timeoutMs?: number;
  /** Seconds the whole scan may take (install included); later tools are "not exercised: out of time". */
  budgetSeconds?: number;
  /** The protocol era to speak (default `auto`: 2026-07-28 where the server offers it). */
  protocol?: 'legacy' | 'modern' | 'auto';
  candorVersion: string;
  /** When the scan started (`Date.now()`), install included. */
  startedAt: number;
  progress?: (line: string) => void;
}

/** A stdio server to start in the sandbox. */
export interface ScanOptions extends ScanBase {
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** The workdir observe copies into the sandbox. */
  workdir: string;
  /** Doubles started beside the server (`--service postgres`). */
  services?: ServiceRequest[];
  /** Tools to leave out (globs). */
  skip?: string[];
}

/** The reason every tool of a remote server carries. */
export const REMOTE_REASON =
  'observe cannot sandbox a remote server: only its definitions were checked (door scan, lint, pins)';

function finish(base: ScanBase, checked: ReturnType<typeof scanTools>, extra: Partial<ScanReport>): ScanReport {
  return {
    target: base.target,
    ...(base.package ? { package: base.package } : {}),
    ...(base.serverJson ? { serverJson: base.serverJson } : {}),
    ...extra,
    ...(base.needs?.length ? { needs: base.needs } : {}),
    ...checked,
    ...(base.budgetSeconds !== undefined ? { budgetSeconds: base.budgetSeconds } : {}),
    seconds: Math.round((Date.now() - base.startedAt) / 100) / 10,
    ...(base.installSeconds !== undefined ? { installSeconds: base.installSeconds } : {}),
    candorVersion: base.candorVersion,
    date: new Date(base.startedAt).toISOString(),
  };
}

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
    ...(options.budgetSeconds !== undefined ? { deadline: options.startedAt + options.budgetSeconds * 1000 } : {}),
    ...(options.protocol ? { protocol: options.protocol } : {}),
    ...(options.services?.length ? { services: options.services } : {}),
  });
  const checked = scanTools({
    listed: observed.listed ?? [],
    observed,
    ...(options.needs ? { needs: options.needs } : {}),
    ...(options.progress ? { progress: options.progress } : {}),
  });
  return finish(options, checked, observed.protocolVersion ? { protocolVersion: observed.protocolVersion } : {});
}

/**
 * Scan a remote server: connect over Streamable HTTP (or SSE), list its tools,
 * and run the door scan, lint and the pins. Throws when it cannot connect.
 *
 * @example
 * ```ts
 * const report = await scanRemote({ target: 'http://127.0.0.1:3000/mcp', remote: { kind: 'http', url: 'http://127.0.0.1:3000/mcp', transport: 'streamable-http', label: 'local' }, candorVersion: '1.0.0', startedAt: Date.now() });
 * ```
 */
export async function scanRemote(options: ScanBase & { remote: HttpTarget }): Promise<ScanReport> {
  options.progress?.(`connecting to ${options.remote.url} and listing its tools`);
  const connection = await connectTarget(options.remote, {
    ...(options.protocol ? { era: options.protocol } : {}),
    timeoutMs: options.timeoutMs ?? 10_000,
    clientInfo: { name: 'candor-scan', version: options.candorVersion },
  });
  let listed: WireToolLike[];
  const protocolVersion = connection.client.getNegotiatedProtocolVersion();
  try {
    listed = (await listAllTools(connection.client, { timeoutMs: options.timeoutMs ?? 10_000 })) as WireToolLike[];
  } finally {
    await connection.close();
  }
  const checked = scanTools({
    listed,
    unobserved: REMOTE_REASON,
    ...(options.progress ? { progress: options.progress } : {}),
  });
  return finish(options, checked, {
    remote: { url: options.remote.url, transport: options.remote.transport },
    ...(protocolVersion ? { protocolVersion } : {}),
  });
}
