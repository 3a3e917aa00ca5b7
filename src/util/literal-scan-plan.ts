/**
 * The plan of the SIMD literal pass (`literal-scan.ts`): which bucket each fingerprint
 * goes to and the nibble tables that say so.
 */

/**
 * One literal's fingerprint: one to four sets of characters, one per position (as the
 * pass sees them). The SIMD tables hold the first three; a fourth is checked only by the
 * exact bitmap, which drops the places where a literal's first three letters start a
 * common word ("too" in "took", "use" in "used").
 */
export type Fingerprint = readonly string[];

/** Tables for the pass. */
export interface ScanPlan {
  /** 96 bytes: per position, the low- and high-nibble tables. */
  tables: Uint8Array;
  /** 8192 bytes: bit `tripleBit(…)` of every byte triple a fingerprint of up to three sets holds exactly. */
  triples: Uint8Array;
  /** 8192 bytes: bit `quadBit(…)` of every four bytes a fingerprint of four sets holds exactly. */
  quads: Uint8Array;
}

/** The bit of the triples' bitmap for three bytes (as the pass computes it). */
export function tripleBit(b0: number, b1: number, b2: number): number {
  return Math.imul(b0 | (b1 << 8) | (b2 << 16), 0x9e3779b1) >>> 16;
}

/** The bit of the quads' bitmap for four bytes (as the pass computes it). */
export function quadBit(b0: number, b1: number, b2: number, b3: number): number {
  return Math.imul(b0 | (b1 << 8) | (b2 << 16) | (b3 << 24), 0x9e3779b1) >>> 16;
}

// Buckets of fingerprints in one pass.
const BUCKETS = 8;

// How often each ASCII byte occurs in ordinary tool results, per 100,000 (source files,
// JSON documents and logs; measured on `bench/result-guards.ts`'s corpus). Bytes above
// 127 count 0.1 each. The planner uses them to keep common characters out of shared buckets.
const FREQUENCY = [
  28, 0, 5, 0, 0, 0, 0, 0, 0, 619, 2513, 0, 0, 98, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 14997, 74,
  2327, 133, 49, 20, 132, 372, 908, 897, 409, 166, 1100, 1161, 2198, 868, 830, 813, 878, 326, 520, 293, 472, 155, 151,
  200, 1356, 546, 98, 758, 167, 126, 91, 256, 102, 235, 140, 275, 111, 72, 75, 260, 33, 41, 121, 168, 157, 220, 221, 20,
  250, 374, 295, 115, 67, 64, 27, 26, 24, 219, 1124, 219, 69, 436, 258, 4006, 977, 2273, 2281, 6909, 1055, 1181, 1201,
  3604, 271, 478, 2419, 1604, 3896, 3740, 1963, 137, 4024, 4059, 5281, 2033, 643, 411, 428, 717, 90, 595, 169, 590, 19,
  0,
];

/**
 * How often ordinary text holds a run of characters from these sets (per 100,000 for each
 * set): lower is rarer. What callers use to choose a literal's fingerprint.
 *
 * @example
 * ```ts
 * commonness(['J', 'K']) < commonness(['e', 't']); // true
 * ```
 */
export function commonness(sets: Fingerprint): number {
  return sets.reduce((product, set) => {
    let share = 0;
    for (const code of new Set([...set].map((ch) => ch.charCodeAt(0) & 0xff))) share += FREQUENCY[code] ?? 0.1;
    return product * share;
  }, 1);
}

/** Per position, the low and the high nibbles a bucket accepts (bit masks of 16). */
interface Nibbles {
  low: number[];
  high: number[];
}

/** How often a bucket with these nibbles is expected to fire at a position (per 100,000³). */
function expected({ low, high }: Nibbles): number {
  let product = 1;
  for (let j = 0; j < 3; j++) {
    let share = 0;
    for (let l = 0; l < 16; l++)
      if (low[j]! & (1 << l))
        for (let h = 0; h < 16; h++) if (high[j]! & (1 << h)) share += FREQUENCY[(h << 4) | l] ?? 0.1;
    product *= share;
  }
  return product;
}

function nibblesOf(fingerprint: Fingerprint): Nibbles {
  const made: Nibbles = { low: [], high: [] };
  for (let j = 0; j < 3; j++) {
    const set = fingerprint[j];
    let l = set === undefined ? 0xffff : 0;
    let h = set === undefined ? 0xffff : 0;
    for (const ch of set ?? '') {
      const code = ch.charCodeAt(0) & 0xff;
      l |= 1 << (code & 15);
      h |= 1 << (code >> 4);
    }
    made.low.push(l);
    made.high.push(h);
  }
  return made;
}

const union = (a: Nibbles, b: Nibbles): Nibbles => ({
  low: a.low.map((x, j) => x | b.low[j]!),
  high: a.high.map((x, j) => x | b.high[j]!),
});

/**
 * Tables for these fingerprints. Each goes to the bucket where it adds the fewest expected
 * false alarms (by how often ordinary text holds the bytes a bucket accepts), then single
 * moves that lower the total are made while there are any.
 */
export function planScan(fingerprints: readonly Fingerprint[]): ScanPlan {
  return planScans(fingerprints, 1).plans[0] as ScanPlan;
}

/**
 * How often, per 100,000 positions of ordinary text, a pass with these plans is expected to
 * flag a place it must then check (what a plan holding too many fingerprints costs).
 */
export function expectedAlarms(plans: readonly ScanPlan[]): number {
  let total = 0;
  for (const { tables } of plans)
    for (let b = 0; b < BUCKETS; b++) {
      const nibbles: Nibbles = { low: [0, 0, 0], high: [0, 0, 0] };
      for (let j = 0; j < 3; j++)
        for (let nibble = 0; nibble < 16; nibble++) {
          if ((tables[j * 32 + nibble] as number) & (1 << b)) nibbles.low[j]! |= 1 << nibble;
          if ((tables[j * 32 + 16 + nibble] as number) & (1 << b)) nibbles.high[j]! |= 1 << nibble;
        }
      total += expected(nibbles) / 1e10;
    }
  return total;
}

/**
 * Tables for these fingerprints over `count` plans (each searched by its own pass over the
 * text): the fingerprints spread over `count` times as many buckets, as `planScan` spreads
 * them; `partOf` says which plan holds each fingerprint.
 */
export function planScans(
  fingerprints: readonly Fingerprint[],
  count: number,
): { plans: ScanPlan[]; partOf: number[] } {
  const BUCKETS = 8 * count;
  const own = fingerprints.map(nibblesOf);
  const members: number[][] = Array.from({ length: BUCKETS }, () => []);
  const empty = (): Nibbles => ({ low: [0, 0, 0], high: [0, 0, 0] });
  const nibbles = (bucket: number[]) => bucket.reduce((n, i) => union(n, own[i]!), empty());
  // Each bucket's nibbles and expected alarms, kept up to date as fingerprints move.
  const held = members.map(() => empty());
  const costs = members.map(() => 0);
  const growth = (b: number, index: number) => expected(union(held[b]!, own[index]!)) - costs[b]!;
  const put = (b: number, bucket: number[]) => {
    members[b] = bucket;
    held[b] = nibbles(bucket);
    costs[b] = bucket.length === 0 ? 0 : expected(held[b]!);
  };
  const order = own.map((_, i) => i).sort((a, b) => expected(own[b]!) - expected(own[a]!));
  for (const index of order) {
    let best = 0;
    let bestGrowth = Number.POSITIVE_INFINITY;
    for (let b = 0; b < BUCKETS; b++) {
      const more = growth(b, index);
      if (more < bestGrowth) {
        bestGrowth = more;
        best = b;
      }
    }
    put(best, [...members[best]!, index]);
  }
  for (let round = 0, moved = true; moved && round < 20; round++) {
    moved = false;
    for (const index of order) {
      const from = members.findIndex((m) => m.includes(index));
      const without = members[from]!.filter((i) => i !== index);
      const saved = costs[from]! - (without.length === 0 ? 0 : expected(nibbles(without)));
      for (let b = 0; b < BUCKETS; b++) {
        if (b === from || growth(b, index) >= saved * 0.999) continue;
        put(from, without);
        put(b, [...members[b]!, index]);
        moved = true;
        break;
      }
    }
  }
  const partOf: number[] = [];
  members.forEach((bucket, b) => {
    for (const i of bucket) partOf[i] = Math.floor(b / 8);
  });
  return {
    plans: Array.from({ length: count }, (_, p) => tablesOf(members.slice(p * 8, p * 8 + 8), own, fingerprints)),
    partOf,
  };
}

/** One plan's tables for eight buckets of fingerprints (by index). */
function tablesOf(members: number[][], own: readonly Nibbles[], fingerprints: readonly Fingerprint[]): ScanPlan {
  const empty = (): Nibbles => ({ low: [0, 0, 0], high: [0, 0, 0] });
  const nibbles = (bucket: number[]) => bucket.reduce((n, i) => union(n, own[i]!), empty());
  const low = members.map((m) => nibbles(m).low);
  const high = members.map((m) => nibbles(m).high);
  const tables = new Uint8Array(96);
  for (let b = 0; b < BUCKETS; b++)
    for (let j = 0; j < 3; j++)
      for (let nibble = 0; nibble < 16; nibble++) {
        if (low[b]![j]! & (1 << nibble)) tables[j * 32 + nibble]! |= 1 << b;
        if (high[b]![j]! & (1 << nibble)) tables[j * 32 + 16 + nibble]! |= 1 << b;
      }
  const triples = new Uint8Array(8192);
  const quads = new Uint8Array(8192);
  const mark = (bitmap: Uint8Array, bit: number) => {
    bitmap[bit >> 3]! |= 1 << (bit & 7);
  };
  for (const fingerprint of members.flat().map((i) => fingerprints[i] as Fingerprint))
    for (const triple of fingerprintTriples(fingerprint))
      if (fingerprint.length < 4) mark(triples, tripleBit(triple & 0xff, (triple >> 8) & 0xff, triple >> 16));
      else
        for (const b3 of bytesOf(fingerprint[3]))
          mark(quads, quadBit(triple & 0xff, (triple >> 8) & 0xff, triple >> 16, b3));
  return { tables, triples, quads };
}

const every = [...Array(256).keys()];

/** The bytes a fingerprint's set holds (every byte for a position it leaves open). */
function bytesOf(set: string | undefined): number[] {
  return set === undefined ? every : [...new Set([...set].map((ch) => ch.charCodeAt(0) & 0xff))];
}

/**
 * Every run of three bytes a fingerprint's first three sets hold, little-endian: what the
 * low three of the bytes `candidates` reports are where it holds.
 *
 * @example
 * ```ts
 * fingerprintTriples(['k', 'e', 'yY']); // [0x79656b, 0x59656b]
 * ```
 */
export function fingerprintTriples(fingerprint: Fingerprint): number[] {
  const made: number[] = [];
  for (const b0 of bytesOf(fingerprint[0]))
    for (const b1 of bytesOf(fingerprint[1]))
      for (const b2 of bytesOf(fingerprint[2])) made.push(b0 | (b1 << 8) | (b2 << 16));
  return made;
}
