/**
 * The server's own package folder: what a sandboxed server may read
 * although it lies in a hidden folder (an `npm install` in a project under HOME,
 * `~/.nvm`'s node). For each existing file named by the command or its arguments:
 * the outermost `node_modules` folder on its path (the package with its hoisted
 * dependencies), else the nearest folder with a package manifest, else, for a
 * program in a `bin` folder, the prefix above it. The caller keeps only folders
 * strictly inside a hidden one (never HOME itself).
 */
import { accessSync, constants, existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

const MANIFESTS = ['package.json', 'pyproject.toml', 'setup.py', 'Cargo.toml', 'go.mod'];

/**
 * The executable file `command` runs, found against `cwd` and PATH as a shell finds it
 * (links not followed), if there is one.
 *
 * @example
 * ```ts
 * findProgram('npx', process.cwd(), process.env.PATH ?? ''); // '/usr/bin/npx'
 * ```
 */
export function findProgram(command: string, cwd: string, pathVar: string): string | undefined {
  const candidates = command.includes('/')
    ? [path.resolve(cwd, command)]
    : pathVar
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, command));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {}
  }
  return undefined;
}

/** `command` resolved against `cwd` and PATH, as the real file, if it exists. */
function resolveProgram(command: string, cwd: string, pathVar: string): string | undefined {
  const found = findProgram(command, cwd, pathVar);
  return found === undefined ? undefined : realpathSync(found);
}

function folderOf(file: string): string {
  const parts = file.split(path.sep);
  const modules = parts.indexOf('node_modules');
  // The node_modules folder itself: the package and its hoisted dependencies, not the project around it.
  if (modules > 0) return parts.slice(0, modules + 1).join(path.sep);
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (MANIFESTS.some((name) => existsSync(path.join(dir, name)))) return dir;
  }
  const dir = path.dirname(file);
  return path.basename(dir) === 'bin' ? path.dirname(dir) : dir;
}

/**
 * The package folders of a stdio server command (absolute, real paths, without duplicates),
 * each with the file that led to it.
 *
 * @example
 * ```ts
 * packageFolders('node', ['/home/me/tools/node_modules/pkg/dist/index.js'], '/home/me', process.env.PATH ?? '');
 * // [{ folder: '/usr', … }, { folder: '/home/me/tools/node_modules', … }]
 * ```
 */
export function packageFolders(
  command: string,
  args: readonly string[],
  cwd: string,
  pathVar: string,
): Array<{ folder: string; file: string }> {
  const files: string[] = [];
  const program = resolveProgram(command, cwd, pathVar);
  if (program) files.push(program);
  for (const arg of args) {
    if (arg.startsWith('-')) continue;
    const full = path.resolve(cwd, arg);
    try {
      if (statSync(full).isFile()) files.push(realpathSync(full));
    } catch {}
  }
  const seen = new Set<string>();
  return files
    .map((file) => ({ folder: folderOf(file), file }))
    .filter(({ folder }) => !seen.has(folder) && seen.add(folder));
}
