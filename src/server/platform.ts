/**
 * What a server needs from the runtime it runs on, and nothing else: the
 * environment, a default logger, stdio, a listening HTTP server, stray-rejection
 * and signal handling. Node.js provides all of them (node-platform.ts); a fetch
 * runtime (workerd, Deno, Bun, edge functions) provides the environment and a
 * console logger, and the rest fails with a `node_only` error when used
 * (fetch-platform.ts). Types only.
 */
import type { Dispatcher } from '../engine/dispatcher.js';
import type { TaskStore } from '../engine/tasks/task-store.js';
import type { ToolRegistry } from '../registry/registry.js';
import type { WireTool } from '../tool/types.js';
import type { HttpListener, HttpListenOptions } from '../transports/http/listen.js';
import type { StdioConnection, StdioOptions } from '../transports/stdio.js';
import type { ServerLogger } from '../util/logger.js';
import type { RedisOption, SharedState } from './shared-state.js';

/** The runtime services `createServer` uses. */
export interface ServerPlatform {
  /** The environment (`CANDOR_LOG_*`, `REDIS_URL`, `NODE_ENV`, `TOOL_<NAME>_DISABLED`); empty where there is none. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The logger used when `createServer` is given none. */
  defaultLogger(env: Readonly<Record<string, string | undefined>>): ServerLogger;
  /** Shared state on Redis from the `redis` option or `REDIS_URL` (shared-state.ts); undefined when neither is set. */
  openSharedState(
    option: RedisOption | undefined,
    context: { env: Readonly<Record<string, string | undefined>>; registry: ToolRegistry; logger: ServerLogger },
  ): SharedState | undefined;
  /** The task store on that shared state's Redis. */
  sharedTaskStore(shared: SharedState): TaskStore;
  /** Serve the dispatcher over stdio. */
  stdio(dispatcher: Dispatcher, options: StdioOptions): StdioConnection;
  /** Whether a stdio server reads the process's own stdin (then signals are handled by default). */
  ownsStdin(options: StdioOptions): boolean;
  /** A new HTTP server listening for the dispatcher. */
  listen(options: HttpListenOptions): Promise<HttpListener>;
  /** The start-up lint report's lines (startup-lint.ts), or none where lint is not run. */
  startupLint(
    tools: readonly Readonly<WireTool>[],
    env: Readonly<Record<string, string | undefined>>,
  ): Promise<string[]>;
  /** Log stray promise rejections instead of exiting; returns the release. */
  guardStrayRejections(logger: ServerLogger): () => void;
  /** Run `onSignal` on SIGTERM / SIGINT, then exit; returns the release. */
  onSignals(onSignal: (signal: string) => Promise<void>): () => void;
}
