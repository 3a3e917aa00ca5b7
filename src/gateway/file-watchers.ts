/**
 * Files a running gateway reads again when they change: the lockfile (pinning is
 * the approval: `candor pin` or Approve in `candor ui` rewrites it while the gateway
 * runs), the Cedar rules (valid rules hold at once; a broken file changes nothing)
 * and code mode's stored scripts (the same: a broken file keeps the scripts read before).
 */
import { unwatchFile, watchFile } from 'node:fs';
import type { Host } from '../host/host-api.js';
import type { ServerLogger } from '../util/logger.js';
import type { ScriptStore } from './code-mode/script-store.js';
import type { GatewayRules } from './rules.js';

/** How often the files are looked at; fs.watchFile polls, which also works on network mounts. */
const INTERVAL_MS = 250;

/**
 * Re-read the pins when the lockfile changes, then `then()` (the catalog sync).
 *
 * @example
 * ```ts
 * const stop = watchLockfile('candor.lock.json', host, () => catalog.sync(), logger);
 * ```
 */
export function watchLockfile(file: string, host: Host, then: () => void, logger: ServerLogger): () => void {
  const onChange = () => {
    host.pins
      .reload()
      .then(then)
      .catch((error: Error) => logger.warn(`cannot re-read the lockfile: ${error.message}`));
  };
  watchFile(file, { interval: INTERVAL_MS }, onChange).unref();
  return () => unwatchFile(file, onChange);
}

/**
 * Re-read the rules when their file changes, then `then()` (tell every endpoint's
 * clients that their lists changed).
 *
 * @example
 * ```ts
 * const stop = watchRules('team.cedar', rules, () => notifyEveryone(), logger);
 * ```
 */
export function watchRules(file: string, rules: GatewayRules, then: () => void, logger: ServerLogger): () => void {
  const onChange = () => {
    rules
      .reload()
      .then(() => {
        logger.info(`rules reloaded from ${file}`);
        then();
      })
      .catch((error: Error) => logger.error(`${error.message}\nThe rules in force stay until the file is fixed.`));
  };
  watchFile(file, { interval: INTERVAL_MS }, onChange).unref();
  return () => unwatchFile(file, onChange);
}

/**
 * Read the stored scripts again when a person edits their file; the store tells the
 * endpoints (their lists change). A broken file keeps the scripts in force.
 *
 * @example
 * ```ts
 * const stop = watchScripts(store, logger);
 * ```
 */
export function watchScripts(store: ScriptStore, logger: ServerLogger): () => void {
  const file = store.file!;
  const onChange = () => {
    store
      .reload()
      .then(() => logger.info(`stored scripts reloaded from ${file}`))
      .catch((error: Error) =>
        logger.error(`${error.message}\nThe stored scripts read before stay until the file is fixed.`),
      );
  };
  watchFile(file, { interval: INTERVAL_MS }, onChange).unref();
  return () => unwatchFile(file, onChange);
}
