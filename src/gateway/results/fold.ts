/**
 * The normalised view of a text: what it says once the dressing a secret or an order can
 * hide in is taken off. JSON escapes (`\u0067`, `\/`, `\"`) decoded, invisible characters
 * (zero-width, soft hyphens, word joiners) dropped, Unicode tag characters read as the
 * ASCII they spell, NFKC applied (fullwidth `ｉｇｎｏｒｅ` is `ignore`), look-alike letters
 * of other scripts (Cyrillic `о`, Greek `Ο`) read as the Latin ones, and a line break
 * between two pieces of one token dropped. Every character of the view knows where it came
 * from in the text, so a finding in the view is redacted in the text.
 *
 * One pass, linear in the text: each character is read once and mapped by a table.
 */
import type { BudgetCheck } from './budget.js';

/** A folded text and, for each of its characters (and its end), the offset in the text it came from. */
export interface View {
  text: string;
  map: Int32Array;
}

/** Which foldings to make. */
export interface FoldOptions {
  /** Decode JSON escapes (`\uXXXX`, `\/`, `\"`, `\\`). */
  escapes?: boolean;
  /** Drop invisible characters, read tag characters, NFKC and the look-alike fold. */
  unicode?: boolean;
  /** Drop a line break (and the indentation after it) between two token characters. */
  wraps?: boolean;
  /** Make every whitespace run one space (an order spread over many blank lines). */
  spaces?: boolean;
}

// Characters that render as nothing: zero-width space/joiners, word joiner and invisible
// operators, soft hyphen, BOM, Mongolian vowel separator, combining grapheme joiner.
const INVISIBLE = new Set([
  0xad, 0x34f, 0x180e, 0x200b, 0x200c, 0x200d, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xfeff,
]);

// Letters of other scripts drawn like Latin ones (the common confusables of Cyrillic,
// Greek and a few IPA letters), by the Latin letter they pass for.
const LOOK_ALIKES: Record<string, string> = {
  a: 'аɑα',
  c: 'сϲ',
  d: 'ԁ',
  e: 'еε',
  g: 'ɡ',
  h: 'һ',
  i: 'іιӏ',
  j: 'ј',
  k: 'κ',
  l: 'ⅼ',
  n: 'ո',
  o: 'оοσ',
  p: 'рρ',
  q: 'ԛ',
  s: 'ѕ',
  u: 'υ',
  v: 'νѵ',
  w: 'ԝ',
  x: 'хχ',
  y: 'уγ',
  A: 'АΑ',
  B: 'ВΒ',
  C: 'СϹ',
  E: 'ЕΕ',
  H: 'НΗ',
  I: 'ІΙ',
  J: 'Ј',
  K: 'КΚ',
  M: 'МΜ',
  N: 'Ν',
  O: 'ОΟ',
  P: 'РΡ',
  S: 'Ѕ',
  T: 'ТΤ',
  X: 'ХΧ',
  Y: 'ΥҮ',
  Z: 'Ζ',
};
const LATIN_OF = new Map<number, string>();
for (const [latin, others] of Object.entries(LOOK_ALIKES))
  for (const other of others) LATIN_OF.set(other.codePointAt(0) as number, latin);

/** Whether a code unit is a token's: `\w`'s characters and `+ / = -`. */
function isTokenCode(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 ||
    code === 43 ||
    code === 47 ||
    code === 61 ||
    code === 45
  );
}

// NFKC of single characters, remembered (normalize costs far more than a lookup); the
// first few thousand distinct characters only, so a text of every character stays bounded.
const NFKC = new Map<number, string>();
const NFKC_KEPT = 8192;

function nfkc(point: number, ch: string): string {
  const known = NFKC.get(point);
  if (known !== undefined) return known;
  const normal = ch.normalize('NFKC');
  if (NFKC.size < NFKC_KEPT) NFKC.set(point, normal);
  return normal;
}

/** Whether a code unit is left as it is by every folding asked for. */
function plain(code: number, options: FoldOptions): boolean {
  if (code === 92) return !options.escapes;
  if (code === 10 || code === 13) return !options.wraps && !options.spaces;
  if (code === 32 || code === 9) return !options.spaces;
  return code < 0x80 || !options.unicode;
}

/**
 * Whether the line from `next` goes on with the token the line before `end` stops in: a long
 * run (16+) before the break, and after it a run of token characters holding a digit that
 * ends the line or the value (`region = us-east-1` on the next line is a new name, not the
 * rest of a key).
 */
function continuesToken(text: string, end: number, next: number): boolean {
  let start = end;
  while (start > 0 && isTokenCode(text.charCodeAt(start - 1))) start--;
  if (end - start < 16) return false;
  let stop = next;
  while (stop < text.length && stop - next < 512 && isTokenCode(text.charCodeAt(stop))) stop++;
  const after = text.charCodeAt(stop);
  return /\d/.test(text.slice(next, stop)) && !(after === 58 || after === 32 || (after === 61 && stop - next < 8));
}

function isHex(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

const SIMPLE_ESCAPES: Record<string, string> = { '/': '/', '"': '"', '\\': '\\', "'": "'" };

/**
 * The view of `text` with the foldings asked for, or undefined when none changes anything.
 *
 * @example
 * ```ts
 * fold('\\u0067hp_abc', { escapes: true })?.text; // 'ghp_abc'
 * ```
 */
export function fold(text: string, options: FoldOptions, budget?: BudgetCheck): View | undefined {
  // Chunks of the view, and where each came from as triples: its source start, its length in
  // the view, and 1 for a run copied as it is (the source goes on with it) or 0 for what one
  // source character became. The map is made from them only when something changed.
  const out: string[] = [];
  const segments: number[] = [];
  let changed = false;
  const push = (s: string, from: number) => {
    out.push(s);
    segments.push(from, s.length, 0);
  };
  let i = 0;
  while (i < text.length) {
    if ((i & 1023) === 0) budget?.step();
    const code = text.charCodeAt(i);
    if (options.escapes && code === 92 /* \ */) {
      const next = text.charAt(i + 1);
      if (next === 'u' && isHex(text.charCodeAt(i + 2)) && isHex(text.charCodeAt(i + 3))) {
        const hex = text.slice(i + 2, i + 6);
        if (/^[0-9a-fA-F]{4}$/.test(hex)) {
          push(String.fromCharCode(Number.parseInt(hex, 16)), i);
          i += 6;
          changed = true;
          continue;
        }
      }
      const simple = SIMPLE_ESCAPES[next];
      if (simple !== undefined) {
        push(simple, i);
        i += 2;
        changed = true;
        continue;
      }
    }
    if (options.wraps && (code === 10 || code === 13) && i > 0 && isTokenCode(text.charCodeAt(i - 1))) {
      let j = i;
      while (j < text.length && (text.charCodeAt(j) === 10 || text.charCodeAt(j) === 13)) j++;
      const breaks = j - i;
      while (j < text.length && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9)) j++;
      // One line break (CRLF counts as one) between two token characters: a token wrapped.
      if (breaks <= 2 && j < text.length && isTokenCode(text.charCodeAt(j)) && continuesToken(text, i, j)) {
        i = j;
        changed = true;
        continue;
      }
    }
    if (options.spaces && (code === 32 || code === 9 || code === 10 || code === 13)) {
      let j = i + 1;
      while (j < text.length && [32, 9, 10, 13].includes(text.charCodeAt(j))) j++;
      if (j - i > 1 || code !== 32) changed = true;
      push(' ', i);
      i = j;
      continue;
    }
    if (options.unicode && code >= 0x80) {
      const point = text.codePointAt(i) as number;
      const width = point > 0xffff ? 2 : 1;
      if (INVISIBLE.has(point)) {
        i += width;
        changed = true;
        continue;
      }
      // Tag characters spell ASCII out of sight ("ASCII smuggling").
      if (point >= 0xe0020 && point <= 0xe007e) {
        push(String.fromCharCode(point - 0xe0000), i);
        i += width;
        changed = true;
        continue;
      }
      const latin = LATIN_OF.get(point);
      if (latin !== undefined) {
        push(latin, i);
        i += width;
        changed = true;
        continue;
      }
      const ch = text.slice(i, i + width);
      const normal = nfkc(point, ch);
      if (normal !== ch) changed = true;
      push(normal, i);
      i += width;
      continue;
    }
    // A run of characters no folding touches is copied whole.
    let j = i + 1;
    while (j < text.length && plain(text.charCodeAt(j), options)) j++;
    out.push(text.slice(i, j));
    segments.push(i, j - i, 1);
    i = j;
  }
  if (!changed) return undefined;
  let length = 0;
  for (let k = 1; k < segments.length; k += 3) length += segments[k] as number;
  const map = new Int32Array(length + 1);
  let at = 0;
  for (let k = 0; k < segments.length; k += 3) {
    const from = segments[k] as number;
    const step = segments[k + 2] as number;
    for (let m = 0; m < (segments[k + 1] as number); m++) map[at++] = from + m * step;
  }
  map[length] = text.length;
  return { text: out.join(''), map };
}

/**
 * A range of a view as a range of the text it came from: from the first character's source
 * to the end of the last one's (an escape or a character NFKC made several of, whole).
 */
export function toOriginal(view: View, range: readonly [number, number]): [number, number] {
  const start = view.map[range[0]] as number;
  const lastFrom = view.map[Math.max(range[0], range[1] - 1)] as number;
  const next = view.map[range[1]] as number;
  // The end is where the next view character came from, but never before the last one's own start.
  return [start, Math.max(next, lastFrom + 1)];
}

/** A view of part of a text: the same, with offsets in the whole text. */
export function shiftView(view: View, by: number): View {
  if (by === 0) return view;
  const map = new Int32Array(view.map.length);
  for (let k = 0; k < map.length; k++) map[k] = (view.map[k] as number) + by;
  return { text: view.text, map };
}
