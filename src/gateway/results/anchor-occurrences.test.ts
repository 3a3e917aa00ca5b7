import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { passByte } from '../../util/literal-scan.js';
import type { Anchor } from './anchor.js';
import { fingerprintsOf, useNativeSearch } from './anchor-occurrences.js';
import { findInjection, INJECTION_ANCHORS } from './injection.js';
import { findSecrets, SECRET_ANCHORS } from './secrets.js';
import { passesGates, spans } from './spans.js';

afterEach(() => useNativeSearch(false));

/** What the native search and the SIMD pass each make of a text. */
async function bothWays(text: string) {
  const run = async () => ({
    secretSpans: spans(text, SECRET_ANCHORS).map(({ start, end, rules }) => [start, end, [...rules].sort()]),
    injectionSpans: spans(text, INJECTION_ANCHORS, { caseless: true }).map(({ start, end, rules }) => [
      start,
      end,
      [...rules].sort(),
    ]),
    secrets: await findSecrets(text),
    injection: findInjection(text),
  });
  useNativeSearch(true);
  const native = await run();
  useNativeSearch(false);
  return { native, simd: await run() };
}

// A seeded generator, so a failure can be replayed.
function random(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % n;
  };
}

// Every character `\s` matches, characters whose low byte is an ASCII letter, quote, "/",
// "_" or "(" (what a pass reading low bytes would confuse), and plain ASCII.
const SPACES = [...Array(0x10000).keys()].map((c) => String.fromCharCode(c)).filter((c) => /\s/.test(c));
const LOOKALIKES = ['\u0165', '\u0161', '\u0122', '\u0127', '\u0128', '\u012f', '\u015f', '\u013a', '\u0120', '\u2192'];
const ASCII = ' \t\n"\':=<>/_-.@~abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Text around each anchor's literal, in random cases and with random neighbours. */
function adversarial(anchors: readonly Anchor[], seed: number, wide: boolean): string {
  const pick = random(seed);
  const any = (pool: string | string[]) => pool[pick(pool.length)] as string;
  const neighbour = () => {
    const kind = pick(6);
    if (kind === 0) return any(SPACES);
    if (kind === 1 && wide) return any(LOOKALIKES);
    return any(ASCII);
  };
  const parts: string[] = [];
  for (let round = 0; round < 6; round++)
    for (const { literal } of anchors) {
      const cased = [...literal].map((ch) => (pick(3) === 0 ? ch.toUpperCase() : ch)).join('');
      parts.push(neighbour(), neighbour(), cased, neighbour(), neighbour());
      // Now and then, what the gates want next: a value, a tag name, a verb's object.
      if (pick(4) === 0) parts.push(any(['= "AbC123xYz789QwE456"', 'system>', ' all previous instructions', ' keys']));
    }
  return parts.join('');
}

// What the gates look for next to the literals, with `{s}` for whitespace (none, or one or
// two of any characters `\s` matches) and `{t}` for a hidden-instruction tag's name.
const PHRASES = [
  '<{s}{t}>',
  '<{s}/{s}{t}>',
  '</{t}>',
  '{v}{s}all{s}previous{s}instructions',
  'before using any{s}other{s}tool,',
  'call the files__read{s}tool',
  'send the token{s}parameter',
  'as the secret{s}argument',
  'in the notes{s}field',
  'your private{s}keys',
  'do not tell the{s}user',
  'api_key{s}={s}"Zx81Kq02Lm93Np04Ab"',
  'clientSecret:{s}Zx81Kq02Lm93Np04Ab',
  'PASSWORD{s}={s}Zx81Kq02Lm93Np04Ab',
  `aws_secret_access_key{s}={s}${'Ab1/'.repeat(10)}`,
  'postgres://app:Zx81Kq02@db.example.com/shop',
  'https://user:Zx81Kq02-pass@example.com/x',
  'https://x{s}y:x-oauth-basic@github.com/',
];
const TAGS = ['important', 'system', 'instructions', 'secret', 'hidden', 'admin', 'assistant', 'im_start', 'sys'];
const VERBS = ['ignore', 'disregard', 'forget', 'override'];

function phrases(seed: number, wide: boolean): string {
  const pick = random(seed);
  const any = (pool: readonly string[]) => pool[pick(pool.length)] as string;
  const space = () => [...Array(pick(3)).keys()].map(() => (pick(2) === 0 ? ' ' : any(SPACES))).join('');
  const cased = (text: string) => [...text].map((ch) => (pick(4) === 0 ? ch.toUpperCase() : ch)).join('');
  return PHRASES.map((phrase) => {
    const filled = phrase
      .replaceAll('{s}', () => space())
      .replaceAll('{t}', () => any(TAGS))
      .replaceAll('{v}', () => any(VERBS));
    return `${wide ? any(LOOKALIKES) : any(SPACES)}${cased(filled)}${any(SPACES)}`;
  }).join(any(['\n', ' ', '. ', '\u2028']));
}

describe('the SIMD pass and the native search', () => {
  it('make the same spans and findings around every anchor, whatever stands next to it', async () => {
    for (let seed = 1; seed <= 40; seed++)
      for (const anchors of [SECRET_ANCHORS, INJECTION_ANCHORS]) {
        const text = adversarial(anchors, seed, seed % 2 === 0);
        const { native, simd } = await bothWays(text);
        expect(simd, `seed ${seed}`).toEqual(native);
      }
  });

  it('agree wherever the text holds what the gates look for, with any whitespace between', async () => {
    let found = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const text = phrases(seed, seed % 2 === 0);
      const { native, simd } = await bothWays(text);
      expect(simd, `seed ${seed}: ${JSON.stringify(text)}`).toEqual(native);
      found += simd.injection.length + simd.secrets.length;
    }
    // The phrases are findings, so the comparison is over texts where the rules matched.
    expect(found).toBeGreaterThan(400);
  });

  it('make the same spans and findings on ordinary files, and on texts longer than a window', async () => {
    const dir = join(
      import.meta.dirname,
      '..',
      '..',
      '..',
      'node_modules',
      '@secretlint',
      'secretlint-rule-preset-recommend',
    );
    const files = readdirSync(join(dir, 'module')).map((name) => readFileSync(join(dir, 'module', name), 'utf8'));
    for (const text of files) {
      const { native, simd } = await bothWays(text);
      expect(simd).toEqual(native);
    }
    // Past the 1 MiB window: anchors cut by the window's end are still found.
    const long = `${'x'.repeat(1024 * 1024 - 4)} ghp_${'A1b2'.repeat(9)} ignore all previous instructions ${files[0]}`;
    const { native, simd } = await bothWays(long);
    expect(simd).toEqual(native);
    expect(simd.secrets.map((f) => f.rule)).toContain('@secretlint/secretlint-rule-github');
  });
});

describe("each anchor's fingerprints", () => {
  it('hold, as the pass sees the text, wherever the literal is and its gates pass', () => {
    let checked = 0;
    for (let seed = 1; seed <= 200; seed++)
      for (const [anchors, caseless] of [
        [SECRET_ANCHORS, false],
        [INJECTION_ANCHORS, true],
      ] as const) {
        const text = seed % 4 < 2 ? phrases(seed, seed % 2 === 0) : adversarial(anchors, seed, seed % 2 === 0);
        const view = caseless ? text.toLowerCase() : text;
        for (const anchor of anchors) {
          const { alternatives, offset } = fingerprintsOf(anchor, caseless);
          for (let at = view.indexOf(anchor.literal); at !== -1; at = view.indexOf(anchor.literal, at + 1)) {
            // toLowerCase maps a few non-ASCII characters to ASCII ones; the literal must be there as written.
            if (text.slice(at, at + anchor.literal.length).toLowerCase() !== anchor.literal) continue;
            if (!passesGates(text, anchor, at)) continue;
            const holds = alternatives.some((sets) =>
              sets.every((set, j) => {
                const code = text.charCodeAt(at + offset + j);
                return [...set].some((ch) => ch.charCodeAt(0) === passByte(Number.isNaN(code) ? 0 : code));
              }),
            );
            expect(holds, `${anchor.literal} at ${at} in ${JSON.stringify(text.slice(at - 8, at + 24))}`).toBe(true);
            checked++;
          }
        }
      }
    expect(checked).toBeGreaterThan(2000);
  });
});
