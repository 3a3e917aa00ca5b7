/**
 * The one bubblewrap sandbox: `candor observe` traces servers inside it,
 * the gateway runs untrusted stdio upstreams inside it.
 */

export { type Bridge, openBridge } from './bridge.js';
export { bwrapArgs } from './bwrap.js';
export { type Destination, parseDestination } from './destination.js';
export { forwardedCommand } from './forward-command.js';
export type { ForwardRule } from './forwarding.js';
export { checkSandboxPlatform, type PlatformNeeds } from './platform.js';
export {
  describeSandbox,
  prepareServerSandbox,
  type SandboxSummary,
  type ServerSandbox,
  type ServerSandboxInput,
} from './server-sandbox.js';
export { DEFAULT_SANDBOX, parseSandboxSpec, SANDBOX_KEYS } from './spec.js';
export type { SandboxNetwork, SandboxPlan, SandboxSpec } from './types.js';
