/** What the result guards' prefilter looks for: the literals the rules' matches contain. */

/** A literal every match of some rules contains, and how far such a match reaches around it. */
export interface Anchor {
  literal: string;
  /** Rules that can only match where this literal is. */
  rules: readonly string[];
  /** What to look for to find the literal (a part of it starting with a rare character); chosen when absent. */
  search?: string;
  /**
   * What the SIMD pass looks for: alternatives of up to three character sets, one per
   * position, starting `fingerprintAt` characters into the literal; at every occurrence
   * the rules need, one of them must hold. By default three of the literal's characters,
   * the rarest run.
   */
  fingerprints?: readonly (readonly string[])[];
  fingerprintAt?: number;
  /** Characters a match can start before the literal (default 64). */
  before?: number;
  /** Characters a match can end after the literal, before the span stretches to the next stop (default 64). */
  after?: number;
  /** Where a match of these rules must end instead: the first occurrence of this after the literal. */
  until?: string;
  /** What must follow the literal at once in the text (a sticky expression), else no match holds it. */
  followedBy?: RegExp;
  /** What must come just before the literal in the text (a sticky, zero-width lookbehind tried at its start). */
  precededBy?: RegExp;
}

/**
 * A fingerprint that also holds a character next to the literal: `after`, one of the
 * characters that can follow it, or `before`, one that can precede it (sets as the SIMD
 * pass sees them: see `passBytesOf`). The literal's letters are in either case when
 * `caseless`.
 */
export function fingerprintWith(
  literal: string,
  next: { before?: string; after?: string },
  caseless = false,
): Pick<Anchor, 'fingerprints' | 'fingerprintAt'> {
  const set = (ch: string) => (caseless && ch.toUpperCase() !== ch ? ch + ch.toUpperCase() : ch);
  if (next.after !== undefined) {
    const at = Math.max(0, literal.length - 2);
    return { fingerprints: [[...[...literal.slice(at)].map(set), next.after]], fingerprintAt: at };
  }
  return { fingerprints: [[next.before ?? '', ...[...literal.slice(0, 2)].map(set)]], fingerprintAt: -1 };
}
