/**
 * Pinning is the approval, so it goes through the scan at the door
 * first: `candor pin` and the console's Approve both call {@link pinReviewed}. A
 * server with a tool that has an error-level finding is not pinned unless the
 * person accepts the finding's rule; what was accepted is written beside the
 * tool's pin, and holds only for that definition.
 */

import type { WireToolLike } from '../../tool/annotations.js';
import { type DoorFinding, scanAtTheDoor } from '../door-scan.js';
import { comparePins, formatReport, hasDrift } from './compare.js';
import { emptyLockfile, type Lockfile, pinTools, readLockfile, writeLockfile } from './lockfile.js';

/** What happened to one server. */
export interface PinReview {
  server: string;
  /** Pinned, or refused because of findings nobody accepted. */
  pinned: boolean;
  tools: number;
  /** Every door finding, by tool. */
  findings: Array<{ tool: string; findings: DoorFinding[] }>;
  /** Drift since the previous pins, as lines. */
  changes: string[];
}

/**
 * Scan each server's tools at the door and pin those with nothing unaccepted; write the lockfile.
 *
 * @example
 * ```ts
 * const reviews = await pinReviewed('candor.lock.json', [{ server: 'notes', tools }], { accept: ['description-steering'] });
 * ```
 */
export async function pinReviewed(
  lockPath: string,
  listed: ReadonlyArray<{ server: string; tools: readonly WireToolLike[] }>,
  options: { accept?: readonly string[] } = {},
): Promise<{ lock: Lockfile; reviews: PinReview[] }> {
  const lock = (await readLockfile(lockPath)) ?? emptyLockfile();
  const accept = options.accept ?? [];
  const reviews: PinReview[] = [];
  for (const { server, tools } of listed) {
    // A name belongs to the servers already pinned (and those pinned earlier in this run).
    const otherServers = new Map(
      Object.entries(lock.servers)
        .filter(([name]) => name !== server)
        .map(([name, pins]) => [name, Object.keys(pins.tools)]),
    );
    const scan = scanAtTheDoor(tools, { otherServers, accepted: () => accept });
    const findings = [...scan.findings].map(([tool, list]) => ({ tool, findings: list }));
    const refused = findings.some(({ tool }) => scan.blocking(tool).length > 0);
    const previous = lock.servers[server];
    const report = previous ? comparePins(previous, tools) : undefined;
    const changes = report && hasDrift(report) ? formatReport(server, report) : [];
    if (!refused) {
      const accepted = Object.fromEntries(
        findings.map(({ tool, findings: list }) => [
          tool,
          list.filter((f) => f.accepted && f.severity === 'error').map((f) => f.ruleId),
        ]),
      );
      lock.servers[server] = pinTools(tools, accepted);
    }
    reviews.push({ server, pinned: !refused, tools: tools.length, findings, changes });
  }
  if (reviews.some((review) => review.pinned)) await writeLockfile(lockPath, lock);
  return { lock, reviews };
}
