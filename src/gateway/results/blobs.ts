/**
 * Base64 and hex runs long enough to hide a credential (a `.env` file encoded, a token in
 * hex), decoded when what they hold is text. Only the runs around an encoded word the
 * guard's SIMD pass found (view-anchors.ts) are read, so ordinary text costs nothing here.
 */
import type { BudgetCheck } from './budget.js';

/** A run of a text and the text it decodes to. */
export interface Blob {
  start: number;
  end: number;
  decoded: string;
}

// The shortest run looked at: 36 bytes of base64 (a 32-character token and its name), 24 of hex.
const MIN_RUN = 48;
// Decoding stops here: a blob bigger than this is not text a person wrote.
const MAX_RUN = 64 * 1024;

function isBase64Code(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 43 ||
    code === 47 ||
    code === 45 ||
    code === 95
  );
}

function isHexRun(run: string): boolean {
  return /^[0-9a-fA-F]+$/.test(run) && run.length % 2 === 0;
}

/** Whether a run could be base64 or hex: digits and letters, one alphabet, upper case in base64. */
function looksEncoded(run: string): boolean {
  let digits = 0;
  let upper = 0;
  let lower = 0;
  let standard = false;
  let urlSafe = false;
  for (let i = 0; i < run.length; i++) {
    const code = run.charCodeAt(i);
    if (code >= 48 && code <= 57) digits++;
    else if (code >= 65 && code <= 90) upper++;
    else if (code >= 97 && code <= 122) lower++;
    else if (code === 43 || code === 47) standard = true;
    else if (code === 45 || code === 95) urlSafe = true;
  }
  if (digits === 0 || (standard && urlSafe)) return false;
  // Hex: digits and one case of a–f. Base64 of text: all three kinds, upper case often.
  if (upper + lower === 0) return false;
  return isHexRun(run) || (upper >= run.length / 16 && lower >= run.length / 16);
}

/** Whether decoded bytes read as text: valid UTF-8, no control characters but whitespace. */
function asText(bytes: Buffer): string | undefined {
  const text = bytes.toString('utf8');
  if (text.includes('\uFFFD')) return undefined;
  let printable = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 32 || code === 9 || code === 10 || code === 13) printable++;
  }
  return printable === text.length ? text : undefined;
}

/**
 * The base64 (standard or URL-safe, padded or not) and hex runs of at least 48 characters
 * around the given positions (where the view anchors found an encoded word) that decode
 * to text.
 *
 * @example
 * ```ts
 * const text = Buffer.from('API_KEY=ghp_' + 'a'.repeat(36)).toString('base64');
 * blobs(text, [0]); // [{ start: 0, end: 64, decoded: 'API_KEY=ghp_…' }]
 * ```
 */
export function blobs(text: string, positions: readonly number[], budget?: BudgetCheck): Blob[] {
  const found: Blob[] = [];
  let after = 0;
  for (const at of positions) {
    budget?.step();
    if (at < after || !isBase64Code(text.charCodeAt(at))) continue;
    let start = at;
    while (start > after && at - start < MAX_RUN && isBase64Code(text.charCodeAt(start - 1))) start--;
    let end = at + 1;
    while (end < text.length && end - start < MAX_RUN && isBase64Code(text.charCodeAt(end))) end++;
    after = end;
    let padded = end;
    while (padded < text.length && padded < end + 2 && text.charCodeAt(padded) === 61) padded++;
    if (end - start < MIN_RUN) continue;
    const run = text.slice(start, padded);
    // A run of one kind of character (letters only, digits only) is a word or a number, and
    // one mixing both base64 alphabets (a path with "/" and "-") is no encoding: both are skipped
    // before anything is decoded.
    if (!looksEncoded(run)) continue;
    const decoded = isHexRun(run)
      ? asText(Buffer.from(run, 'hex'))
      : asText(Buffer.from(run, /[-_]/.test(run) ? 'base64url' : 'base64'));
    if (decoded !== undefined && decoded.length >= 16) found.push({ start, end: padded, decoded });
  }
  return found;
}
