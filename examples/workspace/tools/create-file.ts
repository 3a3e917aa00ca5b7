/**
 * `create_file` creates; `overwrite_file` replaces. Two tools rather than one
 * with an `overwrite` flag: a tool whose behaviour depends on an argument must
 * advertise its worst case, so a single tool would have to say "destructive" and
 * hosts would confirm every new file.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ToolError } from '../../../src/errors.js';
import { defineTool } from '../../../src/tool/define.js';
import type { ToolDefinition } from '../../../src/tool/types.js';
import { formatBytes, writeTextFile } from '../text-files.js';
import { TAGS, type WorkspaceContext } from './context.js';

const createInput = z.object({
  path: z.string().describe('Path of the new file, relative to the workspace root.'),
  content: z.string().describe('The UTF-8 text to write.'),
  createParents: z.boolean().default(true).describe('Create missing parent folders. Default: true.'),
});

const overwriteInput = z.object({
  path: z.string().describe('Path of the file to replace (or create), relative to the workspace root.'),
  content: z.string().describe('The complete new UTF-8 content.'),
});

/**
 * Make the `create_file` tool (additive: it never replaces anything).
 *
 * @example
 * ```ts
 * registry.add(createFileTool(ws));
 * ```
 */
export function createFileTool(ws: WorkspaceContext): ToolDefinition {
  const { sandbox, limits } = ws;
  return defineTool({
    name: 'create_file',
    title: 'Create File',
    description:
      'Create a new UTF-8 text file in the workspace. Refuses to touch an existing file: use overwrite_file to replace one, or str_replace / apply_patch to edit it.',
    input: createInput,
    effect: 'additive',
    world: 'closed',
    // A second identical call fails on the existing file and changes nothing.
    idempotent: true,
    tags: [TAGS.files, TAGS.write],
    category: 'files',
    handler: async ({ path: file, content, createParents }) => {
      const target = await sandbox.resolve(file, { expect: 'any' });
      if (target.stats) {
        throw new ToolError(
          `${target.relative} already exists; create_file only creates new files. Use overwrite_file to replace it, or str_replace / apply_patch to edit it.`,
          { code: 'exists' },
        );
      }
      await ensureParent(ws, target.absolute, createParents);
      const bytes = await writeTextFile(target, content, { mode: 'create', maxBytes: limits.maxWriteBytes });
      return `Created ${target.relative} (${formatBytes(bytes)}).`;
    },
  });
}

/**
 * Make the `overwrite_file` tool (destructive: the old content is gone).
 *
 * @example
 * ```ts
 * registry.add(overwriteFileTool(ws));
 * ```
 */
export function overwriteFileTool(ws: WorkspaceContext): ToolDefinition {
  const { sandbox, limits } = ws;
  return defineTool({
    name: 'overwrite_file',
    title: 'Overwrite File',
    description:
      'Replace the whole content of a workspace file (creating it if missing). The old content is lost; prefer str_replace or apply_patch for edits.',
    input: overwriteInput,
    effect: 'destructive',
    world: 'closed',
    idempotent: true,
    tags: [TAGS.files, TAGS.write],
    category: 'files',
    handler: async ({ path: file, content }) => {
      const target = await sandbox.resolve(file, { expect: 'any' });
      if (target.stats && !target.stats.isFile()) {
        throw new ToolError(`${target.relative} is not a regular file; refused.`, { code: 'not_a_file' });
      }
      await ensureParent(ws, target.absolute, false);
      const bytes = await writeTextFile(target, content, { mode: 'replace', maxBytes: limits.maxWriteBytes });
      return `${target.stats ? 'Overwrote' : 'Created'} ${target.relative} (${formatBytes(bytes)}).`;
    },
  });
}

/** Make sure the parent folder exists (creating it inside the sandbox when allowed). */
async function ensureParent(ws: WorkspaceContext, absolute: string, create: boolean): Promise<void> {
  const parent = await ws.sandbox.resolve(path.dirname(absolute), { expect: 'any' });
  if (parent.stats?.isDirectory()) return;
  if (parent.stats) throw new ToolError(`${parent.relative} is a file, not a directory.`, { code: 'not_a_directory' });
  if (!create) {
    throw new ToolError(`The folder ${parent.relative} does not exist; create_directory makes it.`, {
      code: 'not_found',
    });
  }
  await mkdir(parent.absolute, { recursive: true });
}
