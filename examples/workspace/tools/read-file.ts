/**
 * `read_file`: a UTF-8 text file, whole or a line range. Large files need a
 * range (streamed, so a 1 GiB log can still be read from the top); binary files
 * are refused with a pointer to `file_info`.
 */
import type { FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { ToolError } from '../../../src/errors.js';
import { defineTool } from '../../../src/tool/define.js';
import type { CallToolResult, ToolDefinition } from '../../../src/tool/types.js';
import type { SandboxPath } from '../sandbox.js';
import { formatBytes, openRegularFile, readTextFile } from '../text-files.js';
import { TAGS, type WorkspaceContext } from './context.js';

const input = z.object({
  path: z.string().describe('File path relative to the workspace root.'),
  startLine: z.number().int().min(1).optional().describe('First line to return (1-based). Default: 1.'),
  endLine: z.number().int().min(1).optional().describe('Last line to return (inclusive). Default: the last line.'),
});

/**
 * Make the `read_file` tool.
 *
 * @example
 * ```ts
 * const tool = readFileTool({ sandbox: new Sandbox(root), limits: resolveLimits({}), options: { root } });
 * ```
 */
export function readFileTool(ws: WorkspaceContext): ToolDefinition {
  const { sandbox, limits } = ws;
  return defineTool({
    name: 'read_file',
    title: 'Read File',
    description: `Read a UTF-8 text file in the workspace. Pass startLine/endLine (1-based, inclusive) for part of it; files over ${formatBytes(limits.maxReadBytes)} must be read by line range. Binary files are refused.`,
    input,
    effect: 'read',
    world: 'closed',
    tags: [TAGS.files, TAGS.read],
    category: 'files',
    handler: async ({ path, startLine, endLine }): Promise<CallToolResult> => {
      if (startLine !== undefined && endLine !== undefined && endLine < startLine) {
        throw new ToolError(`endLine (${endLine}) is before startLine (${startLine}).`);
      }
      // The type checks happen on the open descriptor (see Sandbox checkOnOpen).
      const target = await sandbox.resolve(path, { checkOnOpen: true });
      const ranged = startLine !== undefined || endLine !== undefined;
      if (!ranged) {
        const text = await readTextFile(target, {
          maxBytes: limits.maxReadBytes,
          hint: 'pass startLine and endLine to read part of it.',
        });
        return { content: [{ type: 'text', text }] };
      }
      const first = startLine ?? 1;
      const { handle, size } = await openRegularFile(target);
      if (size > limits.maxReadBytes) return streamRange(target, handle, first, endLine, limits.maxReadBytes);
      await handle.close();
      const text = await readTextFile(target, { maxBytes: limits.maxReadBytes });
      const lines = splitLines(text);
      return rangeResult(target.relative, lines.slice(first - 1, endLine ?? lines.length), first, lines.length);
    },
  });
}

function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function rangeResult(
  relative: string,
  lines: string[],
  first: number,
  total: number | undefined,
  note?: string,
): CallToolResult {
  if (total !== undefined && first > Math.max(total, 1)) {
    throw new ToolError(`${relative} has ${total} line${total === 1 ? '' : 's'}; startLine ${first} is past the end.`);
  }
  const last = first + lines.length - 1;
  const of = total === undefined ? '' : ` of ${total}`;
  return {
    content: [
      { type: 'text', text: lines.join('\n') },
      { type: 'text', text: `[${relative}: lines ${first}-${last}${of}${note ? `; ${note}` : ''}]` },
    ],
  };
}

/** Read a range from a file too large to load whole: stop at `endLine` or when the output reaches the cap. */
async function streamRange(
  target: SandboxPath,
  handle: FileHandle,
  first: number,
  endLine: number | undefined,
  maxBytes: number,
): Promise<CallToolResult> {
  try {
    const sniff = Buffer.alloc(8192);
    const { bytesRead } = await handle.read(sniff, 0, sniff.length, 0);
    if (sniff.subarray(0, bytesRead).includes(0)) {
      throw new ToolError(
        `${target.relative} looks like a binary file (it contains NUL bytes); read_file works on UTF-8 text only.`,
        { code: 'binary' },
      );
    }
    const lines: string[] = [];
    let bytes = 0;
    let lineNo = 0;
    let cut = false;
    const reader = createInterface({ input: handle.createReadStream({ start: 0, autoClose: false }), crlfDelay: 1 });
    for await (const line of reader) {
      lineNo++;
      if (lineNo < first) continue;
      if (endLine !== undefined && lineNo > endLine) break;
      bytes += Buffer.byteLength(line) + 1;
      if (bytes > maxBytes) {
        cut = true;
        break;
      }
      lines.push(line);
    }
    reader.close();
    if (lines.length === 0 && lineNo < first) {
      throw new ToolError(`${target.relative} has ${lineNo} lines; startLine ${first} is past the end.`);
    }
    const note = cut ? `stopped at the ${formatBytes(maxBytes)} output limit; ask for a smaller range` : undefined;
    return rangeResult(target.relative, lines, first, undefined, note);
  } finally {
    await handle.close();
  }
}
