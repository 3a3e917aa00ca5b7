/**
 * Where in a text any of many short literals could start, found by one SIMD pass in
 * WebAssembly (`literal-scan.wat`, a filter in the manner of Hyperscan's "Teddy") instead
 * of one native search per literal. Each literal is given a fingerprint (up to four
 * character sets, one per position) and one of 8 buckets (`literal-scan-plan.ts`); the
 * pass reports each position where some fingerprint may start, with the bytes there, by
 * which callers find which fingerprints hold. A report can be a false alarm, never a
 * miss: callers check the literal there.
 *
 * The pass sees one byte per character, at the text's own positions: a character up to
 * U+00FF as itself, U+0100 to U+7FFF as 0xFF and U+8000 up as 0x00 (`passBytesOf` turns a
 * set of characters into what the pass sees). The same copy of the text answers
 * `firstInRanges`, the invisible-character check. Where WebAssembly's SIMD is missing
 * (`--jitless`, an old engine) `literalScanner()` returns undefined and callers search
 * natively.
 */

import type { ScanPlan } from './literal-scan-plan.js';
import { WASM_BASE64, WASM_RELAXED_BASE64 } from './literal-scan-wasm.js';
import { avoidWasmInliningFault } from './wasm-inlining.js';

export type { Fingerprint, ScanPlan } from './literal-scan-plan.js';
export { fingerprintTriples, planScan } from './literal-scan-plan.js';

interface Exports {
  memory: WebAssembly.Memory;
  find(start: number, end: number, out: number, tables: number, masks: number, base: number): number;
  narrow(
    src: number,
    dst: number,
    count: number,
    ranges: number,
    rangeCount: number,
    floor: number,
    flags: number,
  ): number;
}

/** Inclusive ranges of UTF-16 code units (from U+0100 up). */
export type UnitRanges = readonly (readonly [number, number])[];

// Memory: scratch at 0, code-unit ranges at 16, the tables of up to SLOTS plans from
// PLANS (each SLOT bytes: the nibble tables, then 128 bytes on the triples' bitmap and
// after it the quads'), then from UNITS a chunk of the text as UTF-16, as the pass sees
// it, and each plan's candidates.
const RANGES = 16;
const MAX_RANGES = 250;
const PLANS = 1024;
const SLOT = 128 + 8192 + 8192;
const SLOTS = 4;
const UNITS = PLANS + SLOTS * SLOT;
// Zero bytes after each copy: the passes read past the last 16-byte block.
const PAD = 64;
// A text goes through in chunks of this many characters, each searched for everything
// asked of it while it is in the core's cache: a pass over a 1 MB copy that has left the
// cache costs half as much again as one over a copy in it (measured).
const CHUNK = 32 * 1024;
// The characters past a chunk that fingerprints starting in it may reach (four long).
const LOOKAHEAD = 3;

const aligned = (n: number) => (n + 15) & ~15;
const BYTES = aligned(UNITS + 2 * (CHUNK + LOOKAHEAD) + PAD);
const OUT = aligned(BYTES + CHUNK + LOOKAHEAD + PAD);
// Per plan, room for the candidates (two i32 each) of two chunks at worst; gathered in
// JavaScript when another chunk might not fit.
const OUT_PAIRS = 2 * (CHUNK + LOOKAHEAD + 16);
const OUT_SIZE = 8 * OUT_PAIRS;
// Four bytes per 16-byte block (the pass looks at one past the chunk).
const MASKS = OUT + SLOTS * OUT_SIZE;
// One byte per group of 256 units: whether it holds a unit in the ranges looked for.
const GROUP = 256;
const FLAGS = MASKS + aligned(4 * (Math.ceil((CHUNK + LOOKAHEAD) / 16) + 2));
const MEMORY_END = FLAGS + aligned(Math.ceil((CHUNK + LOOKAHEAD) / GROUP) + 1);

let instance: Exports | null | undefined;
let relaxed = false;

function exportsOrNull(): Exports | null {
  if (instance !== undefined) return instance;
  avoidWasmInliningFault();
  instance = null;
  // The relaxed-SIMD build where the engine has it (Node 22 and later), else the plain one.
  for (const [base64, isRelaxed] of [
    [WASM_RELAXED_BASE64, true],
    [WASM_BASE64, false],
  ] as const) {
    try {
      const bytes = Buffer.from(base64, 'base64');
      if (!WebAssembly.validate(bytes)) continue;
      const made = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports as unknown as Exports;
      made.memory.grow(Math.ceil(MEMORY_END / 65536) - made.memory.buffer.byteLength / 65536);
      instance = made;
      relaxed = isRelaxed;
      break;
    } catch {
      // The next build, or none: callers then search natively.
    }
  }
  return instance;
}

/** The plans whose tables are in memory, by slot. */
const slots: Array<ScanPlan | undefined> = [];
let nextSlot = 0;

/** The slot holding `plan`'s tables, copying them in (over the slot used longest ago) if none does. */
function slotOf(wasm: Exports, plan: ScanPlan, keep: readonly ScanPlan[]): number {
  let slot = slots.indexOf(plan);
  if (slot === -1) {
    do slot = nextSlot++ % SLOTS;
    while (keep.includes(slots[slot] as ScanPlan));
    const at = PLANS + slot * SLOT;
    new Uint8Array(wasm.memory.buffer, at, 96).set(plan.tables);
    new Uint8Array(wasm.memory.buffer, at + 128, 8192).set(plan.triples);
    new Uint8Array(wasm.memory.buffer, at + 128 + 8192, 8192).set(plan.quads);
    slots[slot] = plan;
  }
  return PLANS + slot * SLOT;
}

/** What one pass over a text found: candidates per plan, and the first unit in the ranges. */
interface Scan {
  text: string;
  found: Map<ScanPlan, Int32Array>;
  ranges: UnitRanges | undefined;
  /** The stretches (of whole groups of 256 units) holding a unit in the ranges, in text order. */
  wide: Array<[number, number]>;
  /** At or before the first unit in the ranges (within its block of eight), or -1. */
  first: number;
}

/**
 * The last pass made ahead of the searches of a text, and the last pass of any kind: the
 * searches of a text's small views in between (each a pass of its own) do not make the
 * large text's pass be made again.
 */
let ahead: Scan | undefined;
let last: Scan | undefined;

function scan(wasm: Exports, text: string, plans: readonly ScanPlan[], ranges: UnitRanges | undefined): Scan {
  if (plans.length > SLOTS) throw new RangeError(`literal scan: at most ${SLOTS} plans in one pass`);
  if (ranges !== undefined && ranges.length > MAX_RANGES)
    throw new RangeError(`literal scan: at most ${MAX_RANGES} ranges`);
  const tables = plans.map((plan) => slotOf(wasm, plan, plans));
  // Per plan, the candidates gathered so far and how many wait in its output area.
  const pieces: Int32Array[][] = plans.map(() => []);
  const waiting = plans.map(() => 0);
  const wide: Array<[number, number]> = [];
  let first = -1;
  // The unit below the lowest range while they are looked for (in every chunk); 0xFFFF when not.
  const floor = ranges === undefined ? 0xffff : putRanges(wasm, ranges);
  const memory = Buffer.from(wasm.memory.buffer);
  const entries = new Int32Array(wasm.memory.buffer);
  for (let from = 0; from < text.length; from += CHUNK) {
    const length = Math.min(text.length - from, CHUNK + LOOKAHEAD);
    const own = Math.min(length, CHUNK);
    memory.write(
      from === 0 && length === text.length ? text : text.slice(from, from + length),
      UNITS,
      2 * length,
      'utf16le',
    );
    memory.fill(0, UNITS + 2 * length, UNITS + 2 * length + PAD);
    // The copy for the passes looks for the ranges on the way: the first unit in them, per chunk.
    const at = wasm.narrow(UNITS, BYTES, length, RANGES, ranges?.length ?? 0, floor, FLAGS);
    if (at !== -1) {
      if (first === -1) first = from + at / 2;
      const flags = new Uint8Array(wasm.memory.buffer, FLAGS, Math.ceil(length / GROUP));
      for (let g = 0; g < flags.length; g++) {
        if (flags[g] === 0 || g * GROUP >= own) continue;
        const start = from + g * GROUP;
        const end = from + Math.min(own, (g + 1) * GROUP);
        const last = wide.at(-1);
        if (last !== undefined && last[1] === start) last[1] = end;
        else wide.push([start, end]);
      }
    }
    if (plans.length === 0) continue;
    memory.fill(0, BYTES + length, BYTES + length + PAD);
    for (let k = 0; k < plans.length; k++) {
      const out = OUT + k * OUT_SIZE;
      if (waiting[k]! + CHUNK + LOOKAHEAD + 16 > OUT_PAIRS) {
        (pieces[k] as Int32Array[]).push(entries.slice(out >> 2, (out >> 2) + 2 * waiting[k]!));
        waiting[k] = 0;
      }
      waiting[k]! += wasm.find(BYTES, BYTES + own, out + 8 * waiting[k]!, tables[k] as number, MASKS, from);
    }
  }
  const found = new Map<ScanPlan, Int32Array>();
  plans.forEach((plan, k) => {
    const out = (OUT + k * OUT_SIZE) >> 2;
    const parts = [...(pieces[k] as Int32Array[]), entries.slice(out, out + 2 * waiting[k]!)];
    found.set(plan, parts.length === 1 ? (parts[0] as Int32Array) : concat(parts));
  });
  last = { text, found, ranges, wide, first };
  return last;
}

/** The ranges in memory now, and the unit below the lowest of them. */
let rangesHeld: { ranges: UnitRanges; floor: number } | undefined;

/** Puts the ranges in memory (first unit, width minus one), unless they are there, and gives the unit below the lowest. */
function putRanges(wasm: Exports, ranges: UnitRanges): number {
  if (rangesHeld?.ranges === ranges) return rangesHeld.floor;
  new Uint16Array(wasm.memory.buffer, RANGES, 2 * ranges.length).set(
    ranges.flatMap(([first, end]) => [first, end - first]),
  );
  rangesHeld = { ranges, floor: Math.min(...ranges.map(([first]) => first)) - 1 };
  return rangesHeld.floor;
}

function concat(parts: readonly Int32Array[]): Int32Array {
  const all = new Int32Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}

/** What `literalScanner()` gives: the SIMD passes over a text. */
export interface LiteralScanner {
  /** Which build runs: with relaxed SIMD (Node 22 and later) or without. */
  readonly simd: 'relaxed' | 'plain';
  /**
   * Every position (in text order) where a fingerprint of `plan` may start, each followed
   * by the four bytes the pass saw from there (little-endian; 0 past the text), which say
   * which fingerprints hold there (`fingerprintTriples`): position, bytes, position...
   */
  candidates(text: string, plan: ScanPlan): Int32Array;
  /**
   * A position at or before the first code unit of `text` inside any of `ranges`
   * (inclusive pairs of code units from U+0100 up), or -1 when there is none.
   */
  firstInRanges(text: string, ranges: UnitRanges): number;
  /**
   * Where `text` may hold code units inside `ranges`: per stretch of the text (in order) that
   * holds one, a position at or before its first such unit, and the stretch's end. None
   * outside these; a caller looking for every such unit reads only these stretches.
   */
  stretchesInRanges(text: string, ranges: UnitRanges): ReadonlyArray<readonly [number, number]>;
  /** Whether the last pass was over `text` and looked for `ranges`: `firstInRanges` then costs nothing. */
  remembers(text: string, ranges: UnitRanges): boolean;
  /**
   * One pass over `text` for up to four plans and a set of ranges: the `candidates` and
   * `firstInRanges` calls that follow on the same text (and the same plan or ranges
   * object) are answered from it, so the text is copied and read once, a cached chunk at
   * a time, however many searches are made of it.
   */
  scanAhead(text: string, plans: readonly ScanPlan[], ranges?: UnitRanges): void;
}

/** A remembered pass over `text` that looked for `ranges`. */
function remembered(text: string, ranges: UnitRanges): Scan | undefined {
  for (const scan of [last, ahead]) if (scan?.text === text && scan.ranges === ranges) return scan;
  return undefined;
}

/** A remembered pass over `text` that looked for `plan`'s fingerprints. */
function rememberedFor(text: string, plan: ScanPlan): Int32Array | undefined {
  return (
    (last?.text === text ? last.found.get(plan) : undefined) ??
    (ahead?.text === text ? ahead.found.get(plan) : undefined)
  );
}

/** The SIMD passes, or undefined where WebAssembly SIMD is not available. */
export function literalScanner(): LiteralScanner | undefined {
  const wasm = exportsOrNull();
  if (wasm === null) return undefined;
  return {
    simd: relaxed ? 'relaxed' : 'plain',
    candidates(text, plan) {
      return rememberedFor(text, plan) ?? (scan(wasm, text, [plan], undefined).found.get(plan) as Int32Array);
    },
    firstInRanges(text, ranges) {
      return (remembered(text, ranges) ?? scan(wasm, text, [], ranges)).first;
    },
    stretchesInRanges(text, ranges) {
      return (remembered(text, ranges) ?? scan(wasm, text, [], ranges)).wide;
    },
    remembers(text, ranges) {
      return remembered(text, ranges) !== undefined;
    },
    scanAhead(text, plans, ranges) {
      ahead = scan(wasm, text, plans, ranges);
    },
  };
}

/**
 * What the pass sees of the characters `test` accepts: a fingerprint's set for "a
 * character `test` accepts".
 *
 * @example
 * ```ts
 * passBytesOf(/\s/); // '\t\n\v\f\r \u00a0\u00ff\u0000' (U+1680, U+2000… as 0xFF, U+FEFF as 0x00)
 * ```
 */
export function passBytesOf(test: RegExp): string {
  const key = `${test.source}/${test.flags}`;
  const known = passBytes.get(key);
  if (known !== undefined) return known;
  const bytes = new Set<number>();
  for (let code = 0; code < 0x10000; code++) if (test.test(String.fromCharCode(code))) bytes.add(passByte(code));
  const made = String.fromCharCode(...[...bytes].sort((a, b) => a - b));
  passBytes.set(key, made);
  return made;
}

const passBytes = new Map<string, string>();

/** The byte the pass sees for a UTF-16 code unit. */
export function passByte(code: number): number {
  return code < 0x100 ? code : code < 0x8000 ? 0xff : 0;
}
