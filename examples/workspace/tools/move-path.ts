/**
 * `move_path` renames or moves a file or folder inside the workspace. It never
 * replaces an existing destination; it is still destructive, because the source
 * path stops existing (anything that referred to it breaks).
 */
import { rename } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ToolError } from '../../../src/errors.js';
import { defineTool } from '../../../src/tool/define.js';
import type { ToolDefinition } from '../../../src/tool/types.js';
import { TAGS, type WorkspaceContext } from './context.js';

const input = z.object({
  from: z.string().describe('Existing file or folder, relative to the workspace root.'),
  to: z.string().describe('New path, relative to the workspace root; must not exist yet (its parent must).'),
});

/**
 * Make the `move_path` tool.
 *
 * @example
 * ```ts
 * registry.add(movePathTool(ws));
 * ```
 */
export function movePathTool(ws: WorkspaceContext): ToolDefinition {
  const { sandbox } = ws;
  return defineTool({
    name: 'move_path',
    title: 'Move or Rename',
    description:
      'Move or rename a file or folder inside the workspace. Refuses to replace an existing destination and to move a folder into itself.',
    input,
    effect: 'destructive',
    world: 'closed',
    idempotent: false,
    tags: [TAGS.files, TAGS.write],
    category: 'files',
    handler: async ({ from, to }) => {
      const source = await sandbox.resolve(from, { notRoot: true, noFollow: true });
      if (!source.stats) {
        throw new ToolError(`Nothing exists at ${source.relative}; list_directory shows what is there.`, {
          code: 'not_found',
        });
      }
      const destination = await sandbox.resolve(to, { notRoot: true, noFollow: true });
      if (destination.stats) {
        throw new ToolError(`${destination.relative} already exists; move_path never replaces anything.`, {
          code: 'exists',
        });
      }
      if (destination.absolute.startsWith(source.absolute + path.sep)) {
        throw new ToolError(`Cannot move ${source.relative} into itself (${destination.relative}).`);
      }
      const parent = await sandbox.resolve(path.dirname(destination.absolute));
      if (!parent.stats?.isDirectory()) {
        throw new ToolError(`The folder ${parent.relative} does not exist; create_directory makes it.`, {
          code: 'not_found',
        });
      }
      await rename(source.absolute, destination.absolute);
      return `Moved ${source.relative} → ${destination.relative}.`;
    },
  });
}
