/** `create_directory`: a folder (and its missing parents) inside the workspace; additive and idempotent. */
import { mkdir } from 'node:fs/promises';
import { z } from 'zod';
import { ToolError } from '../../../src/errors.js';
import { defineTool } from '../../../src/tool/define.js';
import type { ToolDefinition } from '../../../src/tool/types.js';
import { TAGS, type WorkspaceContext } from './context.js';

const input = z.object({
  path: z.string().describe('Directory to create, relative to the workspace root; missing parents are created too.'),
});

/**
 * Make the `create_directory` tool.
 *
 * @example
 * ```ts
 * registry.add(createDirectoryTool(ws));
 * ```
 */
export function createDirectoryTool(ws: WorkspaceContext): ToolDefinition {
  const { sandbox } = ws;
  return defineTool({
    name: 'create_directory',
    title: 'Create Directory',
    description: 'Create a directory in the workspace, with any missing parents. Succeeds if it already exists.',
    input,
    effect: 'additive',
    world: 'closed',
    idempotent: true,
    tags: [TAGS.files, TAGS.write],
    category: 'files',
    handler: async ({ path }) => {
      const target = await sandbox.resolve(path, { expect: 'any' });
      if (target.stats?.isDirectory()) return `${target.relative} already exists.`;
      if (target.stats) throw new ToolError(`${target.relative} exists and is a file.`, { code: 'exists' });
      await mkdir(target.absolute, { recursive: true });
      return `Created ${target.relative}/.`;
    },
  });
}
