/**
 * `createServer` for fetch runtimes (Cloudflare workerd, Deno, Bun, edge
 * functions): the same server, whose Streamable HTTP endpoint is
 * `server.fetchHandler()`. Nothing it imports needs Node.js; `stdio()`,
 * `listen()`, Redis and rate limits fail with a `node_only` error when used.
 */
import { buildServer, type CandorServer, type ServerOptions } from './build-server.js';
import { fetchPlatform } from './fetch-platform.js';

/**
 * Create a server for a fetch runtime.
 *
 * @example
 * ```ts
 * import { createServer, defineTool } from 'candor/fetch';
 * const server = createServer({ name: 'files', version: '1.0.0', tools: [readFile] });
 * export default { fetch: server.fetchHandler() };
 * ```
 */
export function createServer(options: ServerOptions): CandorServer {
  return buildServer(options, fetchPlatform);
}
