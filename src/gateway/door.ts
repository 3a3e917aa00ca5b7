/**
 * Quarantine and the scan at the door. With a lockfile, a server the lock
 * has no entry for is quarantined: started and listed in the status, but none of its
 * tools is offered until a person pins it (`candor pin`, or Approve in `candor ui`).
 * Every server's tools go through lint's steering and naming rules first; an
 * error-level finding keeps that tool out, pinned or not, unless the person accepted
 * the rule for the tool (overrides `accept`, or `candor pin --accept`). A name that
 * shadows another server's tool is judged at approval (`candor pin` checks it against
 * the servers pinned before) and shown here for quarantined servers.
 */

import { type DoorFinding, type DoorScan, scanAtTheDoor } from '../host/door-scan.js';
import type { Host } from '../host/host-api.js';
import type { Overrides } from '../host/overrides.js';
import type { CatalogTool } from '../host/types.js';
import type { ServerLogger } from '../util/logger.js';

/** What the door says about one upstream, for the status resource. */
export interface DoorStatus {
  /** Why the server's tools are not offered, with what to run. */
  quarantined?: string;
  /** Tools kept out by findings nobody accepted. */
  blocked?: Array<{ tool: string; findings: Array<Pick<DoorFinding, 'ruleId' | 'severity' | 'message'>> }>;
}

/** The gateway's door: which upstream tools may be offered. */
export class Door {
  readonly #host: Host;
  readonly #lockFile: string | undefined;
  readonly #configFile: string | undefined;
  readonly #sandbox: boolean;
  readonly #overrides: Overrides | undefined;
  readonly #logger: ServerLogger;
  readonly #order: readonly string[];
  readonly #trusted: ReadonlySet<string>;
  #scans = new Map<string, DoorScan>();
  #quarantined = new Set<string>();
  readonly #logged = new Set<string>();

  constructor(options: {
    host: Host;
    /** The lockfile; without one nothing is quarantined. */
    lockFile?: string;
    /** The gateway config file, for the review command in messages. */
    configFile?: string;
    /** `--sandbox`: the review command passes it on, so `candor pin` starts the server sandboxed too. */
    sandbox?: boolean;
    overrides?: Overrides;
    logger: ServerLogger;
    /** Upstream names in config order (without a lock, a name belongs to the first server that has it). */
    servers: readonly string[];
    trusted: ReadonlySet<string>;
  }) {
    this.#host = options.host;
    this.#lockFile = options.lockFile;
    this.#configFile = options.configFile;
    this.#sandbox = options.sandbox ?? false;
    this.#overrides = options.overrides;
    this.#logger = options.logger;
    this.#order = options.servers;
    this.#trusted = options.trusted;
  }

  /** The `candor pin` command that approves a server. */
  reviewCommand(server: string): string {
    const config = this.#configFile ?? '<gateway config>';
    return `candor pin --config ${config} --server ${server}${this.#lockFile ? ` --lock ${this.#lockFile}` : ''}${this.#sandbox ? ' --sandbox' : ''}`;
  }

  /** Re-scan every server against the lock and the catalog as they are now; log what is new. */
  review(): void {
    const lock = this.#host.pins.lock;
    const catalog = this.#host.catalog();
    const byServer = new Map<string, CatalogTool[]>();
    for (const tool of catalog) byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), tool]);
    this.#quarantined = new Set(
      this.#lockFile && lock ? this.#order.filter((server) => lock.servers[server] === undefined) : [],
    );
    const approved = (server: string) =>
      this.#trusted.has(server) || (this.#lockFile ? lock?.servers[server] !== undefined : false);
    const scans = new Map<string, DoorScan>();
    for (const server of this.#order) {
      const tools = byServer.get(server) ?? [];
      // Shadowing is judged when a server is approved: `candor pin` checks it against the servers
      // pinned before. Here it is shown for a quarantined server, against every approved one.
      // Two approved servers may share names (two filesystem servers); their tools are namespaced.
      const otherServers = this.#quarantined.has(server)
        ? new Map(
            this.#order
              .filter((other) => other !== server && approved(other))
              .map((other) => [other, (byServer.get(other) ?? []).map((tool) => tool.toolName)]),
          )
        : undefined;
      const pins = lock?.servers[server]?.tools ?? {};
      const pinStatus = new Map(tools.map((tool) => [tool.toolName, tool.pin.status]));
      scans.set(
        server,
        scanAtTheDoor(
          tools.map((tool) => tool.wire),
          {
            ...(otherServers ? { otherServers } : {}),
            accepted: (tool) => [
              ...(this.#overrides?.accepted(server, tool) ?? []),
              // What was accepted when pinning holds only for the definition that was pinned.
              ...(pinStatus.get(tool) === 'pinned' ? (pins[tool]?.accepted ?? []) : []),
            ],
          },
        ),
      );
    }
    this.#scans = scans;
    for (const server of this.#quarantined) {
      this.#once(`q:${server}`, `${server}: quarantined: review with \`${this.reviewCommand(server)}\``);
    }
    for (const [server, scan] of scans) {
      for (const [tool, findings] of scan.findings) {
        const blocking = findings.filter((f) => f.severity === 'error' && !f.accepted);
        for (const finding of blocking) {
          this.#once(
            `b:${server}:${tool}:${finding.ruleId}:${finding.message}`,
            `${server}: ${tool} is kept out: ${finding.ruleId}: ${finding.message} (to accept it: "accept": ["${finding.ruleId}"] for this tool in the overrides file, or candor pin --accept ${finding.ruleId})`,
          );
        }
      }
    }
  }

  /** Whether a catalog tool may be offered downstream. */
  admits(tool: CatalogTool): boolean {
    if (this.#quarantined.has(tool.server)) return false;
    return (this.#scans.get(tool.server)?.blocking(tool.toolName).length ?? 0) === 0;
  }

  /** The door's view of one upstream. */
  status(server: string): DoorStatus {
    const out: DoorStatus = {};
    if (this.#quarantined.has(server)) {
      out.quarantined = `quarantined: review with \`${this.reviewCommand(server)}\``;
    }
    const blocked: NonNullable<DoorStatus['blocked']> = [];
    for (const [tool, findings] of this.#scans.get(server)?.findings ?? []) {
      const blocking = findings.filter((f) => f.severity === 'error' && !f.accepted);
      if (blocking.length === 0) continue;
      blocked.push({
        tool,
        findings: blocking.map(({ ruleId, severity, message }) => ({ ruleId, severity, message })),
      });
    }
    if (blocked.length > 0) out.blocked = blocked;
    return out;
  }

  #once(key: string, line: string): void {
    if (this.#logged.has(key)) return;
    this.#logged.add(key);
    this.#logger.warn(line);
  }
}
