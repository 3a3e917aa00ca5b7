/**
 * `grep_search`: a regular expression over the text files of the workspace,
 * with include/exclude globs and a result cap. Binary and oversized files are
 * skipped; the search stops at its time budget and says so.
 *
 * JavaScript regular expressions can backtrack catastrophically; lines longer
 * than {@link MAX_LINE_CHARS} are not matched and the budget is checked between
 * files, which bounds the damage of a bad pattern on ordinary source files.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'tinyglobby';
import { z } from 'zod';
import { ToolError } from '../../../src/errors.js';
import { defineTool } from '../../../src/tool/define.js';
import type { ToolDefinition } from '../../../src/tool/types.js';
import { O_NOFOLLOW } from '../sandbox.js';
import { TAGS, type WorkspaceContext } from './context.js';
import { checkGlobPattern, DEFAULT_IGNORES } from './glob-pattern.js';

/** Lines longer than this are not matched (minified bundles, data blobs). */
export const MAX_LINE_CHARS = 10_000;
const SHOWN_LINE_CHARS = 300;

const input = z.object({
  pattern: z.string().describe('JavaScript regular expression, e.g. "function\\\\s+\\\\w+" or "TODO".'),
  path: z
    .string()
    .default('.')
    .describe('File or directory to search, relative to the workspace root. Default: the root.'),
  include: z.array(z.string()).optional().describe('Only files matching one of these globs, e.g. ["**/*.ts"].'),
  exclude: z.array(z.string()).optional().describe('Skip files matching these globs, e.g. ["**/*.test.ts"].'),
  ignoreCase: z.boolean().default(false).describe('Match case-insensitively. Default: false.'),
  maxResults: z.number().int().min(1).optional().describe('Stop after this many matching lines.'),
});

/** One matching line. */
export interface GrepMatch {
  path: string;
  line: number;
  text: string;
}

/**
 * Make the `grep_search` tool.
 *
 * @example
 * ```ts
 * registry.add(grepSearchTool(ws));
 * ```
 */
export function grepSearchTool(ws: WorkspaceContext): ToolDefinition {
  const { sandbox, limits } = ws;
  return defineTool({
    name: 'grep_search',
    title: 'Search File Contents',
    description: `Search the text files of the workspace for lines matching a regular expression; include/exclude globs narrow the files. Returns path:line: text, at most ${limits.maxGrepResults} lines.`,
    input,
    effect: 'read',
    world: 'closed',
    tags: [TAGS.files, TAGS.search, TAGS.read],
    category: 'files',
    timeoutMs: limits.grepTimeMs + 5000,
    handler: async (args, ctx) => {
      let regex: RegExp;
      try {
        regex = new RegExp(args.pattern, args.ignoreCase ? 'i' : '');
      } catch (error) {
        throw new ToolError(`The pattern is not a valid regular expression: ${(error as Error).message}`);
      }
      for (const p of args.include ?? []) checkGlobPattern(p, 'include');
      for (const p of args.exclude ?? []) checkGlobPattern(p, 'exclude');
      const cap = Math.min(args.maxResults ?? limits.maxGrepResults, limits.maxGrepResults);
      const base = await sandbox.resolve(args.path, { expect: 'any' });
      if (!base.stats) throw new ToolError(`Nothing exists at ${base.relative}.`, { code: 'not_found' });

      let files: string[];
      let dir: string;
      if (base.stats.isFile()) {
        dir = path.dirname(base.absolute);
        files = [path.basename(base.absolute)];
      } else {
        dir = base.absolute;
        files = await glob(args.include?.length ? args.include : ['**/*'], {
          cwd: dir,
          onlyFiles: true,
          followSymbolicLinks: false,
          dot: true,
          expandDirectories: false,
          ignore: [...DEFAULT_IGNORES, ...(args.exclude ?? [])],
          signal: ctx.signal,
        });
        files.sort();
      }

      const deadline = Date.now() + limits.grepTimeMs;
      const matches: GrepMatch[] = [];
      let skipped = 0;
      let stoppedBy: 'results' | 'time' | undefined;
      for (const file of files) {
        if (matches.length >= cap) {
          stoppedBy = 'results';
          break;
        }
        if (Date.now() > deadline || ctx.signal.aborted) {
          stoppedBy = 'time';
          break;
        }
        const absolute = path.join(dir, file);
        const text = await readSearchable(absolute, limits.maxGrepFileBytes);
        if (text === undefined) {
          skipped++;
          continue;
        }
        const shown = sandbox.display(absolute);
        const lines = text.split(/\r?\n/);
        for (let i = 0; i < lines.length && matches.length < cap; i++) {
          const line = lines[i]!;
          if (line.length > MAX_LINE_CHARS) continue;
          if (regex.test(line)) matches.push({ path: shown, line: i + 1, text: line });
        }
        if (matches.length >= cap && file !== files[files.length - 1]) stoppedBy = 'results';
      }

      const out = matches.map(
        (m) =>
          `${m.path}:${m.line}: ${m.text.length > SHOWN_LINE_CHARS ? `${m.text.slice(0, SHOWN_LINE_CHARS)}…` : m.text}`,
      );
      if (matches.length === 0) out.push(`No lines match /${args.pattern}/ in ${files.length} files.`);
      if (stoppedBy === 'results') out.push(`[stopped at ${cap} results; narrow the pattern or the include globs]`);
      if (stoppedBy === 'time') out.push(`[stopped after ${limits.grepTimeMs} ms; narrow the search]`);
      return {
        content: [{ type: 'text', text: out.join('\n') }],
        structuredContent: { matches, filesSearched: files.length - skipped, truncated: stoppedBy !== undefined },
      };
    },
  });
}

/** The file's text, or undefined when it is binary, too large, or not a regular file any more. */
async function readSearchable(absolute: string, maxBytes: number): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(absolute, constants.O_RDONLY | O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > maxBytes) return undefined;
    const bytes = await handle.readFile();
    if (bytes.subarray(0, 8192).includes(0)) return undefined;
    return bytes.toString('utf8');
  } finally {
    await handle.close();
  }
}
