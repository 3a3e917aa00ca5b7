/**
 * What a file records for the program that keeps it, apart from that program's
 * own cache inside it: two versions of a file with the same meaning differ only
 * in bookkeeping (a git index whose stat data `git status` refreshed). Formats
 * are recognised by their content, never by the file's name, and a file no
 * reader vouches for has no meaning here: every byte of it counts.
 */
import { createHash } from 'node:crypto';
import { gitIndexEntries } from './git-index.js';

/**
 * The Cache Directory Tagging Specification's signature: a `CACHEDIR.TAG` file that starts
 * with it marks its folder as a cache the program can rebuild (cargo's `target/`, ccache, …).
 */
const CACHE_TAG_SIGNATURE = 'Signature: 8a477f597d28d172789f06886806bc55';

/** The meaning of a file that tags its folder as a cache. */
export const CACHE_TAG = 'cache-directory-tag';

/**
 * A digest of what the file records, prefixed by its format, or `undefined`
 * when no reader recognises the content.
 *
 * @example
 * ```ts
 * fileMeaning(readFileSync('.git/index')); // 'git-index:5b1c…'
 * fileMeaning(Buffer.from('hello')); // undefined
 * ```
 */
export function fileMeaning(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, CACHE_TAG_SIGNATURE.length).toString('latin1') === CACHE_TAG_SIGNATURE) return CACHE_TAG;
  const entries = gitIndexEntries(bytes);
  if (entries) return `git-index:${createHash('sha1').update(entries.join('\n')).digest('hex')}`;
  return undefined;
}
