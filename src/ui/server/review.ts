/**
 * Review in the console: the servers a gateway with this lockfile would
 * quarantine (no pins yet) and the tools it would block (changed or renamed since
 * pinned), each with the scan at the door's findings and the field diff; Approve
 * pins through the same code as `candor pin` (`pinReviewed`), after the person
 * said yes in the console's confirmation dialog.
 */

import { type DoorFinding, scanAtTheDoor } from '../../host/door-scan.js';
import type { Host } from '../../host/host-api.js';
import { formatChange } from '../../host/pins/field-diff.js';
import { type PinReview, pinReviewed } from '../../host/pins/pin-review.js';
import type { CatalogTool } from '../../host/types.js';

/** One server waiting for a person. */
export interface ReviewItem {
  server: string;
  /** `quarantined`: nothing pinned yet; `drifted`: some pinned tools changed. */
  kind: 'quarantined' | 'drifted';
  tools: Array<{
    name: string;
    toolName: string;
    pin: CatalogTool['pin']['status'];
    /** The field diff against the pinned definition (drifted tools). */
    changes: string[];
    findings: Array<Pick<DoorFinding, 'ruleId' | 'severity' | 'message'>>;
  }>;
}

/**
 * What needs review, given the host's catalog and its lock.
 *
 * @example
 * ```ts
 * reviewItems(host).map((item) => `${item.server}: ${item.kind}`);
 * ```
 */
export function reviewItems(host: Host): ReviewItem[] {
  const lock = host.pins.lock;
  if (!lock) return [];
  const byServer = new Map<string, CatalogTool[]>();
  for (const tool of host.catalog()) byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), tool]);
  const items: ReviewItem[] = [];
  for (const [server, tools] of byServer) {
    const quarantined = lock.servers[server] === undefined;
    const drifted = tools.filter((t) => t.pin.status === 'changed' || t.pin.status === 'renamed');
    if (!quarantined && drifted.length === 0) continue;
    // The same check `candor pin` makes: against the servers already pinned.
    const otherServers = new Map(
      Object.entries(lock.servers)
        .filter(([name]) => name !== server)
        .map(([name, pins]) => [name, Object.keys(pins.tools)]),
    );
    const scan = scanAtTheDoor(
      tools.map((t) => t.wire),
      { otherServers },
    );
    items.push({
      server,
      kind: quarantined ? 'quarantined' : 'drifted',
      tools: (quarantined ? tools : drifted).map((tool) => ({
        name: tool.name,
        toolName: tool.toolName,
        pin: tool.pin.status,
        changes: (tool.pin.changes ?? []).map(formatChange),
        findings: (scan.findings.get(tool.toolName) ?? []).map(({ ruleId, severity, message }) => ({
          ruleId,
          severity,
          message,
        })),
      })),
    });
  }
  return items.sort((a, b) => a.server.localeCompare(b.server));
}

/**
 * Pin a server's current tools as `candor pin` would (scan first; `accept` rule ids), then
 * have the host read the lock again.
 *
 * @example
 * ```ts
 * const review = await approveServer(host, 'candor.lock.json', 'notes', []);
 * ```
 */
export async function approveServer(
  host: Host,
  lockFile: string,
  server: string,
  accept: readonly string[],
): Promise<PinReview> {
  const tools = host
    .catalog()
    .filter((tool) => tool.server === server)
    .map((tool) => tool.wire);
  const { reviews } = await pinReviewed(lockFile, [{ server, tools }], { accept });
  await host.pins.reload();
  return reviews[0]!;
}
