/** `glob`: find paths by pattern inside the workspace (tinyglobby; symbolic links are listed, never followed). */
import { glob } from 'tinyglobby';
import { z } from 'zod';
import { defineTool } from '../../../src/tool/define.js';
import type { ToolDefinition } from '../../../src/tool/types.js';
import { TAGS, type WorkspaceContext } from './context.js';
import { checkGlobPattern, DEFAULT_IGNORES } from './glob-pattern.js';

const input = z.object({
  pattern: z.string().describe('Glob pattern, e.g. "**/*.ts" or "src/*.{js,json}".'),
  path: z
    .string()
    .default('.')
    .describe('Directory to search from, relative to the workspace root. Default: the root.'),
  includeDirectories: z.boolean().default(false).describe('Also match directories. Default: files only.'),
});

/**
 * Make the `glob` tool.
 *
 * @example
 * ```ts
 * registry.add(globTool(ws));
 * ```
 */
export function globTool(ws: WorkspaceContext): ToolDefinition {
  const { sandbox, limits } = ws;
  return defineTool({
    name: 'glob',
    title: 'Find Files by Pattern',
    description: `Find files in the workspace whose paths match a glob pattern (sorted; at most ${limits.maxEntries} results; .git and node_modules skipped unless the pattern names them).`,
    input,
    effect: 'read',
    world: 'closed',
    tags: [TAGS.files, TAGS.search, TAGS.read],
    category: 'files',
    handler: async ({ pattern, path, includeDirectories }, ctx) => {
      checkGlobPattern(pattern, 'pattern');
      const base = await sandbox.resolve(path, { expect: 'directory' });
      const mentionsIgnored = /(^|\/)(\.git|node_modules)(\/|$)/.test(pattern);
      const found = await glob(pattern, {
        cwd: base.absolute,
        onlyFiles: !includeDirectories,
        followSymbolicLinks: false,
        dot: true,
        expandDirectories: false,
        ignore: mentionsIgnored ? [] : [...DEFAULT_IGNORES],
        signal: ctx.signal,
      });
      found.sort();
      const prefix = base.relative === '.' ? '' : `${base.relative}/`;
      const paths = found.slice(0, limits.maxEntries).map((p) => prefix + p);
      const lines = paths.length === 0 ? [`No paths match ${pattern} under ${base.relative}.`] : [...paths];
      if (found.length > paths.length) {
        lines.push(`[${found.length - paths.length} more matches not shown; narrow the pattern]`);
      }
      return {
        content: [{ type: 'text', text: lines.join('\n') }],
        structuredContent: { paths, total: found.length, truncated: found.length > paths.length },
      };
    },
  });
}
