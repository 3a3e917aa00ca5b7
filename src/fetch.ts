/**
 * `candor/fetch`: candor for fetch runtimes (Cloudflare Workers / workerd, Deno,
 * Bun, edge functions). Define tools, prompts and resources as with `candor`,
 * create the server, and export its fetch handler. Nothing this entry imports
 * needs Node.js (a test walks its import graph); what does (`stdio()`,
 * `listen()`, Redis, rate limits) fails with a
 * `node_only` error when used. See docs/serve/fetch-runtimes.md.
 *
 * @example
 * ```ts
 * import { createServer, defineTool } from 'candor/fetch';
 * import { z } from 'zod';
 *
 * const server = createServer({ name: 'hello', version: '1.0.0', tools: [defineTool({
 *   name: 'greet', effect: 'read', world: 'closed', input: z.object({ name: z.string() }),
 *   handler: ({ name }) => `Hello, ${name}!`,
 * })] });
 * export default { fetch: server.fetchHandler() };
 * ```
 */
export type { CacheHintOptions, CacheOptions } from './engine/modern/cache-hints.js';
export { InputRequiredError } from './engine/modern/call-context.js';
export type { ModernOptions } from './engine/modern/modern-engine.js';
export type { RequestStateOptions } from './engine/modern/request-state.js';
export { MemoryTaskStore } from './engine/tasks/memory-task-store.js';
export type { TasksOptions } from './engine/tasks/task-runtime.js';
export type { CandorErrorCode, ToolErrorCode } from './errors.js';
export { CandorError, DefinitionError, isCandorError, isToolError, ToolError } from './errors.js';
export { compose } from './pipeline/compose.js';
export { audit } from './pipeline/middleware/audit.js';
export { timeout } from './pipeline/middleware/timeout.js';
export type { CallContext, Middleware, Next } from './pipeline/types.js';
export { definePrompt } from './prompts/define.js';
export { PromptRegistry } from './prompts/registry.js';
export { ToolRegistry } from './registry/registry.js';
export { defineResource, defineResourceTemplate } from './resources/define.js';
export { ResourceRegistry } from './resources/registry.js';
export type { CandorServer, ServerHttpOptions, ServerOptions } from './server/build-server.js';
export { createServer } from './server/create-fetch-server.js';
export type { ArgsOf, ToolConfig, ToolLike } from './tool/define.js';
export { BaseTool, defineTool } from './tool/define.js';
export type { ServerLogger } from './util/logger.js';
export { consoleLogger, silentLogger } from './util/logger.js';
