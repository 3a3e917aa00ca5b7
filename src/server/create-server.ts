/**
 * `createServer` on Node.js: a candor MCP server served over stdio, Streamable
 * HTTP (its own node:http server, or a handler for yours) or an in-memory pair
 * for tests. On a fetch runtime, import `createServer` from `candor/fetch`.
 */
import { buildServer, type CandorServer, type ServerOptions } from './build-server.js';
import { nodePlatform } from './node-platform.js';

/**
 * Create a server.
 *
 * @example
 * ```ts
 * const server = createServer({ name: 'files', version: '1.0.0', tools: [readFile, writeFile] });
 * server.stdio();
 * ```
 */
export function createServer(options: ServerOptions): CandorServer {
  return buildServer(options, nodePlatform);
}

export type {
  CandorServer,
  ServerHttpOptions,
  ServerListenOptions,
  ServerOptions,
  ServerStdioOptions,
} from './build-server.js';
