/**
 * Secrets in result text: secretlint's recommended rules (well-known credential formats:
 * cloud keys, provider tokens, private key blocks, connection strings with passwords),
 * plus JSON Web Tokens, PEM private keys of any algorithm and long high-entropy values
 * next to a secret-like name, which no fixed format list catches. Every rule runs only on
 * the spans around the literals its matches contain (see `spans.ts`), so a result with
 * none of them costs a few native string searches.
 */

import { type Anchor, fingerprintEndingWith, type Gate, isWordCode, SPACE, sameShape } from './anchor.js';
import { type BudgetCheck, UNBOUNDED } from './budget.js';
import { EXTRA_ANCHORS, extraSecrets, isExampleKey } from './extra-secret-rules.js';
import { fold, shiftView, toOriginal } from './fold.js';
import { PRESET_ANCHORS, runPresetRules } from './secret-rules.js';
import { type Span, spans } from './spans.js';
import type { ResultFinding } from './types.js';

// A name that says "secret" (api_key, client-secret, PASSWORD, auth token...) followed by
// `=`, `:` or a JSON `":` and a quoted or bare value of 16+ token characters. Only the
// value is reported, so whatever precedes the word in the name is not matched.
const NAME =
  '(?:secret|passw(?:or)?d|api[_-]?key|access[_-]?key|auth[_-]?token|access[_-]?token|private[_-]?key|client[_-]?secret|token)';
// (A quote may be escaped: JSON inside a JSON string. A value is read up to 256 characters,
// which bounds the work per name; a longer one is redacted to its end all the same.)
const VALUE = String.raw`(?:\\?["'])?\s*(?:=|:)\s*(?:\\?["'])?([A-Za-z0-9+/_\-.=]{16,256})`;
const NAMED_VALUE = new RegExp(NAME + VALUE, 'gi');
// What follows every name the expression takes: where it does not, no match ends its name there.
// (Sixteen value characters are enough to know; reading on would cost the whole run at every
// name in a text of names, `password=` repeated.)
const AFTER_NAME = new RegExp(VALUE.replace('{16,256}', '{16}'), 'y');
// The character right after such a name, as the SIMD pass sees it: a quote, `=`, `:` or whitespace.
const NAME_END = `"'=:\\${SPACE}`;

/** Shannon entropy in bits per character. */
function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

// Random keys of 16+ characters from a 36+ symbol alphabet sit above 3.5 bits, random hex
// (16 symbols, at most 4 bits) above 3; words, paths, version strings and placeholders
// ("xxxxxxxx", "changeme") sit below.
const MIN_BITS = 3.5;
const MIN_HEX_BITS = 3;

// A value that holds one of the longer secret-like words is a name, not a secret
// (`exports.exchangeX509Token = exchangeX509Token`): a random value of 16+ characters holds
// a given five letters in some case about once in 10^7.
const NAMES_ITSELF = /token|secret|passw/i;

// A key holds a digit, or base64's "+" or "/", where a name written in letters (and
// underscores or dashes) holds none: a random 40-character base64 key has no digit once in
// a thousand.
const NOT_A_WORD = /[\d+/]/;

/** High-entropy values next to a secret-like name. */
export function namedSecrets(text: string): ResultFinding[] {
  const found: ResultFinding[] = [];
  for (const m of text.matchAll(NAMED_VALUE)) {
    const value = m[1] as string;
    const floor = /^[0-9a-f]+$/i.test(value) ? MIN_HEX_BITS : MIN_BITS;
    if (entropy(value) < floor || !NOT_A_WORD.test(value) || !/[A-Za-z]/.test(value) || NAMES_ITSELF.test(value))
      continue;
    const start = (m.index ?? 0) + m[0].length - value.length;
    found.push({ kind: 'secret', rule: 'named-high-entropy-value', range: [start, start + value.length] });
  }
  return found;
}

// A JSON Web Token (RFC 7519 §3): base64url header "eyJ…" (a JSON object), payload and signature.
const JWT = /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g;

/** JSON Web Tokens whose header decodes to an object naming its `alg` (secretlint's preset has no JWT rule). */
export function jsonWebTokens(text: string): ResultFinding[] {
  const found: ResultFinding[] = [];
  for (const m of text.matchAll(JWT)) {
    try {
      const header: unknown = JSON.parse(Buffer.from(m[0].slice(0, m[0].indexOf('.')), 'base64url').toString('utf8'));
      if (typeof header !== 'object' || header === null || !('alg' in header)) continue;
    } catch {
      continue;
    }
    const start = m.index ?? 0;
    found.push({ kind: 'secret', rule: 'json-web-token', range: [start, start + m[0].length] });
  }
  return found;
}

// A PEM private key block (RFC 7468 §10/§11), whatever the algorithm; the preset's rule
// skips short bodies such as an Ed25519 key's single line.
const PEM_PRIVATE_KEY = /-----BEGIN ((?:[A-Z0-9]+ ){0,4})PRIVATE KEY-----[\s\S]{0,16384}?-----END \1PRIVATE KEY-----/g;

/** PEM private key blocks. */
export function privateKeyBlocks(text: string): ResultFinding[] {
  return [...text.matchAll(PEM_PRIVATE_KEY)].map((m) => {
    const start = m.index ?? 0;
    return { kind: 'secret' as const, rule: 'pem-private-key', range: [start, start + m[0].length] as const };
  });
}

/**
 * `[A-Za-z0-9_-]{8,}\.eyJ` at a position, in time linear in a text of many: the end of the
 * run of base64url characters a position is in is remembered, as in `eyJ` repeated every
 * occurrence is inside one run and an expression would read it to its end from each.
 */
function jwtHeaderEnd(): Gate {
  let memo: { text: string; from: number; end: number } | undefined;
  return (text, at) => {
    let end: number;
    if (memo !== undefined && memo.text === text && at >= memo.from && at <= memo.end) end = memo.end;
    else {
      end = at;
      while (end < text.length && isBase64UrlCode(text.charCodeAt(end))) end++;
      memo = { text, from: at, end };
    }
    return end - at >= 8 && text.startsWith('.eyJ', end);
  };
}

function isBase64UrlCode(code: number): boolean {
  return isWordCode(code) || code === 45;
}

// The literals the guard's own rules need: a JWT's header starts `{"` (base64 `eyJ`), a PEM
// block names PRIVATE KEY, and a secret-like name holds one of these words in the casings
// names are written in (api_key, apiKey, ApiKey, API_KEY; token, accessToken, TOKEN...);
// each is searched for from a rarer letter on, as a search costs what its first letter does.
const OWN_ANCHORS: readonly Anchor[] = [
  { literal: 'eyJ', search: 'J', rules: ['json-web-token'], before: 1, followedBy: jwtHeaderEnd() },
  { literal: 'PRIVATE KEY', rules: ['pem-private-key'], after: 16 * 1024 },
  // The ends of the names: secret, Secret, SECRET; token, Token, TOKEN; password, Password,
  // passwd; key, Key, KEY. A name ends where a value follows it. The SIMD pass looks for
  // the end and what follows it, but for "cret" for its four letters ("cret" is in ordinary
  // text 31 times per MB, "ret" before a space or quote more often: "let", "set").
  ...['cret', 'CRET', 'ken', 'KEN', 'word', 'WORD', 'wd', 'WD', 'key', 'Key', 'KEY'].map((literal) => ({
    literal,
    rules: ['named-high-entropy-value'],
    followedBy: AFTER_NAME,
    after: 128,
    ...(/^cret$/i.test(literal) ? { fingerprintAt: 0 } : fingerprintEndingWith(literal, NAME_END)),
  })),
];

/** Every anchor of the secret rules. */
export const SECRET_ANCHORS: readonly Anchor[] = sameShape([...PRESET_ANCHORS, ...OWN_ANCHORS, ...EXTRA_ANCHORS]);

/**
 * Every secret found in a text, with its range.
 *
 * @example
 * ```ts
 * await findSecrets('token ghp_…'); // [{ kind: 'secret', rule: '@secretlint/secretlint-rule-github', range: [6, 46] }]
 * ```
 */
export async function findSecrets(text: string, budget: BudgetCheck = UNBOUNDED): Promise<ResultFinding[]> {
  const found: ResultFinding[] = [];
  for (const span of spans(text, SECRET_ANCHORS, { budget })) {
    budget.step();
    budget.span(span.end - span.start);
    const here = await spanSecrets(text, span);
    found.push(...here);
    // A token wrapped onto the next line: the span again with such line breaks dropped
    // (what a rule found in the span already is not reported twice).
    const part = text.slice(span.start, span.end);
    const view = part.includes('\n') ? fold(part, { wraps: true }) : undefined;
    if (view !== undefined)
      for (const f of await findSecrets(view.text, budget))
        if (f.range && !here.some((h) => h.rule === f.rule))
          found.push({ ...f, range: toOriginal(shiftView(view, span.start), f.range) });
  }
  return found;
}

/** The secrets of one span, with ranges in the whole text. */
async function spanSecrets(text: string, span: Span): Promise<ResultFinding[]> {
  const found: ResultFinding[] = [];
  const part = text.slice(span.start, span.end);
  const own: ResultFinding[] = [];
  // Kept even where a preset rule found the same secret: a preset range can start at the
  // name and stop short of the value's end (secretlint's AWS rule does), and redaction
  // covers the union of overlapping ranges.
  if (span.rules.has('json-web-token')) own.push(...jsonWebTokens(part));
  if (span.rules.has('named-high-entropy-value')) own.push(...namedSecrets(part));
  if (span.rules.has('pem-private-key')) own.push(...privateKeyBlocks(part));
  own.push(...extraSecrets(part, span.rules));
  const preset = await runPresetRules(text, span);
  // (A URL's user and host may well say "example": a range holding one is kept.)
  for (const p of preset) {
    const value = text.slice(p.range![0], p.range![1]);
    if (/[@:]/.test(value) || !isExampleKey(value)) found.push(p);
  }
  for (const f of own) {
    if (isExampleKey(part.slice(f.range![0], f.range![1]))) continue;
    if (f.rule === 'pem-private-key' && preset.some((p) => p.rule.endsWith('privatekey'))) continue;
    found.push({ ...f, range: [span.start + f.range![0], span.start + f.range![1]] });
  }
  return found;
}

/** Whether a code unit can be part of a key or token (`\w`'s characters and `+ / = -`). */
function isTokenCode(code: number): boolean {
  return isWordCode(code) || code === 43 || code === 47 || code === 61 || code === 45;
}

/**
 * Where the token a range ends in ends: the range's end, or past it while it stops between
 * two token characters. secretlint's AWS rule reports a range as long as the key but
 * starting at its name, which would leave the key's last characters in the result.
 */
function tokenEnd(text: string, end: number): number {
  if (end <= 0 || !isTokenCode(text.charCodeAt(end - 1))) return end;
  let at = end;
  while (at < text.length && isTokenCode(text.charCodeAt(at))) at++;
  return at;
}

/**
 * The text with every found range replaced by `[redacted: secret]`, each widened to the
 * end of the token it stops inside.
 *
 * @example
 * ```ts
 * redact('key=abc', [{ kind: 'secret', rule: 'r', range: [4, 7] }]); // 'key=[redacted: secret]'
 * ```
 */
export function redact(text: string, findings: readonly ResultFinding[]): string {
  // Each token's end is found once: in a text of one long token, every range ends inside it.
  let known: { from: number; end: number } | undefined;
  const endOf = (end: number) => {
    if (known !== undefined && end >= known.from && end <= known.end) return known.end;
    known = { from: end, end: tokenEnd(text, end) };
    return known.end;
  };
  const ranges = findings
    .flatMap((f) => (f.range ? [[f.range[0], f.range[1]]] : []))
    .sort((a, b) => a[0]! - b[0]!)
    .map(([start, end]) => [start!, endOf(end!)]);
  // Overlapping ranges become their union, so no part of a secret two rules disagree on stays.
  const merged: number[][] = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range[0]! <= last[1]!) last[1] = Math.max(last[1]!, range[1]!);
    else merged.push(range);
  }
  let out = text;
  for (const [start, end] of merged.reverse()) out = `${out.slice(0, start)}[redacted: secret]${out.slice(end)}`;
  return out;
}
