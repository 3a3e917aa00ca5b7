/**
 * The services of a fetch runtime (Cloudflare workerd, Deno, Bun, edge
 * functions): the environment where the runtime has one (`process.env` under
 * Node compatibility, else none), a logger on `console.error`, and clear
 * `node_only` errors for what needs Node.js: stdio and listening on a port. A
 * Worker's own lifecycle replaces signals and stray-rejection handling.
 */

import { consoleLogger, logSettingsFrom } from '../util/logger.js';
import { nodeOnly } from '../util/node-require.js';
import type { ServerPlatform } from './platform.js';

const processEnv = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;

/** The platform the `createServer` of `candor/fetch` runs on. */
export const fetchPlatform: ServerPlatform = {
  env: processEnv ?? {},
  defaultLogger: (env) => consoleLogger(logSettingsFrom(env)),
  openSharedState(option, { env }) {
    if (option === false || (option === undefined && (env.REDIS_URL ?? '').trim() === '')) return undefined;
    throw nodeOnly(
      'Shared state on Redis (the redis option or REDIS_URL)',
      'ioredis speaks TCP through node:net; on a fetch runtime keep shared state in the platform (Durable Objects, KV) and leave redis unset',
    );
  },
  sharedTaskStore() {
    throw nodeOnly('A task store on Redis');
  },
  stdio() {
    throw nodeOnly('server.stdio()', 'on a fetch runtime, serve Streamable HTTP with server.fetchHandler()');
  },
  ownsStdin: () => false,
  listen() {
    return Promise.reject(
      nodeOnly(
        'server.listen()',
        'on a fetch runtime, export { fetch: server.fetchHandler() } and let the runtime listen',
      ),
    );
  },
  // Lint is a development step here: run `candor lint` on the server module.
  startupLint: async () => [],
  guardStrayRejections: () => () => {},
  onSignals: () => () => {},
};
