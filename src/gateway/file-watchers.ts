/**
 * Files a running gateway reads again when they change: the lockfile (pinning is
 * the approval: `candor pin` or Approve in `candor ui` rewrites it while the gateway
 * runs) and the Cedar rules (valid rules hold at once; a broken file changes nothing).
 */
import { unwatchFile, watchFile } from 'node:fs';
import type { Host } from '../host/host-api.js';
import type { ServerLogger } from '../util/logger.js';
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
