/**
 * candor's workspace example, importable as a tool pack (`createWorkspaceTools`)
 * or a ready server (`createWorkspaceServer`). See tools.ts for the tool list.
 */
export type { HostResolver, WorkspaceLimits, WorkspaceOptions } from './options.js';
export { DEFAULT_LIMITS } from './options.js';
export { Sandbox } from './sandbox.js';
export { createWorkspaceServer, type WorkspaceServerOptions } from './server.js';
export { createWorkspaceTools } from './tools.js';
