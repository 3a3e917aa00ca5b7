/**
 * The doubles a listed server needs, named where the server is named: a list
 * line's own `--service` options (`pkg@1.2.3 --service postgres=DATABASE_URL`),
 * or the server.json's `_meta` under candor's key
 * (`"dev.candor/services": ["https-api=api.stripe.com"]`). Either way the batch
 * starts each server with its own doubles, beside any `--service` given to the
 * whole run.
 */
import { CandorError } from '../errors.js';
import { parseService, type ServiceRequest } from '../observe/services.js';
import type { ServerJson } from './server-json.js';

/** The `_meta` key of a server.json that names the doubles the server needs. */
export const SERVICES_META_KEY = 'dev.candor/services';

/** One line of a list: the target, and the doubles named after it. */
export interface ListEntry {
  target: string;
  services: ServiceRequest[];
}

/**
 * Split a list entry into its target and its `--service KIND[=VALUE]` options
 * (also `--service=KIND…`). Anything else after the target is refused, so a typo
 * never silently scans a server without its double.
 *
 * @example
 * ```ts
 * parseListEntry('mcp-pg@1.0.0 --service postgres=DATABASE_URL');
 * // { target: 'mcp-pg@1.0.0', services: [{ kind: 'postgres', env: ['DATABASE_URL'] }] }
 * ```
 */
export function parseListEntry(entry: string): ListEntry {
  const words = entry.trim().split(/\s+/);
  const target = words[0] ?? '';
  const services: ServiceRequest[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i]!;
    let value: string | undefined;
    if (word === '--service') value = words[++i];
    else if (word.startsWith('--service=')) value = word.slice('--service='.length);
    else
      throw new CandorError(`${entry}: after the target a list line takes only --service KIND[=VALUE], not ${word}.`, {
        code: 'invalid_target',
      });
    if (!value)
      throw new CandorError(`${entry}: --service needs a double (e.g. postgres).`, { code: 'invalid_target' });
    services.push(serviceOrTargetError(entry, value));
  }
  return { target, services };
}

function serviceOrTargetError(where: string, value: string): ServiceRequest {
  try {
    return parseService(value);
  } catch (error) {
    throw new CandorError(`${where}: ${(error as Error).message}`, { code: 'invalid_target', cause: error });
  }
}

/**
 * The doubles a server.json names under {@link SERVICES_META_KEY}: an array of
 * `--service` values. A value that is not one is refused with the file's name.
 *
 * @example
 * ```ts
 * servicesOfServerJson({ _meta: { 'dev.candor/services': ['page'] } } as ServerJson, 'server.json'); // [{ kind: 'page' }]
 * ```
 */
export function servicesOfServerJson(server: ServerJson, file: string): ServiceRequest[] {
  const named = server._meta?.[SERVICES_META_KEY];
  if (named === undefined) return [];
  if (!Array.isArray(named) || named.some((v) => typeof v !== 'string'))
    throw new CandorError(
      `${file}: $._meta["${SERVICES_META_KEY}"]: must be an array of doubles as --service takes them (e.g. ["postgres=DATABASE_URL"]).`,
      { code: 'invalid_target' },
    );
  return (named as string[]).map((value) => serviceOrTargetError(`${file}: $._meta["${SERVICES_META_KEY}"]`, value));
}

/**
 * The doubles of one server: the ones the whole run names, then the server's own for
 * kinds the run does not name (one double of each kind runs).
 *
 * @example
 * ```ts
 * mergeServices([{ kind: 'postgres' }], [{ kind: 'postgres', env: ['PG_URL'] }, { kind: 'page' }]);
 * // [{ kind: 'postgres' }, { kind: 'page' }]
 * ```
 */
export function mergeServices(run: readonly ServiceRequest[], own: readonly ServiceRequest[]): ServiceRequest[] {
  const kinds = new Set(run.map((s) => s.kind));
  return [...run, ...own.filter((s) => !kinds.has(s.kind))];
}
