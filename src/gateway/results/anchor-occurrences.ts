/**
 * Where each anchor's literal occurs in a text: the search under the result guards'
 * prefilter. One SIMD pass (`util/literal-scan.ts`) finds the places where any of the
 * anchors could be, and each is checked here; where WebAssembly SIMD is missing, each
 * literal is searched for natively instead.
 *
 * A native search costs what the first character of what it looks for costs: `indexOf`
 * stops at every occurrence of that character. So there each literal is looked for from
 * its rarest character on (and checked whole where that is found), literals that share
 * that search share one pass, and the ~25 token prefixes holding an underscore share one
 * pass over the underscores. The SIMD pass costs the same whatever it looks for; its
 * fingerprints are runs of rare characters only so that it raises few false alarms.
 */
import {
  type Fingerprint,
  fingerprintTriples,
  literalScanner,
  type ScanPlan,
  type UnitRanges,
} from '../../util/literal-scan.js';
import { commonness, expectedAlarms, planScans } from '../../util/literal-scan-plan.js';
import { hasWideCharacters } from '../../util/wide-characters.js';
import { type Anchor, caseSet } from './anchor.js';

// V8 looks for a string shorter than this with a plain first-character scan; longer ones
// go through a slower start.
const MAX_KEY = 6;

/** Where an anchor's literal starts, relative to where its search key or fingerprint is found. */
interface Probe {
  anchor: Anchor;
  offset: number;
  /** The set the anchor was given in (a shared plan serves several). */
  set?: readonly Anchor[];
}

/** Calls `visit` with each anchor and each position where its literal is, per anchor in text order. */
export function occurrences(
  text: string,
  anchors: readonly Anchor[],
  caseless: boolean,
  visit: (anchor: Anchor, start: number) => void,
): void {
  const scanner = forceNative ? undefined : literalScanner();
  if (scanner === undefined) {
    nativeOccurrences(text, anchors, caseless, visit);
    return;
  }
  const { parts, shared } = simdPlan(anchors, caseless);
  for (const { plan, slots, probes } of parts) {
    const found = scanner.candidates(text, plan);
    for (let i = 0; i < found.length; i += 2) {
      // The anchors whose fingerprints hold the three bytes the pass saw (and a few whose
      // fingerprints share their slot), each checked whole.
      const slot = slots[slotOf(found[i + 1] as number)] as number;
      if (slot === 0) continue;
      const position = found[i] as number;
      const here = probes[slot - 1] as Probe[];
      for (let p = 0; p < here.length; p++) {
        const { anchor, offset, set } = here[p] as Probe;
        if (shared && set !== anchors) continue;
        const start = position - offset;
        if (start >= 0 && holdsAt(text, anchor.literal, start, caseless)) visit(anchor, start);
      }
    }
  }
}

/**
 * Searches `text` for several sets of anchors (and code units in `ranges`) in one SIMD
 * pass, ahead of the `occurrences` (and `firstInRanges`) calls that will ask for them:
 * those calls on the same text are then answered from this pass.
 *
 * @example
 * ```ts
 * searchAhead(text, [{ anchors: SECRET_ANCHORS, caseless: false }, { anchors: INJECTION_ANCHORS, caseless: true }]);
 * ```
 */
export function searchAhead(
  text: string,
  sets: ReadonlyArray<{ anchors: readonly Anchor[]; caseless: boolean }>,
  ranges?: UnitRanges,
): void {
  const scanner = forceNative ? undefined : literalScanner();
  const plans = sets.flatMap(({ anchors, caseless }) => simdPlan(anchors, caseless).parts.map((part) => part.plan));
  scanner?.scanAhead(text, [...new Set(plans)], ranges);
}

/**
 * For the SIMD pass: its plan, and which anchors to check where it reports a candidate,
 * by the slot of the three bytes it saw there (`slotOf`).
 */
interface SimdPlan {
  /** One or two passes' tables, each with the anchors to check at its candidates by slot. */
  parts: Array<{
    plan: ScanPlan;
    /** By slot: 0 where no fingerprint's three bytes fall, else 1 + an index into `probes`. */
    slots: Uint16Array;
    probes: Probe[][];
  }>;
  /** Whether the plan serves several sets of anchors (its probes name theirs). */
  shared: boolean;
}

// Slots for the bytes a candidate starts with: few enough to stay in the core's cache
// (8 KB), many enough that a slot seldom holds two fingerprints.
const SLOT_BITS = 12;

// What one pass over the text costs, in the pass's expected false alarms per 100,000
// positions (each a place checked for nothing): measured, a pass over 1 MB costs about
// 0.28 ms and 2,400 alarms about as much.
const ALARMS_PER_PASS = 2400;

/** The slot of the three bytes at a candidate (the low three of the four reported). */
function slotOf(bytes: number): number {
  return Math.imul(bytes & 0xffffff, 0x9e3779b1) >>> (32 - SLOT_BITS);
}

let forceNative = false;

/** For tests: search natively even where the SIMD pass is available. */
export function useNativeSearch(native: boolean): void {
  forceNative = native;
}

const simdPlans = new WeakMap<readonly Anchor[], SimdPlan>();
const sharing = new WeakMap<readonly Anchor[], ReadonlyArray<readonly Anchor[]>>();

/**
 * Lets sets of anchors searched with the same case rule share one SIMD plan: the pass
 * costs about the same for one plan whatever it holds, so two sets that are always
 * searched together cost one pass instead of two (each search still sees only its own).
 *
 * @example
 * ```ts
 * sharePlan([INJECTION_ANCHORS, SIGNAL_ANCHORS]);
 * ```
 */
export function sharePlan(sets: ReadonlyArray<readonly Anchor[]>): void {
  for (const set of sets) sharing.set(set, sets);
}

/** The SIMD tables for these anchors, and by slot the anchors to check at a candidate. */
function simdPlan(anchors: readonly Anchor[], caseless: boolean): SimdPlan {
  const known = simdPlans.get(anchors);
  if (known) return known;
  const sets = sharing.get(anchors) ?? [anchors];
  const fingerprints: Fingerprint[] = [];
  const byFingerprint = new Map<string, Probe[]>();
  for (const set of sets)
    for (const anchor of set) {
      // (The pass sees printable ASCII as itself; it could miss a literal holding other characters.)
      if (/[^ -~]/.test(anchor.literal)) throw new Error(`spans: "${anchor.literal}" is not printable ASCII`);
      const { alternatives, offset } = fingerprintsOf(anchor, caseless);
      for (const fingerprint of alternatives) {
        const key = fingerprint.join('\u0000');
        if (!byFingerprint.has(key)) {
          byFingerprint.set(key, []);
          fingerprints.push(fingerprint);
        }
        byFingerprint.get(key)?.push({ anchor, offset, set });
      }
    }
  // Two passes where one pass's buckets would hold so many fingerprints that it flags
  // places everywhere: checking them would cost more than a second pass over the text.
  const one = planScans(fingerprints, 1);
  const two = planScans(fingerprints, 2);
  const split = 1 + expectedAlarms(one.plans) / ALARMS_PER_PASS > 2 + expectedAlarms(two.plans) / ALARMS_PER_PASS;
  const { plans, partOf } = split ? two : one;
  const made: SimdPlan = {
    parts: plans.map((plan) => ({ plan, slots: new Uint16Array(1 << SLOT_BITS), probes: [] })),
    shared: sets.length > 1,
  };
  for (const [index, fingerprint] of fingerprints.entries()) {
    const part = made.parts[partOf[index] ?? 0] as SimdPlan['parts'][number];
    for (const triple of fingerprintTriples(fingerprint)) {
      const slot = slotOf(triple);
      if (part.slots[slot] === 0) part.slots[slot] = part.probes.push([]);
      const here = part.probes[(part.slots[slot] as number) - 1] as Probe[];
      // One check per anchor and offset in a slot, whichever of its fingerprints brought it there.
      for (const probe of byFingerprint.get(fingerprint.join('\u0000')) ?? [])
        if (!here.some((k) => k.anchor === probe.anchor && k.offset === probe.offset && k.set === probe.set))
          here.push(probe);
    }
  }
  for (const set of sets) simdPlans.set(set, made);
  return made;
}

/**
 * An anchor's fingerprints: its own, or four of its characters (as many as it has, up to
 * four) from `fingerprintAt` or from the run of three that ordinary text should hold least
 * by how common each letter is.
 */
export function fingerprintsOf(
  anchor: Anchor,
  caseless: boolean,
): { alternatives: readonly Fingerprint[]; offset: number } {
  if (anchor.fingerprints !== undefined)
    return { alternatives: anchor.fingerprints, offset: anchor.fingerprintAt ?? 0 };
  const { literal } = anchor;
  const cased = (ch: string) => caseSet(ch, caseless);
  const width = Math.min(3, literal.length);
  let best = anchor.fingerprintAt ?? 0;
  let bestScore = Number.POSITIVE_INFINITY;
  if (anchor.fingerprintAt === undefined)
    for (let at = 0; at + width <= literal.length; at++) {
      // The character after the run counts too: the exact check reads it, so a run that
      // ends the literal ("ion" of "attention") stops at every word that ends so.
      const next = literal.charAt(at + width);
      const score =
        commonness([...literal.slice(at, at + width)].map(cased)) * (next ? commonness([cased(next)]) / 100_000 : 1);
      if (score < bestScore) {
        bestScore = score;
        best = at;
      }
    }
  // And the character after the run, which only the exact check reads.
  const sets = [...literal.slice(best, best + width + 1)].map(cased);
  return { alternatives: [sets], offset: best };
}

/**
 * Whether `literal` is in `text` at `at` (`caseless`: the literal given in lower case,
 * ASCII letters in the text in either). `startsWith` copies the part it compares when the
 * text is kept in two bytes per character and the literal in one (about 0.2 µs a call);
 * comparing the characters costs nothing.
 */
function holdsAt(text: string, literal: string, at: number, caseless = false): boolean {
  if (at < 0 || at + literal.length > text.length) return false;
  for (let i = 0; i < literal.length; i++) {
    let code = text.charCodeAt(at + i);
    if (caseless && code >= 65 && code <= 90) code += 32;
    if (code !== literal.charCodeAt(i)) return false;
  }
  return true;
}

interface NativePlan {
  /** One search per distinct key, with the anchors it serves. */
  searches: Array<{ key: string; probes: Probe[] }>;
  /** Anchors holding an underscore, by the character code before their first one (-1: it starts the literal). */
  pivoted: Map<number, Probe[]>;
}

/** The native search, one `indexOf` pass per search key and one over the underscores. */
function nativeOccurrences(
  text: string,
  anchors: readonly Anchor[],
  caseless: boolean,
  visit: (anchor: Anchor, start: number) => void,
): void {
  const view = scanView(text, caseless);
  const { searches, pivoted } = nativePlan(anchors, caseless);
  for (const { key, probes } of searches)
    for (let at = view.indexOf(key); at !== -1; at = view.indexOf(key, at + 1))
      for (const { anchor, offset } of probes) {
        const start = at - offset;
        if (start < 0 || (anchor.literal.length !== key.length && !holdsAt(view, anchor.literal, start))) continue;
        visit(anchor, start);
      }
  // One pass over the underscores instead of one per token prefix; the character before
  // each picks the few prefixes that could end there.
  if (pivoted.size > 0)
    for (let at = view.indexOf('_'); at !== -1; at = view.indexOf('_', at + 1)) {
      for (const { anchor, offset } of pivoted.get(view.charCodeAt(at - 1)) ?? [])
        if (holdsAt(view, anchor.literal, at - offset)) visit(anchor, at - offset);
      for (const { anchor, offset } of pivoted.get(-1) ?? [])
        if (holdsAt(view, anchor.literal, at - offset)) visit(anchor, at - offset);
    }
}

let last: { text: string; view: string } | undefined;

/**
 * The text to search natively in: the text itself, or for `caseless` a lower-cased copy.
 * A text V8 keeps in two bytes per character is first copied to one byte per character
 * (each character's low seven bits), as V8 lower-cases a two-byte string several times
 * slower; the copy keeps every position and every ASCII character (the anchors are
 * ASCII), and a character it turns into another can only add a span, never hide one. The
 * last copy made is kept, for the next search over the same text.
 */
function scanView(text: string, caseless: boolean): string {
  if (!caseless) return text;
  if (last !== undefined && last.text === text) return last.view;
  const narrow = hasWideCharacters(text) ? Buffer.from(text, 'latin1').toString('ascii') : text;
  last = { text, view: narrow.toLowerCase() };
  return last.view;
}

const nativePlans = new WeakMap<readonly Anchor[], NativePlan>();

function nativePlan(anchors: readonly Anchor[], caseless: boolean): NativePlan {
  const known = nativePlans.get(anchors);
  if (known) return known;
  const made: NativePlan = { searches: [], pivoted: new Map() };
  const byKey = new Map<string, Probe[]>();
  for (const anchor of anchors) {
    const underscore = anchor.literal.indexOf('_');
    if (underscore !== -1 && anchor.search === undefined) {
      const code = underscore === 0 ? -1 : anchor.literal.charCodeAt(underscore - 1);
      made.pivoted.set(code, [...(made.pivoted.get(code) ?? []), { anchor, offset: underscore }]);
      continue;
    }
    const { key, offset } = searchKey(anchor, caseless);
    byKey.set(key, [...(byKey.get(key) ?? []), { anchor, offset }]);
  }
  for (const [key, probes] of byKey) made.searches.push({ key, probes });
  nativePlans.set(anchors, made);
  return made;
}

/**
 * What to look for natively to find an anchor: its `search` if given, else the part of
 * its literal from its rarest character on (at least two characters where it has them).
 */
function searchKey(anchor: Anchor, caseless: boolean): { key: string; offset: number } {
  const { literal } = anchor;
  if (anchor.search !== undefined) {
    const offset = literal.indexOf(anchor.search);
    if (offset === -1) throw new Error(`spans: "${anchor.search}" is not part of "${literal}"`);
    return { key: anchor.search, offset };
  }
  const shortest = Math.min(2, literal.length);
  let best = 0;
  for (let at = 1; at + shortest <= literal.length; at++)
    if (commonness([caseSet(literal.charAt(at), caseless)]) < commonness([caseSet(literal.charAt(best), caseless)]))
      best = at;
  return { key: literal.slice(best, best + MAX_KEY), offset: best };
}
