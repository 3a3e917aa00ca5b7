/**
 * The shapes of a scan: what was installed, what each check said, the verdict.
 * A leaf file: it imports nothing from its siblings.
 */
import type { Finding } from '../lint/types.js';
import type { ObserveReport } from '../observe/observe.js';
import type { ServerVerdict } from '../observe/server-verdict.js';

/** An npm package as installed for a scan. */
export interface InstalledPackage {
  name: string;
  /** The version npm resolved the spec to. */
  version: string;
  /** The tarball's integrity hash from npm's lock file (`sha512-…`). */
  integrity?: string;
  /** The folder the package was installed into (its `node_modules` is inside). */
  prefix: string;
  /** The program to start: `node` and the package's bin file. */
  command: string;
  args: string[];
}

/** One tool's line in a scan report. */
export interface ScanTool {
  name: string;
  /** The hints the tool declares (absent keys left out). */
  declared: Record<string, boolean>;
  /** Effects observe saw (writes, deletes, network…). */
  effects: string[];
  /** `consistent`, `contradicts`, or `not exercised`. */
  verdict: 'consistent' | 'contradicts' | 'not exercised';
  /** Why the tool was not exercised, when it was not. */
  reason?: string;
  /** The pin hash of the tool's definition. */
  pin: string;
  /**
   * For a tool observe has a finding about: the calls it made (arguments as sent, with
   * `{workdir}` for the sandbox's folder; whether each did its work), the evidence's other half.
   */
  calls?: ScanCall[];
}

/** One observed call of a tool, as a report keeps it beside a finding. */
export interface ScanCall {
  arguments: Record<string, unknown>;
  ok: boolean;
  /** The error the call answered, cut to {@link CALL_ERROR_LIMIT} characters. */
  error?: string;
}

/** How much of a failed call's error a report keeps beside a finding. */
export const CALL_ERROR_LIMIT = 300;

/**
 * The whole report of one scanned server. Its verdict states its coverage: `exercised`
 * of `total` tools, and `reasons` for the rest; `label` is what to print (`consistent`
 * only when every tool ran).
 */
export interface ScanReport extends ServerVerdict {
  target: string;
  package?: Omit<InstalledPackage, 'command' | 'args' | 'prefix'>;
  /** The MCP Registry server.json the target came from, and which of its entries was scanned. */
  serverJson?: { file: string; name: string; version: string; entry: string };
  /** A remote server (only its definitions are checked: observe cannot sandbox it). */
  remote?: { url: string; transport: 'streamable-http' | 'sse' };
  /** Required inputs (environment variables, arguments) the server was started without. */
  needs?: string[];
  /** The protocol version spoken with the server (2026-07-28 or 2025-11-25). */
  protocolVersion?: string;
  tools: ScanTool[];
  /** The scan at the door (steering and naming rules). */
  door: Finding[];
  /** Every lint finding (the door's rules included). */
  lint: Finding[];
  observe: Pick<ObserveReport, 'findings' | 'warnings' | 'failure'>;
  /** The --budget in seconds, when one was set. */
  budgetSeconds?: number;
  /** Seconds the scan took, install included. */
  seconds: number;
  /** Of those, the seconds npm took to install the package (npm targets). */
  installSeconds?: number;
  candorVersion: string;
  date: string;
}
