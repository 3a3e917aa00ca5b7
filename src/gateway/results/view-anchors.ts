/**
 * Where a text may hide a secret or an order in an encoding: the literals the guard's one
 * SIMD pass looks for along with the rules' own, so a text without any costs nothing more.
 * A JSON escape that can stand for ASCII (`\u00`, `\/`, `\\u`); and the words a hidden
 * credential or `.env` holds (KEY, TOKEN, SECRET, PASSWORD, provider prefixes) as base64
 * writes them at each of the three byte alignments (the characters fixed by the word's
 * own bits) and as hex. Around each, the run is decoded and searched (blobs.ts, scan.ts).
 */
import { type Anchor, sameShape } from './anchor.js';

/** The rule names these anchors stand for. */
export const ESCAPE_RULE = 'view/escape';
export const BLOB_RULE = 'view/blob';

// Words a credential or a file of them holds, and the starts of the commonest token formats.
const WORDS = [
  'KEY',
  'key',
  'Key',
  'TOKEN',
  'token',
  'Token',
  'SECRET',
  'secret',
  'Secret',
  'PASSWORD',
  'password',
  'Password',
  'ghp_',
  'github_pat_',
  'AKIA',
  'xoxb-',
  'sk-',
  'sk_live_',
  'glpat-',
  'PRIVATE',
  'BEGIN',
  'Bearer',
  'ignore',
  'Ignore',
  'IGNORE',
  'instructions',
];

/**
 * The characters of `word`'s base64 that its own bits fix, at each byte alignment (0, 1, 2
 * bytes before it), for the standard and URL-safe alphabets.
 *
 * @example
 * ```ts
 * base64Cores('password'); // ['cGFzc3dvcm', 'Bhc3N3b3Jk', …]
 * ```
 */
export function base64Cores(word: string): string[] {
  const bytes = Buffer.from(word, 'utf8');
  const cores = new Set<string>();
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes, Buffer.alloc(3)]).toString('base64');
    let best = '';
    let run = '';
    for (let j = 0; j < encoded.length; j++) {
      const first = Math.floor((6 * j) / 8);
      const last = Math.floor((6 * j + 5) / 8);
      if (first >= offset && last < offset + bytes.length) run += encoded[j];
      else run = '';
      if (run.length > best.length) best = run;
    }
    if (best.length >= 4) {
      cores.add(best);
      cores.add(best.replace(/\+/g, '-').replace(/\//g, '_'));
    }
  }
  return [...cores];
}

/** `\/` after a `:` or after 12+ characters of a token. */
function slashInToken(text: string, at: number): boolean {
  if (text.charCodeAt(at - 1) === 58) return true;
  let k = at;
  while (k > 0 && at - k < 12 && /[A-Za-z0-9+=_-]/.test(text.charAt(k - 1))) k--;
  return at - k >= 12;
}

/** The anchors of the encoded views. */
export const VIEW_ANCHORS: readonly Anchor[] = sameShape([
  ...['\\u00', '\\\\u'].map((literal) => ({ literal, rules: [ESCAPE_RULE], before: 256, after: 512 })),
  // An escaped slash hides a URL (`https:\/\/user:pw@…`) or splits a key; in a regular
  // expression's source (`\/api\/v1`) it follows a short word, and is left alone.
  { literal: '\\/', rules: [ESCAPE_RULE], before: 256, after: 512, precededBy: slashInToken },
  ...[
    ...new Set(
      WORDS.flatMap((word) => [
        ...base64Cores(word),
        Buffer.from(word).toString('hex'),
        Buffer.from(word).toString('hex').toUpperCase(),
      ]),
    ),
  ]
    .filter((literal) => /^[ -~]+$/.test(literal) && /[^0-9]/.test(literal))
    .map((literal) => ({ literal, rules: [BLOB_RULE], before: 0, after: 0 })),
]);
