/**
 * `str_replace`: replace one exact, unique occurrence of a text in a file.
 * Not unique → the error lists every occurrence with its line number; not found
 * → it shows the lines that come closest, so the model can fix its `oldText`
 * instead of guessing again.
 */
import { z } from 'zod';
import { ToolError } from '../../../src/errors.js';
import { defineTool } from '../../../src/tool/define.js';
import type { ToolDefinition } from '../../../src/tool/types.js';
import { editDistance } from '../../../src/util/edit-distance.js';
import { readTextFile, writeTextFile } from '../text-files.js';
import { TAGS, type WorkspaceContext } from './context.js';

const input = z.object({
  path: z.string().describe('File to edit, relative to the workspace root.'),
  oldText: z.string().min(1).describe('Exact text to replace, including whitespace; must occur exactly once.'),
  newText: z.string().describe('Replacement text.'),
});

const MAX_CANDIDATES = 5;

/**
 * Make the `str_replace` tool.
 *
 * @example
 * ```ts
 * registry.add(strReplaceTool(ws));
 * ```
 */
export function strReplaceTool(ws: WorkspaceContext): ToolDefinition {
  const { sandbox, limits } = ws;
  return defineTool({
    name: 'str_replace',
    title: 'Replace Text in File',
    description:
      'Edit a workspace file by replacing one exact occurrence of oldText with newText. oldText must match exactly once (whitespace included); otherwise the error shows the candidates with line numbers.',
    input,
    effect: 'destructive',
    world: 'closed',
    // Repeating can apply again when newText contains oldText.
    idempotent: false,
    tags: [TAGS.files, TAGS.write],
    category: 'files',
    handler: async ({ path, oldText, newText }) => {
      const target = await sandbox.resolve(path, { expect: 'file' });
      const text = await readTextFile(target, { maxBytes: limits.maxWriteBytes });
      const positions = occurrences(text, oldText);
      if (positions.length === 0) {
        throw new ToolError(`oldText was not found in ${target.relative}.${describeNearMisses(text, oldText)}`, {
          code: 'no_match',
        });
      }
      if (positions.length > 1) {
        const lines = positions
          .slice(0, 20)
          .map((p) => `  line ${lineOf(text, p)}: ${lineText(text, p)}`)
          .join('\n');
        throw new ToolError(
          `oldText occurs ${positions.length} times in ${target.relative}; include more surrounding lines so it matches exactly once.\n${lines}`,
          { code: 'ambiguous' },
        );
      }
      const at = positions[0]!;
      const updated = text.slice(0, at) + newText + text.slice(at + oldText.length);
      await writeTextFile(target, updated, { mode: 'replace', maxBytes: limits.maxWriteBytes });
      const line = lineOf(text, at);
      return `Replaced 1 occurrence in ${target.relative} at line ${line} (${countLines(oldText)} line(s) → ${countLines(newText)}).`;
    },
  });
}

function occurrences(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) out.push(i);
  return out;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function lineText(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const end = text.indexOf('\n', offset);
  return clip(text.slice(start, end === -1 ? undefined : end));
}

function countLines(text: string): number {
  return text.split('\n').length;
}

function clip(line: string): string {
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}

/**
 * The lines of the file closest to the first non-blank line of `oldText`: first
 * those equal up to whitespace (the usual cause: indentation), then the nearest
 * by edit distance.
 */
function describeNearMisses(text: string, oldText: string): string {
  const wanted = oldText.split('\n').find((l) => l.trim() !== '') ?? oldText;
  const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
  const target = squash(wanted);
  const lines = text.split('\n');
  const scored: Array<{ line: number; text: string; score: number }> = [];
  for (let i = 0; i < lines.length; i++) {
    const candidate = lines[i]!;
    if (candidate.trim() === '') continue;
    const squashed = squash(candidate);
    if (squashed === target) {
      scored.push({ line: i + 1, text: candidate, score: -1 });
      continue;
    }
    if (Math.abs(squashed.length - target.length) > Math.max(8, target.length / 2)) continue;
    const distance = editDistance(squashed.slice(0, 200), target.slice(0, 200));
    if (distance <= Math.max(3, Math.floor(target.length * 0.4)))
      scored.push({ line: i + 1, text: candidate, score: distance });
  }
  if (scored.length === 0) return ' No line comes close; read_file shows the current content.';
  scored.sort((a, b) => a.score - b.score || a.line - b.line);
  const exactUpToSpace = scored[0]!.score === -1;
  const shown = scored
    .slice(0, MAX_CANDIDATES)
    .map((c) => `  line ${c.line}: ${clip(c.text)}`)
    .join('\n');
  return exactUpToSpace
    ? ` These lines match the first line of oldText except for whitespace (check indentation, tabs and line endings):\n${shown}`
    : ` The closest lines are:\n${shown}`;
}
