/**
 * A client named on the command line (`candor setup <client>`, `--print-config <client>`,
 * `--client <client>`): any name or alias of the one table in client-names.ts; anything
 * else is answered with the names taken and the nearest one.
 */
import { CLIENT_ALIASES, type ClientName, clientName, clientNamesText } from '../gateway/client-names.js';
import { closestNames } from '../util/edit-distance.js';
import { CliError, EXIT } from './cli-error.js';

/**
 * The client `name` stands for, or a usage error listing the names taken with a did-you-mean.
 *
 * @example
 * ```ts
 * clientArg('gemini-cli'); // 'gemini'
 * clientArg('cursr'); // throws: Unknown client "cursr". Did you mean cursor? Clients: claude-code (claude), …
 * ```
 */
export function clientArg(name: string, what = 'client'): ClientName {
  const id = clientName(name);
  if (id) return id;
  const near = closestNames(name, Object.keys(CLIENT_ALIASES), 1);
  const mean = near.length > 0 ? ` Did you mean ${near[0]}?` : '';
  throw new CliError(`Unknown ${what} ${JSON.stringify(name)}.${mean} Clients: ${clientNamesText()}.`, {
    exitCode: EXIT.usage,
  });
}
