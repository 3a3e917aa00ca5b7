/**
 * The gateway's own report on its upstreams, as a resource
 * (`candor://gateway/status`) rather than a tool: it is for the person and the
 * host to read, costs the model no tool slot, and needs no policy of its own.
 * The same changes are logged to stderr as they happen.
 */
import { defineResource } from '../resources/define.js';
import type { ResourceDefinition } from '../resources/types.js';

import type { SandboxSummary } from '../sandbox/server-sandbox.js';

/** One upstream's state. */
export interface UpstreamStatus {
  name: string;
  state: 'starting' | 'up' | 'down';
  trust: 'trusted' | 'untrusted';
  tools: number;
  era?: 'legacy' | 'modern' | undefined;
  protocolVersion?: string | undefined;
  /** Why it is down. */
  error?: string;
  /** Down for want of an OAuth sign-in: the command that signs in. */
  signIn?: string;
  /**
   * `"oauth-per-user"`: each person signs in on their first call and calls with
   * their own token; the gateway's own sign-in (`signIn`) only lists the tools. `connectedPeople`:
   * people with an open connection to it through this instance.
   */
  perUser?: { connectedPeople: number };
  /** When the next reconnection attempt is due (ISO time). */
  retryAt?: string;
  /** With a lockfile: the server has no pins yet, so none of its tools is offered. */
  quarantined?: string;
  /** Tools kept out by the scan at the door, with the findings nobody accepted. */
  blocked?: Array<{ tool: string; findings: Array<{ ruleId: string; severity: string; message: string }> }>;
  /** stdio upstreams: how the sandbox confines it, or false when it runs unsandboxed. */
  sandbox?: SandboxSummary | false;
}

/** The status resource's URI. */
export const GATEWAY_STATUS_URI = 'candor://gateway/status';

/**
 * The status resource over a live view of the upstreams.
 *
 * @example
 * ```ts
 * resources.add(gatewayStatusResource(() => gateway.status()));
 * ```
 */
export function gatewayStatusResource(read: () => UpstreamStatus[]): ResourceDefinition {
  return defineResource({
    uri: GATEWAY_STATUS_URI,
    name: 'gateway_status',
    title: 'Gateway status',
    description: 'Each upstream server behind the candor gateway: up or down, why, when it is retried, its tools.',
    mimeType: 'application/json',
    read: () => JSON.stringify({ upstreams: read() }, null, 2),
  });
}
