/**
 * `--service KIND[=VAR,…]` (repeatable) for `candor observe` and `candor scan`:
 * start a service double (a seeded database, an HTTPS API, a page) beside the server and point the server at it.
 */
import type { Command } from 'commander';
import { parseService, type ServiceRequest } from '../observe/services.js';
import { CliError, EXIT } from './cli-error.js';

/** Add the flag to a command. */
export function addServiceOption(command: Command): Command {
  return command.option(
    '--service <kind=value>',
    "start a double beside the server and point it there: postgres, mysql (MariaDB), redis or sqlite (seeded; =VAR names the variable, or VAR,VAR, that gets its URL, else the usual ones: DATABASE_URL, PG*, MYSQL_*, REDIS_URL, SQLITE_DB_PATH); https-api=HOST[,HOST] (the API's host names lead to a recording TLS double the server trusts); page[=VAR] (a local site for browser servers; VAR gets its URL); {postgres}, {page}, {https-api} in --env values and arguments are their URLs (repeatable)",
    (value: string, previous: string[] = []) => [...previous, value],
    [],
  );
}

/**
 * The requests the flag names; a kind candor has no double of is a usage error.
 *
 * @example
 * ```ts
 * servicesOf({ service: ['postgres=DATABASE_URL'] }); // [{ kind: 'postgres', env: ['DATABASE_URL'] }]
 * ```
 */
export function servicesOf(opts: Record<string, unknown>): ServiceRequest[] {
  try {
    return ((opts.service as string[] | undefined) ?? []).map(parseService);
  } catch (error) {
    throw new CliError((error as Error).message, { exitCode: EXIT.usage, cause: error });
  }
}
