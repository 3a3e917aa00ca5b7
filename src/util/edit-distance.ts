/**
 * Levenshtein distance, used to suggest what the caller probably meant: the
 * CLI's "did you mean" for unknown tools and the gateway config's for unknown keys.
 */

/**
 * The number of single-character insertions, deletions and substitutions that turn `a` into `b`.
 *
 * @example
 * ```ts
 * editDistance('read_flie', 'read_file'); // 2
 * ```
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  let current = new Array<number>(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

/**
 * The candidates closest to `wanted`, nearest first, within a distance that
 * grows with the length of the word (a third of it, at least 2).
 *
 * @example
 * ```ts
 * closestNames('read_flie', ['read_file', 'write_file', 'glob']); // ['read_file']
 * ```
 */
export function closestNames(wanted: string, candidates: readonly string[], max = 3): string[] {
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  return (
    candidates
      // A length apart by more than the limit is too far already: a long key costs no matrix.
      .filter((name) => Math.abs(name.length - wanted.length) <= limit)
      .map((name) => ({ name, distance: editDistance(wanted.toLowerCase(), name.toLowerCase()) }))
      .filter((c) => c.distance <= limit)
      .sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : 1))
      .slice(0, max)
      .map((c) => c.name)
  );
}
