/**
 * Whether a text holds a character past U+00FF. V8 keeps a string of Latin-1 characters
 * in one byte per character, and answers this for such a string without reading it; a
 * string it keeps in two bytes is read up to its first such character.
 */

// Surrogate halves are past U+00FF too, so astral characters count.
const WIDE = /[\u0100-\uffff]/;

/**
 * Whether a text holds any character past U+00FF.
 *
 * @example
 * ```ts
 * hasWideCharacters('café'); // false
 * hasWideCharacters('a → b'); // true
 * ```
 */
export function hasWideCharacters(text: string): boolean {
  return WIDE.test(text);
}
