/**
 * Comparing two answers to the same call: idempotency from answers as
 * well as effects. A tool whose state lives in memory shows a repeat only in
 * what it says ("task 2 added" after "task 1 added"). Timestamps, durations,
 * UUIDs, long hex ids and epoch numbers change between any two calls and are
 * blanked before comparing; short numbers are kept, since a counter that moves
 * is exactly what a non-idempotent repeat looks like.
 */

const VOLATILE: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?/g, '<time>'],
  [/\b\d{1,2}:\d{2}:\d{2}(\.\d+)?\b/g, '<time>'],
  [/\b\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}\b/g, '<date>'],
  [/\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? /g, '<day> '],
  [/\b[0-9a-f]{16,}\b/gi, '<hex>'],
  [/\b\d{10,}\b/g, '<epoch>'],
  [/\b\d+(\.\d+)?\s?(ms|milliseconds?|s|secs?|seconds?|µs|us|ns)\b/g, '<duration>'],
  [/\b\d+\.\d{2,}\b/g, '<fraction>'],
];

/**
 * What a read may see move without having changed anything: generated ids
 * (`search_3_1795…`, nanoids: letters and digits mixed, 8 or more), process ids,
 * and measurements (percentages, sizes). A read of the world answers these
 * differently on every call; only what is left says the server's state moved.
 */
const READING: ReadonlyArray<readonly [RegExp, string]> = [
  // Bounded by what cannot be in a token, not \b: a base64url id may begin or end with "-".
  [/(?<![\w-])(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{8,}(?![\w-])/g, '<id>'],
  [/\b(pid|PID|process id)\b[\s:=#]*\d+/g, '<pid>'],
  [/\b\d+(\.\d+)?\s?%/g, '<share>'],
  [/\b\d+(\.\d+)?\s?([KMGTP]i?B|[kKMGTP]|bytes?|B)\b/g, '<size>'],
];

/** Options of {@link normaliseAnswer} and {@link answersDiffer}. */
export interface AnswerOptions {
  /**
   * Compare as readings (a read-only tool): also blank generated ids, process
   * ids and measurements, which differ between two reads of an unchanged server.
   */
  reading?: boolean;
}

// A long token with no digit can still be a generated id: a random base64url id of 16
// characters has no digit one time in 15. Letters of both cases that switch case often
// (or with "-" or "_" among them) are random, not a word: a camelCase name switches case
// twice per word, a random id at about every other letter. A name of many short words
// (`getServerTimeValue`) passes for an id too; as this is only for readings, that can
// only hide a change of such a name between two identical reads, never invent one.
const LONG_TOKEN = /(?<![\w-])[\w-]{16,}(?![\w-])/g;

function looksGenerated(token: string): boolean {
  if (!/[a-z]/.test(token) || !/[A-Z]/.test(token)) return false;
  if (/[-_]/.test(token)) return true;
  let switches = 0;
  for (let i = 1; i < token.length; i++)
    if (/[a-z]/.test(token.charAt(i - 1)) !== /[a-z]/.test(token.charAt(i))) switches++;
  return switches >= token.length / 4;
}

/** The answer with what changes between any two calls blanked. */
export function normaliseAnswer(text: string, { reading = false }: AnswerOptions = {}): string {
  let out = text;
  for (const [pattern, placeholder] of VOLATILE) out = out.replace(pattern, placeholder);
  if (reading) {
    for (const [pattern, placeholder] of READING) out = out.replace(pattern, placeholder);
    out = out.replace(LONG_TOKEN, (token) => (looksGenerated(token) ? '<id>' : token));
  }
  return out.replace(/\s+/g, ' ').trim();
}

/**
 * Where two answers differ once volatile parts are blanked, as short excerpts
 * around the first difference; `undefined` when they agree (or one is missing).
 *
 * @example
 * ```ts
 * answersDiffer('Added task 1', 'Added task 2'); // { first: 'Added task 1', again: 'Added task 2' }
 * answersDiffer('at 2026-01-01T00:00:00Z', 'at 2026-01-01T00:00:05Z'); // undefined
 * ```
 */
export function answersDiffer(
  first: string | undefined,
  again: string | undefined,
  options: AnswerOptions = {},
): { first: string; again: string } | undefined {
  if (first === undefined || again === undefined) return undefined;
  const a = normaliseAnswer(first, options);
  const b = normaliseAnswer(again, options);
  if (a === b) return undefined;
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  const from = Math.max(0, at - 40);
  const excerpt = (s: string) => `${from > 0 ? '…' : ''}${s.slice(from, at + 60)}${s.length > at + 60 ? '…' : ''}`;
  return { first: excerpt(a), again: excerpt(b) };
}
