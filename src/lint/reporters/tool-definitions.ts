/**
 * Where a tool is defined in a server's source, so a SARIF result can point code
 * scanning at the line a reviewer must change (the tool's name and its hints sit
 * together in every framework). The search is literal, never a pattern over the
 * text: the tool's name as a quoted string (`'read_file'`, `"read_file"`), or as the
 * name of a function (`def read_file(`, `function read_file(`), which is how Python's
 * and TypeScript's decorator styles name tools. Hand-written source wins over build
 * output (`dist/`, `build/`), and a line that also says "tool" or "name" wins over
 * one that does not. Each file is read once and searched in time linear in its size
 * for each name; files past a size cap and folders of dependencies are left out.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { glob } from 'tinyglobby';

/** A place in a file: 1-based line and column, as SARIF's `region` counts them. */
export interface SourceLocation {
  /** Absolute path. */
  file: string;
  line: number;
  column: number;
}

/** What a search may read. */
export interface DefinitionSearchOptions {
  /** Files larger than this are left out (default 1 MB: bundles, not source). */
  maxFileBytes?: number;
  /** At most this many files are read (default 5,000). */
  maxFiles?: number;
}

const SOURCE = '**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs,py,go,rs,java,kt,cs,rb,php}';
const IGNORE = [
  '**/node_modules/**',
  '**/.git/**',
  '**/.venv/**',
  '**/venv/**',
  '**/__pycache__/**',
  '**/vendor/**',
  '**/target/**',
  '**/*.d.ts',
  '**/*.min.js',
];
/** Folders that usually hold what a build wrote from the source next to them. */
const GENERATED = /(^|\/)(dist|build|out|lib|\.next|coverage)\//;

/** How good a match is: hand-written over generated, a line about tools over any line. */
const rank = (relative: string, line: string) => (GENERATED.test(relative) ? 0 : 2) + (/tool|name/i.test(line) ? 1 : 0);

/** The 1-based line and column of an offset, and the text of that line. */
function positionOf(text: string, offset: number): { line: number; column: number; text: string } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  const end = text.indexOf('\n', offset);
  return { line, column: offset - start + 1, text: text.slice(start, end === -1 ? text.length : end) };
}

/** The first place in a text where a name appears as a definition, if any. */
function firstDefinition(text: string, name: string): number | undefined {
  let best: number | undefined;
  for (const needle of [`'${name}'`, `"${name}"`, `\`${name}\``, `def ${name}(`, `function ${name}(`]) {
    const at = text.indexOf(needle);
    if (at !== -1 && (best === undefined || at < best)) best = at;
  }
  // Point at the name itself, past an opening quote or keyword.
  return best === undefined ? undefined : best + text.slice(best).indexOf(name);
}

/**
 * Find where each named tool is defined under a folder.
 *
 * @example
 * ```ts
 * const places = await findToolDefinitions(['read_file'], '/repo');
 * places.get('read_file'); // { file: '/repo/src/tools/read-file.ts', line: 12, column: 9 }
 * ```
 */
export async function findToolDefinitions(
  names: readonly string[],
  root: string,
  { maxFileBytes = 1_000_000, maxFiles = 5_000 }: DefinitionSearchOptions = {},
): Promise<Map<string, SourceLocation>> {
  const found = new Map<string, SourceLocation & { rank: number }>();
  const wanted = [...new Set(names)].filter((name) => name.length > 0);
  if (wanted.length === 0) return new Map();
  const files = (await glob(SOURCE, { cwd: root, ignore: IGNORE, dot: false, followSymbolicLinks: false }))
    .sort()
    .slice(0, maxFiles);
  for (const relative of files) {
    const file = path.join(root, relative);
    const size = await stat(file).then(
      (s) => s.size,
      () => Number.POSITIVE_INFINITY,
    );
    if (size > maxFileBytes) continue;
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const name of wanted) {
      const at = firstDefinition(text, name);
      if (at === undefined) continue;
      const place = positionOf(text, at);
      const score = rank(relative.split(path.sep).join('/'), place.text);
      const held = found.get(name);
      if (!held || score > held.rank) found.set(name, { file, line: place.line, column: place.column, rank: score });
    }
  }
  return new Map([...found].map(([name, { rank: _rank, ...location }]) => [name, location]));
}
