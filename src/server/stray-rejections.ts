/**
 * Keeping a server alive through a handler's stray promise rejection.
 *
 * A handler can start a promise it never awaits (`void fetch(...)`) that later
 * rejects. Node then emits `unhandledRejection` and, with no listener, exits:
 * one careless tool would take down every client. When candor owns the
 * process (`server.stdio()`, `server.listen()`), it installs ONE listener that
 * logs the rejection, with its stack, to the server logger (stderr) and keeps
 * running. It is not installed for embedded handlers (`nodeHandler()`,
 * `fetchHandler()`, `connectMemory()`): there the host application owns the
 * process and its policy. It is removed on `server.close()`. Rejections are
 * logged loudly, never hidden; an uncaught *exception* still ends the process,
 * because the process state after one is unknown.
 */
import type { ServerLogger } from '../util/logger.js';

/**
 * Install the listener; returns a function that removes it.
 *
 * @example
 * ```ts
 * const release = guardStrayRejections(logger);
 * // … later, on close:
 * release();
 * ```
 */
export function guardStrayRejections(logger: ServerLogger): () => void {
  // One process listener however many servers run in the process (a gateway with profiles,
  // tests starting many): each server's logger hears of every stray rejection.
  const entry = { logger };
  if (guarded.size === 0) process.on('unhandledRejection', onStrayRejection);
  guarded.add(entry);
  return () => {
    if (!guarded.delete(entry)) return;
    if (guarded.size === 0) process.off('unhandledRejection', onStrayRejection);
  };
}

const guarded = new Set<{ logger: ServerLogger }>();

function onStrayRejection(reason: unknown): void {
  for (const { logger } of guarded) {
    logger.error(
      'unhandled promise rejection (probably a tool handler that did not await a promise); the server keeps running',
      { error: reason },
    );
  }
}
