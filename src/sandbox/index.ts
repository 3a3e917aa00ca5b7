/**
 * The one bubblewrap sandbox (issue 21): `candor observe` traces servers inside it,
 * the gateway runs untrusted stdio upstreams inside it.
 */
export { bwrapArgs } from './bwrap.js';
export { checkSandboxPlatform, type PlatformNeeds } from './platform.js';
export type { SandboxNetwork, SandboxPlan } from './types.js';
