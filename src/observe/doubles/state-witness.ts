/**
 * The parts every database double shares once it runs: a witness made from a
 * reader of the database's state (read before a call, read after, diff), and a
 * `stop` that stops the program and removes its folder, once.
 */
import { rm } from 'node:fs/promises';
import type { Daemon } from './daemon.js';
import { type DbState, diffStates } from './table-diff.js';
import type { StartedDouble, Witness } from './types.js';

/**
 * A witness over a reader of a database's state: `mark` reads, `changes` reads again and
 * diffs. A reading that fails (a lock held past the timeout) says nothing rather than guess.
 *
 * @example
 * ```ts
 * const witness = stateWitness('postgres', () => readPostgres(psql));
 * ```
 */
export function stateWitness(service: StartedDouble['kind'], read: () => Promise<DbState>): Witness {
  let before: DbState | undefined;
  return {
    async mark() {
      before = await read().catch(() => undefined);
    },
    async changes() {
      const after = await read().catch(() => undefined);
      const changes = before && after ? diffStates(service, before, after) : [];
      before = after;
      return changes;
    },
  };
}

/** A `stop` that stops the program and removes the double's folder, once. */
export function stopOnce(daemon: Pick<Daemon, 'stop'>, dir: string): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= (async () => {
      await daemon.stop();
      await rm(dir, { recursive: true, force: true });
    })();
    return stopping;
  };
}
