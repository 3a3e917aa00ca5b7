/** Where one scope of a client keeps its servers, for the folder setup runs in. */
import type { ClientSpec, Place, Scope, ScopeLocation } from './types.js';

/**
 * The file, server-map path and project of `scope` for `place`; undefined when the
 * client has no such scope. `project` names a per-project entry directly (the list of
 * clients found walks the projects a file holds).
 *
 * @example
 * ```ts
 * locate(claudeCode, 'local', place); // { file: '~/.claude.json', mapPath: ['projects', '/repo', 'mcpServers'], project: '/repo' }
 * ```
 */
export function locate(client: ClientSpec, scope: Scope, place: Place, project?: string): ScopeLocation | undefined {
  const where = client.files[scope];
  if (!where) return undefined;
  const file = where.file(place);
  if (!where.perProject)
    return { file, mapPath: [...client.mapPath], ...(scope === 'user' ? {} : { project: place.cwd }) };
  const folder = project ?? where.perProject.folder(place.cwd);
  return { file, mapPath: [where.perProject.key, folder, ...client.mapPath], project: folder };
}
