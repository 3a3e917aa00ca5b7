/** `delete_path`: remove a file, or a folder with `recursive: true`. Never the root itself. */
import { rm, rmdir, unlink } from 'node:fs/promises';
import { z } from 'zod';
import { ToolError } from '../../../src/errors.js';
import { defineTool } from '../../../src/tool/define.js';
import type { ToolDefinition } from '../../../src/tool/types.js';
import { TAGS, type WorkspaceContext } from './context.js';

const input = z.object({
  path: z.string().describe('File or folder to delete, relative to the workspace root.'),
  recursive: z.boolean().default(false).describe('Required to delete a folder that is not empty. Default: false.'),
});

/**
 * Make the `delete_path` tool.
 *
 * @example
 * ```ts
 * registry.add(deletePathTool(ws));
 * ```
 */
export function deletePathTool(ws: WorkspaceContext): ToolDefinition {
  const { sandbox } = ws;
  return defineTool({
    name: 'delete_path',
    title: 'Delete File or Folder',
    description:
      'Delete a file or an empty folder in the workspace; a folder with contents needs recursive: true. A symbolic link is removed, never its target.',
    input,
    effect: 'destructive',
    world: 'closed',
    idempotent: true,
    tags: [TAGS.files, TAGS.write],
    category: 'files',
    handler: async ({ path, recursive }) => {
      const target = await sandbox.resolve(path, { notRoot: true, noFollow: true });
      if (!target.stats) {
        throw new ToolError(`Nothing exists at ${target.relative}.`, { code: 'not_found' });
      }
      if (!target.stats.isDirectory()) {
        await unlink(target.absolute);
        return `Deleted ${target.relative}.`;
      }
      if (recursive) {
        await rm(target.absolute, { recursive: true });
        return `Deleted ${target.relative}/ and everything in it.`;
      }
      try {
        await rmdir(target.absolute);
      } catch (error) {
        if (
          (error as NodeJS.ErrnoException).code === 'ENOTEMPTY' ||
          (error as NodeJS.ErrnoException).code === 'EEXIST'
        ) {
          throw new ToolError(
            `${target.relative}/ is not empty; pass recursive: true to delete it with its contents.`,
            {
              code: 'not_empty',
            },
          );
        }
        throw error;
      }
      return `Deleted ${target.relative}/.`;
    },
  });
}
