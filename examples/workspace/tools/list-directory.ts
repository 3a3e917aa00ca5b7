/**
 * `list_directory`: the entries of one folder, directories first, with sizes,
 * capped so a huge folder cannot flood the model's context.
 */
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool } from '../../../src/tool/define.js';
import type { ToolDefinition } from '../../../src/tool/types.js';
import { formatBytes } from '../text-files.js';
import { TAGS, type WorkspaceContext } from './context.js';

const input = z.object({
  path: z.string().default('.').describe('Directory relative to the workspace root. Default: the root.'),
  includeHidden: z.boolean().default(false).describe('Include names starting with a dot. Default: false.'),
});

/** One listed entry. */
export interface DirectoryEntry {
  name: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
  size?: number;
}

/**
 * Make the `list_directory` tool.
 *
 * @example
 * ```ts
 * registry.add(listDirectoryTool(ws));
 * ```
 */
export function listDirectoryTool(ws: WorkspaceContext): ToolDefinition {
  const { sandbox, limits } = ws;
  return defineTool({
    name: 'list_directory',
    title: 'List Directory',
    description: `List the files and folders in a workspace directory (directories first, then files with sizes; at most ${limits.maxEntries} entries).`,
    input,
    effect: 'read',
    world: 'closed',
    tags: [TAGS.files, TAGS.read],
    category: 'files',
    handler: async ({ path: dir, includeHidden }) => {
      const target = await sandbox.resolve(dir, { expect: 'directory' });
      const names = (await readdir(target.absolute)).filter((n) => includeHidden || !n.startsWith('.'));
      const entries: DirectoryEntry[] = [];
      for (const name of names.slice(0, limits.maxEntries)) {
        const info = await lstat(path.join(target.absolute, name)).catch(() => undefined);
        if (!info) continue;
        const type = info.isDirectory()
          ? 'directory'
          : info.isFile()
            ? 'file'
            : info.isSymbolicLink()
              ? 'symlink'
              : 'other';
        entries.push(type === 'file' ? { name, type, size: info.size } : { name, type });
      }
      entries.sort((a, b) => rank(a) - rank(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const lines = entries.map((e) =>
        e.type === 'directory'
          ? `${e.name}/`
          : e.type === 'file'
            ? `${e.name}  (${formatBytes(e.size ?? 0)})`
            : `${e.name}  (${e.type})`,
      );
      if (names.length > limits.maxEntries) {
        lines.push(`[${names.length - limits.maxEntries} more entries not shown; use glob to narrow down]`);
      }
      const header = `${target.relative === '.' ? 'Workspace root' : target.relative}: ${names.length} entr${names.length === 1 ? 'y' : 'ies'}`;
      return {
        content: [{ type: 'text', text: [header, ...lines].join('\n') }],
        structuredContent: { path: target.relative, entries, truncated: names.length > limits.maxEntries },
      };
    },
  });
}

function rank(entry: DirectoryEntry): number {
  return entry.type === 'directory' ? 0 : 1;
}
