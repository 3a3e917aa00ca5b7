/**
 * `apply_patch`: a unified diff (one or many files, `diff -u` or `git diff`
 * style) applied all-or-nothing. Every hunk of every file is fitted in memory
 * first; nothing is written unless all of them fit, and if a write fails
 * half-way the files already written are put back.
 */
import { rm } from 'node:fs/promises';
import { applyPatch, parsePatch, type StructuredPatch } from 'diff';
import { z } from 'zod';
import { ToolError } from '../../../src/errors.js';
import { defineTool } from '../../../src/tool/define.js';
import type { ToolDefinition } from '../../../src/tool/types.js';
import type { SandboxPath } from '../sandbox.js';
import { formatBytes, readTextFile, writeTextFile } from '../text-files.js';
import { TAGS, type WorkspaceContext } from './context.js';

const input = z.object({
  patch: z
    .string()
    .min(1)
    .describe('A unified diff with ---/+++ file headers (paths relative to the root; a/ and b/ prefixes are fine).'),
  check: z.boolean().default(false).describe('Only check that the patch applies; write nothing. Default: false.'),
});

const DEV_NULL = '/dev/null';

/** The planned result of one file's part of the patch. */
interface FileChange {
  kind: 'create' | 'modify' | 'delete' | 'rename';
  target: SandboxPath;
  /** For renames: the old path, deleted after the new one is written. */
  source?: SandboxPath;
  before?: string;
  after: string;
}

/**
 * Make the `apply_patch` tool.
 *
 * @example
 * ```ts
 * registry.add(applyPatchTool(ws));
 * ```
 */
export function applyPatchTool(ws: WorkspaceContext): ToolDefinition {
  const { limits } = ws;
  return defineTool({
    name: 'apply_patch',
    title: 'Apply Patch',
    description:
      'Apply a unified diff to files in the workspace, all or nothing: if any hunk of any file does not match, nothing is written and the error names the hunk. Creates files from /dev/null, deletes files patched to /dev/null, renames.',
    input,
    effect: 'destructive',
    world: 'closed',
    idempotent: false,
    tags: [TAGS.files, TAGS.write],
    category: 'files',
    handler: async ({ patch, check }) => {
      let parsed: StructuredPatch[];
      try {
        parsed = parsePatch(patch);
      } catch (error) {
        throw new ToolError(`The patch cannot be parsed: ${(error as Error).message}`, { code: 'bad_patch' });
      }
      parsed = parsed.filter((p) => p.hunks.length > 0 || p.isRename || p.isDelete || p.isCreate || p.isBinary);
      if (parsed.length === 0) {
        throw new ToolError(
          'The patch contains no hunks; pass a unified diff with "--- a/file", "+++ b/file" and "@@" lines.',
          {
            code: 'bad_patch',
          },
        );
      }
      const changes = await plan(ws, parsed);
      for (const change of changes) {
        if (Buffer.byteLength(change.after) > limits.maxWriteBytes) {
          throw new ToolError(
            `${change.target.relative} would be over the ${formatBytes(limits.maxWriteBytes)} write limit.`,
          );
        }
      }
      const summary = changes.map(describe).join('\n');
      if (check) return `The patch applies cleanly (nothing written):\n${summary}`;
      await commit(ws, changes);
      return `Applied the patch:\n${summary}`;
    },
  });
}

function describe(change: FileChange): string {
  switch (change.kind) {
    case 'create':
      return `  created ${change.target.relative}`;
    case 'delete':
      return `  deleted ${change.target.relative}`;
    case 'rename':
      return `  renamed ${change.source!.relative} → ${change.target.relative}`;
    default:
      return `  modified ${change.target.relative}`;
  }
}

/** Strip git's `a/` and `b/` prefixes when both sides use them (or one side is /dev/null). */
function fileNames(patch: StructuredPatch): { oldName?: string; newName?: string } {
  const clean = (name: string | undefined) => (name === undefined ? undefined : name.trim());
  let oldName = clean(patch.oldFileName);
  let newName = clean(patch.newFileName);
  const prefixed =
    (oldName === DEV_NULL || oldName?.startsWith('a/')) && (newName === DEV_NULL || newName?.startsWith('b/'));
  if (prefixed && !(oldName === DEV_NULL && newName === DEV_NULL)) {
    if (oldName !== DEV_NULL) oldName = oldName!.slice(2);
    if (newName !== DEV_NULL) newName = newName!.slice(2);
  }
  return { oldName, newName };
}

async function plan(ws: WorkspaceContext, patches: StructuredPatch[]): Promise<FileChange[]> {
  const { sandbox, limits } = ws;
  const staged = new Map<string, FileChange>();
  const read = async (target: SandboxPath) =>
    staged.get(target.absolute)?.after ?? (await readTextFile(target, { maxBytes: limits.maxWriteBytes }));

  for (const [index, patch] of patches.entries()) {
    const { oldName, newName } = fileNames(patch);
    const label = newName && newName !== DEV_NULL ? newName : (oldName ?? `file #${index + 1}`);
    if (patch.isBinary) throw new ToolError(`${label}: binary patches are not supported.`, { code: 'bad_patch' });
    if (!oldName && !newName) {
      throw new ToolError(`Part ${index + 1} of the patch has no ---/+++ file headers, so it names no file.`, {
        code: 'bad_patch',
      });
    }
    const creating = oldName === DEV_NULL || (patch.isCreate === true && !oldName);
    const deleting = newName === DEV_NULL || patch.isDelete === true;

    if (creating) {
      const target = await sandbox.resolve(newName, { expect: 'absent' }).catch(rethrowAs(label, 'cannot be created'));
      const after = applyHunks(label, '', patch);
      staged.set(target.absolute, { kind: 'create', target, after });
      continue;
    }
    const source = await sandbox.resolve(oldName ?? newName, { expect: 'file' });
    const before = await read(source);
    const after = applyHunks(label, before, patch);
    if (deleting) {
      if (after !== '') {
        throw new ToolError(`${source.relative}: the patch deletes the file but does not remove all of its lines.`, {
          code: 'no_match',
        });
      }
      staged.set(source.absolute, { kind: 'delete', target: source, before, after: '' });
      continue;
    }
    const renamed = newName !== undefined && oldName !== undefined && newName !== oldName;
    if (renamed) {
      const target = await sandbox.resolve(newName, { expect: 'absent' }).catch(rethrowAs(label, 'cannot be created'));
      staged.set(target.absolute, { kind: 'rename', target, source, before, after });
      continue;
    }
    const previous = staged.get(source.absolute);
    staged.set(source.absolute, {
      kind: previous?.kind === 'create' ? 'create' : 'modify',
      target: source,
      before: previous ? previous.before : before,
      after,
    });
  }
  return [...staged.values()];
}

function rethrowAs(label: string, what: string): (error: unknown) => never {
  return (error) => {
    throw new ToolError(`${label} ${what}: ${(error as Error).message}`, { code: 'bad_patch', cause: error });
  };
}

/** Apply all hunks; when they do not fit, find the first hunk that does not and say which. */
function applyHunks(label: string, before: string, patch: StructuredPatch): string {
  const after = applyPatch(before, patch);
  if (after !== false) return after;
  let current = before;
  for (const [i, hunk] of patch.hunks.entries()) {
    const next = applyPatch(current, { ...patch, hunks: [hunk] });
    if (next === false) {
      const header = `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`;
      throw new ToolError(
        `Hunk ${i + 1} of ${patch.hunks.length} for ${label} (${header}) does not match the current content; nothing was written. read_file the lines around ${hunk.oldStart} and regenerate the patch.`,
        { code: 'no_match' },
      );
    }
    current = next;
  }
  throw new ToolError(`The hunks for ${label} do not apply in order; nothing was written.`, { code: 'no_match' });
}

/** Write every change; on a failure, put back what was already written. */
async function commit(ws: WorkspaceContext, changes: FileChange[]): Promise<void> {
  const done: FileChange[] = [];
  try {
    for (const change of changes) {
      const maxBytes = ws.limits.maxWriteBytes;
      if (change.kind === 'delete') await rm(change.target.absolute);
      else if (change.kind === 'modify')
        await writeTextFile(change.target, change.after, { mode: 'replace', maxBytes });
      else {
        await writeTextFile(change.target, change.after, { mode: 'create', maxBytes });
        if (change.kind === 'rename') await rm(change.source!.absolute);
      }
      done.push(change);
    }
  } catch (error) {
    for (const change of done.reverse()) await undo(change, ws.limits.maxWriteBytes).catch(() => undefined);
    throw new ToolError(
      `Writing the patch failed (${(error as Error).message}); the files already written were restored.`,
      {
        cause: error,
      },
    );
  }
}

async function undo(change: FileChange, maxBytes: number): Promise<void> {
  if (change.kind === 'create') await rm(change.target.absolute, { force: true });
  else if (change.kind === 'modify' || change.kind === 'delete') {
    await writeTextFile(change.target, change.before ?? '', { mode: 'replace', maxBytes });
  } else {
    await writeTextFile(change.source!, change.before ?? '', { mode: 'replace', maxBytes });
    await rm(change.target.absolute, { force: true });
  }
}
