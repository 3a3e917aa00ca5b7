/**
 * Targets: what the CLI points at (a URL, `-- command`, a module, a client config file),
 * how to read them and how to connect. Shared by `candor lint`, `inspect` and `call`.
 */
export type { CommandEnvInput } from './command-env.js';
export { commandEnv } from './command-env.js';
export { readConfigTargets, stripJsonComments } from './config-file.js';
export type { Connection, ConnectOptions } from './connect.js';
export { connectTarget } from './connect.js';
export { listAllResources, listAllTools } from './list.js';
export type { ModuleManifest } from './module.js';
export { loadModuleTarget } from './module.js';
export type { TargetInput } from './parse.js';
export { commandLabel, parseTargets } from './parse.js';
export type { HttpTarget, InvalidTarget, ModuleTarget, StdioTarget, Target } from './types.js';
