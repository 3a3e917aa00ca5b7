/**
 * Which property names hold paths, folders and URLs (by their last word, in any
 * case style), and the path an observed call gets for one: inside the throwaway
 * workdir, an existing file, a new one or a folder.
 */
import { splitWords } from '../tool/title.js';

const PATH_WORDS = /^(path|file|filename|dir|directory|folder|source|destination|dest|target)s?$/;
const FOLDER_WORDS = /^(dir|directory|folder)s?$/;
const URL_WORDS = /^(url|uri|href|link)s?$/;
/** Optional properties filled even without `optional`: only names that cannot be anything but a path (`target` may be an element). */
const OPTIONAL_PATH_WORDS = /^(path|file|filename|dir|directory|folder)s?$/;

/** The last word of a property name, whatever its case style (`fileAbsolutePath`, `source_dir`, `file-name`). */
function lastWords(key: string): string[] {
  return splitWords(key).map((w) => w.toLowerCase());
}

/** A name that holds a path: its last word says so (`fileAbsolutePath`, `targetDir`), or it ends in "file name". */
export function isPathish(key: string): boolean {
  const words = lastWords(key);
  const last = words.at(-1) ?? '';
  return PATH_WORDS.test(last) || (last === 'name' && words.at(-2) === 'file');
}

/** An optional property worth filling to keep a call's files inside the workdir (`filename`, `outputPath`). */
export function isSurelyPath(key: string): boolean {
  const words = lastWords(key);
  const last = words.at(-1) ?? '';
  return OPTIONAL_PATH_WORDS.test(last) || (last === 'name' && words.at(-2) === 'file');
}

function isFolderish(key: string): boolean {
  return FOLDER_WORDS.test(lastWords(key).at(-1) ?? '');
}

/** A name that holds a URL (`url`, `pageUrl`, `href`): filled with a file: URL inside the workdir, never a placeholder. */
export function isUrlish(key: string): boolean {
  return URL_WORDS.test(lastWords(key).at(-1) ?? '');
}

/**
 * How path-like strings point into the workdir: at a file that exists (so
 * readers have something to read), at a new file (so writers create), or at the
 * workdir itself (so listers list). observe() tries them in that order until a
 * call succeeds.
 */
export type PathStyle = 'existing' | 'new' | 'folder';

export interface Paths {
  style: PathStyle;
  workdir: string;
  existing: string | undefined;
  optional: boolean;
}

/** The path a path-like property gets in the current style; `folder`: the property names a folder whatever its name (its default does). */
export function pathFor(key: string, paths: Paths, next: () => number, folder = false): string {
  const fresh = `${paths.workdir}/observe-${Math.floor(next() * 1000)}`;
  const folderish = folder || isFolderish(key);
  if (paths.style === 'folder') return paths.workdir;
  if (paths.style === 'existing') return folderish ? paths.workdir : (paths.existing ?? `${fresh}.txt`);
  return folderish ? fresh : `${fresh}.txt`;
}
