/** `candor setup` with no client: which clients have a config file on this machine. */
import { CandorError } from '../errors.js';
import { readClientFile } from './client-file.js';
import { CLIENTS } from './clients/index.js';
import { readRecord, setupFolder } from './state.js';
import { GATEWAY_ENTRY_NAME, type Place, type Scope } from './types.js';

/** One client file found. */
export interface FoundClient {
  client: string;
  title: string;
  scope: Scope;
  file: string;
  /** Server names in the file, or why the file cannot be read. */
  servers: string[] | string;
  /** Whether candor setup put the gateway there. */
  setUp: boolean;
}

/**
 * Every client config file that exists for this place.
 *
 * @example
 * ```ts
 * const found = await findClients({ home: '/home/me', cwd: process.cwd(), platform: 'linux' }, '/home/me/.config/candor');
 * ```
 */
export async function findClients(place: Place, stateDir: string): Promise<FoundClient[]> {
  const found: FoundClient[] = [];
  for (const client of CLIENTS) {
    for (const [scope, fileOf] of Object.entries(client.files) as Array<[Scope, (p: Place) => string]>) {
      const file = fileOf(place);
      let servers: string[] | string;
      try {
        const read = await readClientFile(file, client.mapPath);
        if (read.text === undefined) continue;
        servers = Object.keys(read.servers);
      } catch (error) {
        if (!(error instanceof CandorError)) throw error;
        servers = error.message;
      }
      const record = await readRecord(setupFolder(stateDir, client, scope, place));
      const setUp = record !== undefined && Array.isArray(servers) && servers.includes(GATEWAY_ENTRY_NAME);
      found.push({ client: client.id, title: client.title, scope, file, servers, setUp });
    }
  }
  return found;
}
