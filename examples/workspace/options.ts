/**
 * Options of the workspace tool pack and their defaults. The limits exist so
 * that one careless call cannot flood the model's context or hang the server.
 */

/** Size and time limits; every key optional, defaults in {@link DEFAULT_LIMITS}. */
export interface WorkspaceLimits {
  /** Largest file `read_file` returns whole (bytes); bigger files need a line range. */
  maxReadBytes?: number;
  /** Largest file `create_file`/`overwrite_file`/`str_replace`/`apply_patch` write (bytes). */
  maxWriteBytes?: number;
  /** Most entries `list_directory` and `glob` return. */
  maxEntries?: number;
  /** Most matching lines `grep_search` returns. */
  maxGrepResults?: number;
  /** Files larger than this are skipped by `grep_search` (bytes). */
  maxGrepFileBytes?: number;
  /** Time `grep_search` may spend before returning what it found (ms). */
  grepTimeMs?: number;
  /** Largest body `web_fetch` reads (bytes); the rest is cut off. */
  maxFetchBytes?: number;
  /** Time limit of one `web_fetch`, redirects included (ms). */
  fetchTimeoutMs?: number;
  /** Most redirects `web_fetch` follows. */
  maxRedirects?: number;
  /** Default time limit of `run_command` (ms); a call may ask for less, never more. */
  commandTimeoutMs?: number;
  /** Time limit of `run_command` when it runs as an MCP task (ms): long builds and test runs. */
  taskCommandTimeoutMs?: number;
  /** Bytes of stdout and of stderr `run_command` keeps. */
  maxCommandOutputBytes?: number;
}

export const DEFAULT_LIMITS: Readonly<Required<WorkspaceLimits>> = Object.freeze({
  maxReadBytes: 1024 * 1024,
  maxWriteBytes: 4 * 1024 * 1024,
  maxEntries: 1000,
  maxGrepResults: 200,
  maxGrepFileBytes: 2 * 1024 * 1024,
  grepTimeMs: 10_000,
  maxFetchBytes: 1024 * 1024,
  fetchTimeoutMs: 15_000,
  maxRedirects: 5,
  commandTimeoutMs: 30_000,
  taskCommandTimeoutMs: 600_000,
  maxCommandOutputBytes: 256 * 1024,
});

/** A resolver with the shape of `dns.lookup(host, { all: true })`; a test seam for DNS rebinding. */
export type HostResolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

/** Everything `createWorkspaceTools` accepts. */
export interface WorkspaceOptions {
  /** The folder the tools may touch; every path is resolved inside it. */
  root: string;
  /** Let `web_fetch` reach loopback, private, link-local and other non-public addresses. Default false. */
  allowPrivateNetwork?: boolean;
  /**
   * Hosts `web_fetch` may reach even when they resolve to non-public addresses:
   * a hostname (`intranet.example`), a wildcard (`*.corp.example`), an IP literal
   * (`127.0.0.1`, `::1`) or a CIDR range (`10.0.0.0/8`, matched against resolved addresses).
   */
  allowedHosts?: readonly string[];
  /** Let `run_command` take a `script` run by `/bin/sh -c`. Default false: argv only, no shell. */
  commandAllowShell?: boolean;
  /** Environment variable names `run_command` passes through even if they look like secrets. */
  commandEnvAllow?: readonly string[];
  /** The environment `run_command` starts from (default `process.env`), before scrubbing. */
  commandEnv?: Readonly<Record<string, string | undefined>>;
  limits?: WorkspaceLimits;
  /** Resolves hostnames for `web_fetch` (default: the system resolver). */
  resolveHost?: HostResolver;
}

/** The options with every limit filled in. */
export interface ResolvedLimits extends Readonly<Required<WorkspaceLimits>> {}

/** Fill in the limits, refusing nonsense (a limit must be a positive number). */
export function resolveLimits(limits: WorkspaceLimits | undefined): ResolvedLimits {
  const out: Record<string, number> = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(limits ?? {})) {
    if (!(key in DEFAULT_LIMITS)) {
      throw new TypeError(`Unknown workspace limit "${key}"; known: ${Object.keys(DEFAULT_LIMITS).join(', ')}.`);
    }
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new TypeError(`Workspace limit ${key} must be a non-negative number; got ${String(value)}.`);
    }
    out[key] = value;
  }
  return Object.freeze(out) as unknown as ResolvedLimits;
}
