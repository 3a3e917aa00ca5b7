/**
 * The Node.js services of a server: `process.env`, the stderr logger, stdio on
 * the process's streams, node:http listening (loaded when `listen()` is first
 * called), and the process's stray rejections and signals.
 */
import { createRedisTaskStore } from '../stores/redis-task-store.js';
import { serveStdio } from '../transports/stdio.js';
import { logSettingsFrom, stderrLogger } from '../util/logger.js';
import type { ServerPlatform } from './platform.js';
import { openSharedState } from './shared-state.js';
import { startupLint } from './startup-lint.js';
import { guardStrayRejections } from './stray-rejections.js';

/** The platform `createServer` (from `candor`) runs on. */
export const nodePlatform: ServerPlatform = {
  // A server's operator sets CANDOR_LOG_LEVEL / CANDOR_LOG_FORMAT; createServer is where they enter.
  env: process.env,
  defaultLogger: (env) => stderrLogger(logSettingsFrom(env)),
  openSharedState,
  sharedTaskStore: (shared) =>
    createRedisTaskStore(
      shared.ready.then((cluster) => cluster.redis.command),
      { prefix: shared.prefix },
    ),
  stdio: serveStdio,
  ownsStdin: (options) => options.stdin === undefined || options.stdin === process.stdin,
  async listen(options) {
    // Loaded on demand: a server that never listens does not load node:http.
    const { listenHttp } = await import('../transports/http/listen.js');
    return listenHttp(options);
  },
  startupLint,
  guardStrayRejections,
  onSignals(onSignal) {
    const handler = (signal: NodeJS.Signals) => void onSignal(signal).finally(() => process.exit(0));
    process.once('SIGTERM', handler);
    process.once('SIGINT', handler);
    return () => {
      process.off('SIGTERM', handler);
      process.off('SIGINT', handler);
    };
  },
};
