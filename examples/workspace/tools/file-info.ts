/** `file_info`: what is at a path (type, size, times, permissions, text or binary) without reading it all. */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { z } from 'zod';
import { ToolError } from '../../../src/errors.js';
import { defineTool } from '../../../src/tool/define.js';
import type { ToolDefinition } from '../../../src/tool/types.js';
import { O_NOFOLLOW } from '../sandbox.js';
import { formatBytes } from '../text-files.js';
import { TAGS, type WorkspaceContext } from './context.js';

const input = z.object({
  path: z.string().describe('Path relative to the workspace root.'),
});

/**
 * Make the `file_info` tool.
 *
 * @example
 * ```ts
 * registry.add(fileInfoTool(ws));
 * ```
 */
export function fileInfoTool(ws: WorkspaceContext): ToolDefinition {
  const { sandbox } = ws;
  return defineTool({
    name: 'file_info',
    title: 'File Info',
    description:
      'Describe a file or directory in the workspace: type, size, modification time, permissions, and whether a file looks like text or binary.',
    input,
    effect: 'read',
    world: 'closed',
    tags: [TAGS.files, TAGS.read],
    category: 'files',
    handler: async ({ path }) => {
      const target = await sandbox.resolve(path, { expect: 'any' });
      const stats = target.stats;
      if (!stats) {
        throw new ToolError(`Nothing exists at ${target.relative}; list_directory or glob shows what is there.`, {
          code: 'not_found',
        });
      }
      const type = stats.isDirectory() ? 'directory' : stats.isFile() ? 'file' : 'other';
      let content: 'text' | 'binary' | undefined;
      if (type === 'file') content = await sniff(target.absolute);
      const info = {
        path: target.relative,
        type,
        size: stats.size,
        modified: stats.mtime.toISOString(),
        mode: `0${(stats.mode & 0o777).toString(8)}`,
        ...(content ? { content } : {}),
      };
      const text = [
        `${info.path}: ${type}${content ? ` (${content})` : ''}`,
        `size: ${formatBytes(stats.size)} (${stats.size} bytes)`,
        `modified: ${info.modified}`,
        `mode: ${info.mode}`,
      ].join('\n');
      return { content: [{ type: 'text', text }], structuredContent: info };
    },
  });
}

async function sniff(absolute: string): Promise<'text' | 'binary'> {
  const handle = await open(absolute, constants.O_RDONLY | O_NOFOLLOW);
  try {
    const buffer = Buffer.alloc(8192);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).includes(0) ? 'binary' : 'text';
  } finally {
    await handle.close();
  }
}
