/**
 * `candor setup` with no client: which clients have a config file on this machine,
 * and for a scope kept per project inside one file (Claude Code's local scope), every
 * project in it that has servers.
 */
import { CandorError } from '../errors.js';
import { isRecord } from '../util/is-record.js';
import { readClientFile } from './client-file.js';
import { CLIENTS } from './clients/index.js';
import { locate } from './locate.js';
import { readRecord, setupFolder } from './state.js';
import { type ClientSpec, GATEWAY_ENTRY_NAME, type Place, type Scope, type ScopeLocation } from './types.js';

/** One client file (or one project's servers in it) found. */
export interface FoundClient {
  client: string;
  title: string;
  scope: Scope;
  file: string;
  /** The project folder the servers belong to (local scope: run setup from there). */
  project?: string;
  /** Server names in the file, or why the file cannot be read. */
  servers: string[] | string;
  /** Whether candor setup put the gateway there. */
  setUp: boolean;
}

/** Server names at a location, why they cannot be read, or undefined when the file does not exist. */
async function serversAt(where: ScopeLocation): Promise<string[] | string | undefined> {
  try {
    const read = await readClientFile(where.file, where.mapPath);
    return read.text === undefined ? undefined : Object.keys(read.servers);
  } catch (error) {
    if (!(error instanceof CandorError)) throw error;
    return error.message;
  }
}

/** The projects a per-project scope's file holds servers for (this folder's first). */
async function projectsIn(client: ClientSpec, scope: Scope, place: Place): Promise<string[]> {
  const here = locate(client, scope, place)!;
  const key = here.mapPath[0]!;
  const read = await readClientFile(here.file, [key]).catch(() => undefined);
  const others = Object.entries(read?.servers ?? {})
    .filter(([folder, settings]) => folder !== here.project && isRecord(settings))
    .map(([folder]) => folder);
  return [here.project!, ...others];
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
    for (const scope of Object.keys(client.files) as Scope[]) {
      const perProject = client.files[scope]?.perProject !== undefined;
      const projects = perProject ? await projectsIn(client, scope, place) : [undefined];
      for (const project of projects) {
        const at = locate(client, scope, place, project)!;
        const servers = await serversAt(at);
        if (servers === undefined) continue;
        // A project in the person's own file is listed only when it has servers (or setup was there).
        const record = await readRecord(setupFolder(stateDir, client, scope, at));
        if (perProject && Array.isArray(servers) && servers.length === 0 && !record) continue;
        const setUp = record !== undefined && Array.isArray(servers) && servers.includes(GATEWAY_ENTRY_NAME);
        found.push({
          client: client.id,
          title: client.title,
          scope,
          file: at.file,
          ...(perProject ? { project: at.project! } : {}),
          servers,
          setUp,
        });
      }
    }
  }
  return found;
}
