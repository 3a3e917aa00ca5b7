/**
 * What each connected server offers besides tools, for the console's "Resources and
 * prompts" pane: its resources, resource templates and prompts, listed through the
 * host's connection to it. A server whose lists fail is shown with the reason.
 */
import type { Host } from '../../host/host-api.js';
import { listOffers, type ServerOffers } from '../../targets/offers.js';

/** One server's offers, or why they could not be listed. */
export type ServerOffersRow = { server: string } & (ServerOffers | { error: string });

const LIST_TIMEOUT_MS = 30_000;

/**
 * The offers of every connected server, in the host's server order.
 *
 * @example
 * ```ts
 * const rows = await serverOffers(host); // [{ server: 'notes', resources: [{ uri: 'ui://notes/view', … }], … }]
 * ```
 */
export function serverOffers(host: Host): Promise<ServerOffersRow[]> {
  const connected = host.servers().filter((server) => server.status === 'connected');
  return Promise.all(
    connected.map(async ({ name }): Promise<ServerOffersRow> => {
      const client = host.client(name);
      if (!client) return { server: name, error: 'not connected' };
      try {
        return { server: name, ...(await listOffers(client, { timeoutMs: LIST_TIMEOUT_MS })) };
      } catch (error) {
        return { server: name, error: (error as Error).message };
      }
    }),
  );
}
