/**
 * Where in a text any of many short literals could start, found by one SIMD pass in
 * WebAssembly (`literal-scan.wat`, a filter in the manner of Hyperscan's "Teddy") instead
 * of one native search per literal. Each literal is given a fingerprint (up to three
 * character sets, one per position) and one of 8 buckets (`literal-scan-plan.ts`); the
 * pass reports each position whose next bytes some bucket's fingerprints may hold. A
 * report can be a false alarm, never a miss: callers check the literal there.
 *
 * The pass sees one byte per character, at the text's own positions: a character up to
 * U+00FF as itself, U+0100 to U+7FFF as 0xFF and U+8000 up as 0x00 (`passBytesOf` turns a
 * set of characters into what the pass sees). The same copy of the text answers
 * `firstInRanges`, the invisible-character check. Where WebAssembly's SIMD is missing
 * (`--jitless`, an old engine) `literalScanner()` returns undefined and callers search
 * natively.
 */

import type { ScanPlan } from './literal-scan-plan.js';
import { WASM_BASE64 } from './literal-scan-wasm.js';
import { avoidWasmInliningFault } from './wasm-inlining.js';

export type { Fingerprint, ScanPlan } from './literal-scan-plan.js';
export { planScan } from './literal-scan-plan.js';

interface Exports {
  memory: WebAssembly.Memory;
  find(start: number, end: number, out: number): number;
  findWide(start: number, end: number, ranges: number, count: number, floor: number): number;
  narrow(src: number, dst: number, count: number): void;
}

// Memory: the tables at 0, scratch at 96, code-unit ranges at 256, the triples' bitmap at
// 8192, then the window of the text as UTF-16, as the pass sees it, and the candidates.
const RANGES = 256;
const TRIPLES = 8192;
const UNITS = 16384;
// Zero bytes after each copy: the passes read past the last 16-byte block.
const PAD = 64;
// Longer texts go through in windows of this many characters.
const WINDOW = 1024 * 1024;

let instance: Exports | null | undefined;

/** The plan whose tables are in memory (growing the memory keeps them). */
let tablesOf: ScanPlan | undefined;

function exportsOrNull(): Exports | null {
  if (instance !== undefined) return instance;
  avoidWasmInliningFault();
  try {
    const bytes = Buffer.from(WASM_BASE64, 'base64');
    instance = WebAssembly.validate(bytes)
      ? (new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports as unknown as Exports)
      : null;
  } catch {
    instance = null;
  }
  return instance;
}

/** Where a window of `length` characters sits in memory. */
function layout(length: number) {
  const bytes = UNITS + ((2 * length + PAD + 15) & ~15);
  const out = bytes + ((length + PAD + 15) & ~15);
  return { bytes, out, end: out + 4 * (length + 16) };
}

/** The window of the text now in memory, so a second pass over it copies nothing. */
let loaded: { text: string; from: number; length: number } | undefined;

/**
 * Puts characters `from` to `from + length` of `text` in memory, as UTF-16 and as what the
 * pass sees. Writing UTF-16 costs Node about what writing one byte per character does (a
 * one-byte string is widened), and the narrowing in WebAssembly is a few microseconds per
 * 100 KB.
 */
function load(wasm: Exports, text: string, from: number, length: number): void {
  if (loaded !== undefined && loaded.text === text && loaded.from === from && loaded.length === length) return;
  const part = from === 0 && length === text.length ? text : text.slice(from, from + length);
  const { bytes, end } = layout(length);
  if (end > wasm.memory.buffer.byteLength) wasm.memory.grow(Math.ceil((end - wasm.memory.buffer.byteLength) / 65536));
  const memory = Buffer.from(wasm.memory.buffer);
  memory.write(part, UNITS, 2 * length, 'utf16le');
  memory.fill(0, UNITS + 2 * length, UNITS + 2 * length + PAD);
  wasm.narrow(UNITS, bytes, length);
  memory.fill(0, bytes + length, bytes + length + PAD);
  loaded = { text, from, length };
}

/** What `literalScanner()` gives: the SIMD passes over a text. */
export interface LiteralScanner {
  /**
   * Every position (in text order) where a fingerprint of `plan` may start, each followed
   * by the buckets (bits 0–7) whose fingerprints may: position, buckets, position...
   */
  candidates(text: string, plan: ScanPlan): Int32Array;
  /**
   * A position at or before the first code unit of `text` inside any of `ranges`
   * (inclusive pairs of code units from U+0100 up), or -1 when there is none.
   */
  firstInRanges(text: string, ranges: readonly (readonly [number, number])[]): number;
}

/** The SIMD passes, or undefined where WebAssembly SIMD is not available. */
export function literalScanner(): LiteralScanner | undefined {
  const wasm = exportsOrNull();
  if (wasm === null) return undefined;
  return {
    candidates(text, plan) {
      let found = new Int32Array(0);
      let size = 0;
      for (let from = 0; from < text.length; from += WINDOW) {
        const last = from + WINDOW >= text.length;
        // Two characters past the window, for fingerprints starting at its end.
        const length = Math.min(text.length - from, WINDOW + 2);
        load(wasm, text, from, length);
        const { bytes, out } = layout(length);
        if (tablesOf !== plan) {
          new Uint8Array(wasm.memory.buffer, 0, 96).set(plan.tables);
          new Uint8Array(wasm.memory.buffer, TRIPLES, 8192).set(plan.triples);
          tablesOf = plan;
        }
        const count = wasm.find(bytes, bytes + length, out);
        const entries = new Int32Array(wasm.memory.buffer, out, count);
        const stop = bytes + (last ? length : WINDOW);
        if (size + 2 * count > found.length) {
          const grown = new Int32Array(size + 2 * count);
          grown.set(found.subarray(0, size));
          found = grown;
        }
        for (let i = 0; i < count; i++) {
          const entry = entries[i] as number;
          const offset = entry >>> 8;
          if (offset >= stop) break;
          found[size++] = from + offset - bytes;
          found[size++] = entry & 0xff;
        }
      }
      return found.subarray(0, size);
    },
    firstInRanges(text, ranges) {
      const floor = Math.min(...ranges.map(([first]) => first)) - 1;
      const table = new Uint16Array(ranges.flatMap(([first, end]) => [first, end - first]));
      for (let from = 0; from < text.length; from += WINDOW) {
        // The windows `candidates` loads, so one copy serves both.
        const length = Math.min(text.length - from, WINDOW + 2);
        load(wasm, text, from, length);
        new Uint16Array(wasm.memory.buffer, RANGES, table.length).set(table);
        const at = wasm.findWide(UNITS, UNITS + 2 * length, RANGES, ranges.length, floor);
        if (at !== -1) return from + (at - UNITS) / 2;
      }
      return -1;
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
