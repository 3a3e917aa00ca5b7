/**
 * The folder Claude Code files a project's local settings under in ~/.claude.json
 * (`projects["<folder>"]`). Checked against Claude Code 2.1 (`claude mcp add` run in
 * each case): inside a git repository it is the repository's top folder, not the
 * folder it runs in; inside a linked worktree (`git worktree add`) it is the main
 * repository's folder, so every worktree shares one entry; elsewhere it is the folder
 * itself. Symbolic links are resolved first, as the operating system reports the
 * working folder.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';

/** The nearest folder from `start` upwards that holds `.git` (a folder, or a worktree's file). */
function gitTop(start: string): string | undefined {
  let dir = start;
  // The filesystem root itself is not taken as a repository, as Claude Code does not.
  while (path.dirname(dir) !== dir) {
    try {
      const stat = statSync(path.join(dir, '.git'));
      if (stat.isDirectory() || stat.isFile()) return dir;
    } catch {
      // No .git here: look one folder up.
    }
    dir = path.dirname(dir);
  }
  return undefined;
}

const read = (file: string) => readFileSync(file, 'utf8').trim();

/**
 * A linked worktree's main repository folder: its `.git` file names the worktree's git
 * folder (`<repo>/.git/worktrees/<name>`), whose `commondir` leads to the shared one and
 * whose `gitdir` file must point back here. Anything else keeps `top` as it is.
 */
function mainRepository(top: string): string {
  try {
    const pointer = read(path.join(top, '.git'));
    if (!pointer.startsWith('gitdir:')) return top;
    const own = path.resolve(top, pointer.slice('gitdir:'.length).trim());
    const common = path.resolve(own, read(path.join(own, 'commondir')));
    if (path.dirname(own) !== path.join(common, 'worktrees')) return top;
    if (realpathSync(read(path.join(own, 'gitdir'))) !== path.join(realpathSync(top), '.git')) return top;
    return path.basename(common) === '.git' ? path.dirname(common) : common;
  } catch {
    return top;
  }
}

/**
 * The key of a project's entry in ~/.claude.json for a session started in `cwd`.
 *
 * @example
 * ```ts
 * claudeProjectFolder('/home/me/repo/src'); // '/home/me/repo' when /home/me/repo/.git exists
 * ```
 */
export function claudeProjectFolder(cwd: string): string {
  let here = path.resolve(cwd);
  try {
    here = realpathSync(here);
  } catch {
    // A folder that does not exist (yet) is known by its own name.
  }
  const top = gitTop(here);
  return top === undefined ? here : mainRepository(top);
}
