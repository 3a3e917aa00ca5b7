/**
 * The layers in ARCHITECTURE.md hold: no import cycle among source files (type-only
 * imports count: a cycle of types still hides which file is the lower one), and every
 * import goes to a folder on a lower line of the layer list, never to a peer or above.
 * Package entry points (the files package.json exports) gather the surface from any
 * layer; no source file imports them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.join(import.meta.dirname, '../..');
const src = path.join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

/** Relative imports of a file, resolved to the .ts files they name (type-only and dynamic ones too). */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const out: string[] = [];
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), fileName).replace(/\.js$/, '.ts');
    if (existsSync(target)) out.push(target);
    else if (existsSync(path.join(target.replace(/\.ts$/, ''), 'index.ts')))
      out.push(path.join(target.replace(/\.ts$/, ''), 'index.ts'));
  }
  return out;
}

/** The layer list: the fenced `layers` block of ARCHITECTURE.md, lowest first. */
function layers(): Map<string, number> {
  const text = readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8');
  const block = /```layers\n([\s\S]*?)```/.exec(text);
  if (!block) throw new Error('ARCHITECTURE.md has no ```layers block');
  const rows = block[1]!
    .trim()
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim().split(/\s+/).filter(Boolean))
    .filter((row) => row.length > 0)
    .reverse();
  return new Map(rows.flatMap((folders, level) => folders.map((folder) => [folder, level] as const)));
}

function entryPoints(): Set<string> {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { import: string }>;
    bin: Record<string, string>;
  };
  const built = [
    ...Object.values(pkg.exports).flatMap((target) => (typeof target === 'string' ? [] : [target.import])),
    ...Object.values(pkg.bin),
  ];
  return new Set(
    built
      .filter((file) => file.startsWith('./dist/src/'))
      .map((file) => path.join(root, file.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'))),
  );
}

/**
 * The layer a file belongs to: the longest folder path the layer list names that holds it
 * (`lint/reporters` before `lint`), else its top folder under src/, or its own name for a
 * file at the top (errors.ts).
 */
function folderOf(file: string, level?: ReadonlyMap<string, number>): string {
  const parts = path.relative(src, file).split(path.sep);
  for (let n = parts.length - 1; n > 1 && level; n--) {
    const folder = parts.slice(0, n).join('/');
    if (level.has(folder)) return folder;
  }
  return parts.length === 1 ? parts[0]!.replace(/\.ts$/, '') : parts[0]!;
}

type Graph = ReadonlyMap<string, readonly string[]>;

/** Every import cycle met in a depth-first walk, as `a → b → a`. */
function findCycles(graph: Graph): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') {
        const loop = stack.slice(stack.indexOf(next)).map((f) => path.relative(src, f));
        cycles.push(`${loop.join(' → ')} → ${path.relative(src, next)}`);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

/** Imports that go to a peer or a higher layer, or into an entry point. */
function layerViolations(graph: Graph, level: ReadonlyMap<string, number>, entries: ReadonlySet<string>): string[] {
  const wrong: string[] = [];
  for (const [file, targets] of graph) {
    const from = folderOf(file, level);
    for (const target of targets) {
      const name = `${path.relative(root, file)} → ${path.relative(root, target)}`;
      if (entries.has(target) && target !== file) {
        wrong.push(`${name} (an entry point: import the module it re-exports)`);
        continue;
      }
      if (entries.has(file) || !target.startsWith(src + path.sep)) continue;
      const to = folderOf(target, level);
      if (to === from) continue;
      if ((level.get(to) ?? Infinity) >= (level.get(from) ?? -Infinity))
        wrong.push(`${name} (${from} may not import ${to})`);
    }
  }
  return wrong;
}

const files = sourceFiles(src);
const graph: Graph = new Map(files.map((file) => [file, importsOf(file)] as const));

describe('import layers', () => {
  it('has no import cycle among source files, type-only imports included', () => {
    expect(findCycles(graph)).toEqual([]);
  });

  it('imports only from lower layers, as ARCHITECTURE.md lists them', () => {
    const level = layers();
    const entries = entryPoints();
    const unlisted = [
      ...new Set(files.filter((file) => !entries.has(file)).map((file) => folderOf(file, level))),
    ].filter((folder) => !level.has(folder));
    expect(unlisted, 'folders missing from the layer list in ARCHITECTURE.md').toEqual([]);
    expect(layerViolations(graph, level, entries)).toEqual([]);
  });

  it('reports a cycle, an import up a layer, an import of a peer and an import of an entry point', () => {
    const at = (file: string) => path.join(src, file);
    const level = new Map([
      ['tool', 0],
      ['engine', 1],
      ['lint', 1],
      ['host', 2],
    ]);
    const made: Graph = new Map([
      [at('tool/a.ts'), [at('engine/b.ts')]],
      [at('engine/b.ts'), [at('tool/a.ts'), at('lint/c.ts')]],
      [at('lint/c.ts'), [at('host/index.ts')]],
      [at('host/index.ts'), []],
    ]);
    expect(findCycles(made)).toEqual(['tool/a.ts → engine/b.ts → tool/a.ts']);
    expect(layerViolations(made, level, new Set([at('host/index.ts')]))).toEqual([
      'src/tool/a.ts → src/engine/b.ts (tool may not import engine)',
      'src/engine/b.ts → src/lint/c.ts (engine may not import lint)',
      'src/lint/c.ts → src/host/index.ts (an entry point: import the module it re-exports)',
    ]);
  });
});
