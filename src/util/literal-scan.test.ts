import { describe, expect, it } from 'vitest';
import { assemble } from '../../scripts/build-wasm.js';
import {
  type Fingerprint,
  fingerprintTriples,
  literalScanner,
  passByte,
  passBytesOf,
  planScan,
} from './literal-scan.js';
import { WASM_BASE64, WASM_RELAXED_BASE64 } from './literal-scan-wasm.js';

// A seeded generator, so a failure can be replayed.
function random(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % n;
  };
}

const POOL = 'abcdefghijklmnopqrstuvwxyz_-:/ "\'ABCDEFGHIJ0123456789\t\n\u00e9\u0101\u2028\u4e2d\u8000\ud83d\ude00';

/** Positions where a fingerprint holds exactly, as the pass sees the text. */
function exact(text: string, fingerprints: readonly Fingerprint[]): Map<number, Set<number>> {
  const found = new Map<number, Set<number>>();
  for (let at = 0; at < text.length; at++)
    fingerprints.forEach((sets, index) => {
      const holds = sets.every((set, j) => {
        const code = at + j < text.length ? passByte(text.charCodeAt(at + j)) : 0;
        return [...set].some((ch) => ch.charCodeAt(0) === code);
      });
      if (holds) found.set(at, (found.get(at) ?? new Set()).add(index));
    });
  return found;
}

const scanner = literalScanner();

describe('the SIMD literal pass', () => {
  it('is the assembled form of literal-scan.wat, plain and with relaxed SIMD', async () => {
    const bytes = await assemble('src/util/literal-scan.wat');
    expect(Buffer.from(bytes).toString('base64')).toBe(WASM_BASE64);
    const relaxed = await assemble('src/util/literal-scan.wat', { relaxed: true });
    expect(Buffer.from(relaxed).toString('base64')).toBe(WASM_RELAXED_BASE64);
    expect(WASM_RELAXED_BASE64).not.toBe(WASM_BASE64);
  });

  it('runs here (Node has WebAssembly SIMD)', () => {
    expect(scanner).toBeDefined();
  });

  it('reports every position where a fingerprint holds, with the four bytes from it, in text order', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const pick = random(seed);
      const fingerprints: Fingerprint[] = Array.from({ length: 1 + pick(30) }, () =>
        Array.from({ length: 1 + pick(4) }, () =>
          Array.from({ length: 1 + pick(3) }, () =>
            String.fromCharCode(passByte(POOL.charCodeAt(pick(POOL.length)))),
          ).join(''),
        ),
      );
      const text = Array.from({ length: 200 + pick(3000) }, () => POOL[pick(POOL.length)]).join('');
      const plan = planScan(fingerprints);
      const candidates = scanner!.candidates(text, plan);
      const reported = new Map<number, number>();
      let previous = -1;
      for (let i = 0; i < candidates.length; i += 2) {
        expect(candidates[i]!).toBeGreaterThan(previous);
        previous = candidates[i]!;
        reported.set(candidates[i]!, candidates[i + 1]!);
      }
      const seen = (at: number) =>
        [0, 1, 2, 3].reduce((bytes, i) => bytes | (passByte(text.charCodeAt(at + i) || 0) << (8 * i)), 0);
      expect([...reported].filter(([at, bytes]) => bytes !== seen(at))).toEqual([]);
      for (const [at, indexes] of exact(text, fingerprints))
        for (const index of indexes) {
          expect(reported.has(at), `seed ${seed}: ${fingerprints[index]} at ${at}`).toBe(true);
          // The three bytes reported are among the fingerprint's (what callers look it up by).
          const triple = seen(at) & 0xffffff;
          const sets = fingerprints[index]!;
          if (sets.length >= 3) expect(fingerprintTriples(sets), `seed ${seed}: ${sets} at ${at}`).toContain(triple);
        }
    }
  });

  it('finds what stands across the end of a chunk, and nothing past the text', () => {
    for (const literal of ['key', 'keys']) {
      const plan = planScan([[...literal]]);
      for (const cut of [1, 2, 3, 4, 32 * 1024 + 1, 32 * 1024 + 2, 32 * 1024 + 3, 32 * 1024 + 4]) {
        const at = 1024 * 1024 - cut;
        const text = `${'x'.repeat(at)}${literal}${'x'.repeat(40)}${literal}`;
        const positions = [...scanner!.candidates(text, plan)].filter((_, i) => i % 2 === 0);
        expect(positions, `${literal} at ${at}`).toEqual([at, at + 40 + literal.length]);
      }
      expect([...scanner!.candidates(literal.slice(0, -1), plan)]).toEqual([]);
    }
  });

  it('finds the first code unit inside the ranges, in one-byte, two-byte and long texts', () => {
    const ranges = [[0x200b, 0x200f] as const, [0xfeff, 0xfeff] as const];
    expect(scanner!.firstInRanges('plain ascii text', ranges)).toBe(-1);
    expect(scanner!.firstInRanges('caf\u00e9 \u2192 no', ranges)).toBe(-1);
    // Units above the ranges' floor everywhere before it, or none; at the edges of the
    // copy's groups of 256 units and of the 32K chunks (and in a chunk's look-ahead).
    for (const before of ['a\u2192', 'ab'])
      for (const at of [0, 7, 8, 15, 255, 256, 1000, 32_767, 32_768, 32_770, 1024 * 1024 - 1, 1024 * 1024 + 5]) {
        const text = `${before.repeat(at / 2 + 1).slice(0, at)}\u200d${'b'.repeat(20)}`;
        const found = scanner!.firstInRanges(text, ranges);
        // At or before the character, within its block of eight code units.
        expect(found, `${JSON.stringify(before)} ${at}`).toBeLessThanOrEqual(at);
        expect(found, `${JSON.stringify(before)} ${at}`).toBeGreaterThan(at - 8);
      }
  });

  it('names stretches that hold every code unit inside the ranges, and nothing between sites', () => {
    const ranges = [[0x200b, 0x200f] as const, [0x4e00, 0x9fff] as const];
    const pick = random(7);
    for (const length of [100, 40_000, 200_000]) {
      const units = Array.from({ length }, () =>
        pick(400) === 0 ? (pick(2) ? '\u200d' : '\u4e2d') : pick(50) === 0 ? '\u2192' : 'a',
      );
      const text = units.join('');
      scanner!.scanAhead(text, [], ranges);
      const stretches = scanner!.stretchesInRanges(text, ranges);
      const inside = (at: number) => stretches.some(([from, to]) => at >= from && at < to);
      const sites = units.flatMap((u, at) => (u === '\u200d' || u === '\u4e2d' ? [at] : []));
      expect(sites.every(inside)).toBe(true);
      // Whole groups of 256 units at most around each site: far less than the text when sites are sparse.
      expect(stretches.reduce((n, [from, to]) => n + to - from, 0)).toBeLessThanOrEqual(sites.length * 256);
    }
    expect(scanner!.stretchesInRanges('plain \u2192 text', ranges)).toEqual([]);
  });

  it('reports every position when every position is a candidate (more than its output area holds)', () => {
    const found = scanner!.candidates('x'.repeat(200_000), planScan([['x']]));
    expect(found.length).toBe(400_000);
    expect(found.filter((_, i) => i % 2 === 0).every((position, i) => position === i)).toBe(true);
  });

  it('answers for two plans and a set of ranges from one pass what three passes find', () => {
    const pick = random(99);
    const fingerprints = (n: number, width: number): Fingerprint[] =>
      Array.from({ length: n }, () =>
        Array.from({ length: width }, () => String.fromCharCode(passByte(POOL.charCodeAt(pick(POOL.length))))),
      );
    const plans = [planScan(fingerprints(12, 2)), planScan(fingerprints(20, 3))] as const;
    const ranges = [[0x2028, 0x2028] as const, [0x8000, 0x8000] as const];
    // Long enough to cross chunks, and the wide characters only late.
    const text = `${Array.from({ length: 150_000 }, () => POOL[pick(POOL.length - 5)]).join('')}\u8000`;
    const apart = [
      [...scanner!.candidates(text, plans[0])],
      [...scanner!.candidates(text, plans[1])],
      scanner!.firstInRanges(text, ranges),
    ];
    expect((apart[0] as number[]).length).toBeGreaterThan(100);
    scanner!.candidates('another text', plans[0]);
    scanner!.scanAhead(text, plans, ranges);
    expect(scanner!.remembers(text, ranges)).toBe(true);
    expect([
      [...scanner!.candidates(text, plans[0])],
      [...scanner!.candidates(text, plans[1])],
      scanner!.firstInRanges(text, ranges),
    ]).toEqual(apart);
    expect(apart[2]).toBeGreaterThan(150_000 - 8);
  });

  it('says what it sees of a set of characters', () => {
    expect(passBytesOf(/\s/)).toBe('\u0000\t\n\u000b\f\r \u00a0\u00ff');
    expect(passByte(0x41)).toBe(0x41);
    expect(passByte(0x2028)).toBe(0xff);
    expect(passByte(0xfeff)).toBe(0);
  });
});
