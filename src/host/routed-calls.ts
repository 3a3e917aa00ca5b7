/**
 * The host's seam for candor's own gateway. The gateway routes a call through a
 * connection it names (each person's own, for servers signed in per person) and
 * has confirmations asked on its downstream request; an agent using `candor/host`
 * needs neither, so these options are not part of the public `RunOptions`.
 */
import { CandorError } from '../errors.js';
import type { Host } from './host-api.js';
import { ROUTED_CALLS, type RoutedCalls } from './types.js';

/**
 * The routed calls of a host made by `createHost`.
 *
 * @example
 * ```ts
 * await routedCalls(host).call('notes__add', args, { connection: () => personal, confirmContext: scope });
 * ```
 */
export function routedCalls(host: Host): RoutedCalls {
  const routed = (host as Host & { [ROUTED_CALLS]?: RoutedCalls })[ROUTED_CALLS];
  if (!routed) throw new CandorError('This host was not made by createHost.', { code: 'invalid_host' });
  return routed;
}
