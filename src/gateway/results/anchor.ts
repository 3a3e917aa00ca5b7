/** What the result guards' prefilter looks for: the literals the rules' matches contain. */
import { passBytesOf } from '../../util/literal-scan.js';

/**
 * A check of a text at a position: a sticky expression (tried with `lastIndex` there), or
 * a function, for checks of a character or two that an expression makes slow.
 */
export type Gate = RegExp | ((text: string, at: number) => boolean);

/** Whether a code unit is one of `\w`'s characters. */
function isWordCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/** No word character before `at` (a pattern's `\b` before a word). */
export const wordStart: Gate = (text, at) => !isWordCode(text.charCodeAt(at - 1));

/** No word character at `at` (a pattern's `\b` after a word). */
export const wordEnd: Gate = (text, at) => !isWordCode(text.charCodeAt(at));

// Every code unit `\s` matches.
const SPACE_CODES = new Set([...Array(0x10000).keys()].filter((code) => /\s/.test(String.fromCharCode(code))));

/** Whitespace (`\s`: Unicode's spaces, line ends and U+FEFF) as the SIMD pass sees it, for fingerprints. */
export const SPACE = passBytesOf(/\s/);

/** A character's fingerprint set: itself, or for `caseless` a letter in both cases. */
export function caseSet(ch: string, caseless: boolean): string {
  return caseless && ch.toUpperCase() !== ch ? ch + ch.toUpperCase() : ch;
}

/** Whether a code unit is one of `\s`'s characters. */
export function isSpace(code: number): boolean {
  return code <= 32 ? code === 32 || (code >= 9 && code <= 13) : code >= 0xa0 && SPACE_CODES.has(code);
}

/** A whitespace character at `at` (a pattern's `\s` after a word). */
export const spaceAt: Gate = (text, at) => isSpace(text.charCodeAt(at));

/** Whitespace just before `at`, then what `lookbehind` (a sticky lookbehind) wants there. */
export function spaceBefore(lookbehind: RegExp): Gate {
  return (text, at) => {
    if (!isSpace(text.charCodeAt(at - 1))) return false;
    lookbehind.lastIndex = at;
    return lookbehind.test(text);
  };
}

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
  /**
   * Where the fingerprint starts in the literal. Without `fingerprints`, the literal's three
   * characters from there: given where a word is common although its letters are not
   * ("key" in "key-", "ret" in "secret"), as counted in ordinary text.
   */
  fingerprintAt?: number;
  /** Characters a match can start before the literal (default 64). */
  before?: number;
  /** Characters a match can end after the literal, before the span stretches to the next stop (default 64). */
  after?: number;
  /** Where a match of these rules must end instead: the first occurrence of this after the literal. */
  until?: string;
  /** What must follow the literal at once in the text (a sticky expression tried at its end, or a test of that position), else no match holds it. */
  followedBy?: Gate;
  /** What must come just before the literal in the text (a sticky, zero-width lookbehind or a test, at its start). */
  precededBy?: Gate;
}

/**
 * The same anchors, each with every field (in one order, absent ones undefined): the
 * prefilter reads them thousands of times per megabyte, and V8 reads a field of objects of
 * one shape several times faster than of a dozen.
 *
 * @example
 * ```ts
 * export const MY_ANCHORS = sameShape([{ literal: 'ghp_', rules: ['github'] }]);
 * ```
 */
export function sameShape(anchors: readonly Anchor[]): readonly Anchor[] {
  return anchors.map((a) => ({
    literal: a.literal,
    rules: a.rules,
    search: a.search,
    fingerprints: a.fingerprints,
    fingerprintAt: a.fingerprintAt,
    before: a.before,
    after: a.after,
    until: a.until,
    followedBy: a.followedBy,
    precededBy: a.precededBy,
  }));
}

/**
 * A fingerprint that also holds a character next to the literal: `after`, one of the
 * characters that can follow it (with the literal's last three), or `before`, one that
 * can precede it (with its first three); sets as the SIMD pass sees them (see
 * `passBytesOf`). The literal's letters are in either case when `caseless`. `before` is
 * only for an anchor whose gate needs a character before the literal: at the very start
 * of a text there is none, and the pass reports nothing there.
 */
export function fingerprintWith(
  literal: string,
  next: { before?: string; after?: string },
  caseless = false,
): Pick<Anchor, 'fingerprints' | 'fingerprintAt'> {
  const set = (ch: string) => caseSet(ch, caseless);
  if (next.after !== undefined) {
    const at = Math.max(0, literal.length - 3);
    return { fingerprints: [[...[...literal.slice(at)].map(set), next.after]], fingerprintAt: at };
  }
  return { fingerprints: [[next.before ?? '', ...[...literal.slice(0, 3)].map(set)]], fingerprintAt: -1 };
}
