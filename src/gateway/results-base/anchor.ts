/** What the result guards' prefilter looks for: the literals the rules' matches contain. */
import { passBytesOf } from '../../util/literal-scan.js';

/**
 * A check of a text at a position: a sticky expression (tried with `lastIndex` there), or
 * a function, for checks of a character or two that an expression makes slow.
 */
export type Gate = RegExp | ((text: string, at: number) => boolean);

/** Whether a code unit is one of `\w`'s characters. */
export function isWordCode(code: number): boolean {
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
   * What the SIMD pass looks for: alternatives of up to four character sets, one per
   * position, starting `fingerprintAt` characters into the literal; at every occurrence
   * the rules need, one of them must hold. By default four of the literal's characters
   * (as many as it has), from the rarest run of three.
   */
  fingerprints?: readonly (readonly string[])[];
  /**
   * Where the fingerprint starts in the literal. Without `fingerprints`, the literal's
   * four characters from there: given where a word is common although its letters are
   * not ("key" in "key-", "ret" in "secret"), as counted in ordinary text.
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
 * A fingerprint of the literal's last three characters and one of the characters in
 * `after`, which can follow it (as the SIMD pass sees them: see `passBytesOf`).
 *
 * @example
 * ```ts
 * fingerprintEndingWith('key', '=:'); // { fingerprints: [['k', 'e', 'y', '=:']], fingerprintAt: 0 }
 * ```
 */
export function fingerprintEndingWith(literal: string, after: string): Pick<Anchor, 'fingerprints' | 'fingerprintAt'> {
  const at = Math.max(0, literal.length - 3);
  return { fingerprints: [[...literal.slice(at), after]], fingerprintAt: at };
}
