/**
 * `candor/gateway`: honest annotations and enforced policy in front of any MCP
 * server. Node-only.
 */

export type { ScriptLimits } from '../host/code-mode/types.js';
export type { AuditEntry } from './audit-log.js';
export { auditArgs } from './audit-log.js';
export { GATEWAY_CONFIG_FILES, loadGatewayConfig, parseGatewayConfig } from './config.js';
export type { Gateway } from './gateway.js';
export { createGateway } from './gateway.js';
export type { ClientName, GatewayLaunch } from './print-config.js';
export { CLIENT_ENTRY_NAME, CLIENTS, printConfig } from './print-config.js';
export type { GatewayToolMeta } from './proxy-tool.js';
export { GATEWAY_META_KEY } from './proxy-tool.js';
export type { UpstreamStatus } from './status.js';
export { GATEWAY_STATUS_URI } from './status.js';
export type { GatewayOptions, UpstreamConfig } from './types.js';
