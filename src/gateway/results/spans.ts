/**
 * The prefilter of the result guards: the few places in a text where a rule could match.
 * Every rule this guard runs needs some literal in each of its matches (a token's prefix,
 * `://`, `PRIVATE KEY`...). Native `indexOf` searches, far cheaper than the rules' own
 * regular expressions, find those places; the rules then run only on a span around each,
 * wide enough to hold any match that contains it.
 *
 * A search costs what the first character of what it looks for costs: `indexOf` stops at
 * every occurrence of that character. So each literal is looked for from its rarest
 * character on (and checked whole where that is found), literals that share that search
 * share one pass, and the ~25 token prefixes holding an underscore share one pass over
 * the underscores.
 */
import { hasWideCharacters } from '../../util/wide-characters.js';

/** A literal every match of some rules contains, and how far such a match reaches around it. */
export interface Anchor {
  literal: string;
  /** Rules that can only match where this literal is. */
  rules: readonly string[];
  /** What to look for to find the literal (a part of it starting with a rare character); chosen when absent. */
  search?: string;
  /** Characters a match can start before the literal (default 64). */
  before?: number;
  /** Characters a match can end after the literal, before the span stretches to the next stop (default 64). */
  after?: number;
  /** Where a match of these rules must end instead: the first occurrence of this after the literal. */
  until?: string;
  /** Text every match also holds within `nearWithin` characters after the literal (the `@` after a URL's password). */
  near?: string;
  nearWithin?: number;
  /** What must follow the literal at once in the text (a sticky expression), else no match holds it. */
  followedBy?: RegExp;
  /** What must come just before the literal in the text (a sticky, zero-width lookbehind tried at its start). */
  precededBy?: RegExp;
}

/** A part of a text the rules must see, and which rules. */
export interface Span {
  start: number;
  end: number;
  rules: Set<string>;
}

// Where a stretched span may stop: whitespace, quotes and angle brackets never sit inside
// a token, so a token running past `after` is seen whole rather than cut (a cut token
// could look like a shorter, valid one), however long it is.
const STOP = /[\s"'<>`]/g;

// How far a span may stretch to find a stop, after `after`.
const STRETCH = 16 * 1024;

// Printable ASCII from the rarest to the commonest in ordinary results (source files,
// JSON documents and logs, measured by `bench/result-guards.ts`), as written and folded to
// lower case. Any other character counts as rarer than all of these.
const RARITY = '%~QXZYJK$^WVG!Hz@<BFU#?L87Dq&N|+M>9OPC][RIAj5E`3TS\'_xw*64k;}{vy=10/2)(bf\\-,gh:mpu.cd"lionsarte ';
const RARITY_CASELESS = '%~$^!@<z#?87&q|+>9][5`j3\'_*x6w4k;}{v=y10/2)(b\\-,fgh:m.up"dclionarste ';

// V8 looks for a string shorter than this with a plain first-character scan; longer ones
// go through a slower start.
const MAX_KEY = 6;

/**
 * The merged spans around every occurrence of every anchor, in text order. With
 * `caseless`, the anchors (given in lower case) are found in any case.
 *
 * @example
 * ```ts
 * spans('x'.repeat(500) + 'ghp_…', [{ literal: 'ghp_', rules: ['github'] }]); // [{ start: 436, end: …, rules: Set { 'github' } }]
 * ```
 */
export function spans(text: string, anchors: readonly Anchor[], options: { caseless?: boolean } = {}): Span[] {
  const caseless = options.caseless ?? false;
  const found: Span[] = [];
  const view = scanView(text, caseless);
  // The first stop at or after a position; remembered, as many spans stretch to the same one.
  let stopFrom = 0;
  let stopAt = -1;
  const nextStop = (from: number): number => {
    if (from >= stopFrom && from <= stopAt) return stopAt;
    STOP.lastIndex = from;
    stopFrom = from;
    stopAt = STOP.exec(text)?.index ?? text.length;
    return stopAt;
  };
  const add = (anchor: Anchor, at: number) => {
    if (anchor.precededBy !== undefined) {
      anchor.precededBy.lastIndex = at;
      if (!anchor.precededBy.test(text)) return;
    }
    if (anchor.followedBy !== undefined) {
      anchor.followedBy.lastIndex = at + anchor.literal.length;
      if (!anchor.followedBy.test(text)) return;
    }
    if (anchor.until !== undefined) {
      const close = text.indexOf(anchor.until, at + anchor.literal.length);
      // No closing text: no match of these rules can start here.
      if (close !== -1)
        found.push({
          start: Math.max(0, at - (anchor.before ?? 64)),
          end: close + anchor.until.length,
          rules: new Set(anchor.rules),
        });
      return;
    }
    const reach = Math.min(text.length, at + anchor.literal.length + (anchor.after ?? 64));
    const end = Math.min(nextStop(reach), reach + STRETCH);
    found.push({ start: Math.max(0, at - (anchor.before ?? 64)), end, rules: new Set(anchor.rules) });
  };
  const { searches, pivoted } = plan(anchors, caseless);
  for (const { key, probes } of searches) {
    // Per probe: the next `near` text, looked for again only once the search has passed it.
    const near: number[] = [];
    for (let at = view.indexOf(key); at !== -1; at = view.indexOf(key, at + 1)) {
      for (const [index, { anchor, offset }] of probes.entries()) {
        const start = at - offset;
        if (start < 0 || (anchor.literal.length !== key.length && !holdsAt(view, anchor.literal, start))) continue;
        if (anchor.near !== undefined) {
          let next = near[index] ?? -1;
          if (next !== Number.POSITIVE_INFINITY && next < start) {
            next = view.indexOf(anchor.near, start);
            near[index] = next === -1 ? Number.POSITIVE_INFINITY : next;
          }
          if ((near[index] as number) > start + anchor.literal.length + (anchor.nearWithin ?? 0)) continue;
        }
        add(anchor, start);
      }
    }
  }
  // One pass over the underscores instead of one per token prefix; the character before
  // each picks the few prefixes that could end there.
  if (pivoted.size > 0)
    for (let at = view.indexOf('_'); at !== -1; at = view.indexOf('_', at + 1)) {
      for (const { anchor, offset } of pivoted.get(view.charCodeAt(at - 1)) ?? [])
        if (holdsAt(view, anchor.literal, at - offset)) add(anchor, at - offset);
      for (const { anchor, offset } of pivoted.get(-1) ?? [])
        if (holdsAt(view, anchor.literal, at - offset)) add(anchor, at - offset);
    }
  if (found.length < 2) return found;
  found.sort((a, b) => a.start - b.start);
  const merged: Span[] = [found[0] as Span];
  for (let i = 1; i < found.length; i++) {
    const span = found[i] as Span;
    const last = merged[merged.length - 1] as Span;
    if (span.start <= last.end) {
      last.end = Math.max(last.end, span.end);
      for (const rule of span.rules) last.rules.add(rule);
    } else merged.push(span);
  }
  return merged;
}

let last: { text: string; view: string } | undefined;

/**
 * The text to search in: the text itself, or for `caseless` a lower-cased copy. A text V8
 * keeps in two bytes per character is first copied to one byte per character (each
 * character's low seven bits), as V8 lower-cases a two-byte string several times slower;
 * the copy keeps every position and every ASCII character (the anchors are ASCII), and a
 * character it turns into another can only add a span, never hide one. The last copy
 * made is kept, for the next search over the same text.
 */
function scanView(text: string, caseless: boolean): string {
  if (!caseless) return text;
  if (last !== undefined && last.text === text) return last.view;
  const narrow = hasWideCharacters(text) ? Buffer.from(text, 'latin1').toString('ascii') : text;
  last = { text, view: narrow.toLowerCase() };
  return last.view;
}

/**
 * Whether `literal` is in `text` at `at`. `startsWith` copies the part it compares when the
 * text is kept in two bytes per character and the literal in one (about 0.2 µs a call,
 * 1 ms over the underscores of 1 MB of source); comparing the characters costs nothing.
 */
function holdsAt(text: string, literal: string, at: number): boolean {
  if (at < 0 || at + literal.length > text.length) return false;
  for (let i = 0; i < literal.length; i++) if (text.charCodeAt(at + i) !== literal.charCodeAt(i)) return false;
  return true;
}

/** Where an anchor's literal starts, relative to where its search key is found. */
interface Probe {
  anchor: Anchor;
  offset: number;
}

interface Plan {
  /** One search per distinct key, with the anchors it serves. */
  searches: Array<{ key: string; probes: Probe[] }>;
  /** Anchors holding an underscore, by the character code before their first one (-1: it starts the literal). */
  pivoted: Map<number, Probe[]>;
}

const plans = new WeakMap<readonly Anchor[], Plan>();

function plan(anchors: readonly Anchor[], caseless: boolean): Plan {
  const known = plans.get(anchors);
  if (known) return known;
  const made: Plan = { searches: [], pivoted: new Map() };
  const byKey = new Map<string, Probe[]>();
  for (const anchor of anchors) {
    const underscore = anchor.literal.indexOf('_');
    if (underscore !== -1 && anchor.search === undefined) {
      const code = underscore === 0 ? -1 : anchor.literal.charCodeAt(underscore - 1);
      made.pivoted.set(code, [...(made.pivoted.get(code) ?? []), { anchor, offset: underscore }]);
      continue;
    }
    const { key, offset } = searchKey(anchor, caseless ? RARITY_CASELESS : RARITY);
    byKey.set(key, [...(byKey.get(key) ?? []), { anchor, offset }]);
  }
  for (const [key, probes] of byKey) made.searches.push({ key, probes });
  plans.set(anchors, made);
  return made;
}

/**
 * What to look for to find an anchor: its `search` if given, else the part of its literal
 * from its rarest character on (at least two characters where it has them).
 */
function searchKey(anchor: Anchor, rarity: string): { key: string; offset: number } {
  const { literal } = anchor;
  if (anchor.search !== undefined) {
    const offset = literal.indexOf(anchor.search);
    if (offset === -1) throw new Error(`spans: "${anchor.search}" is not part of "${literal}"`);
    return { key: anchor.search, offset };
  }
  const shortest = Math.min(2, literal.length);
  let best = 0;
  for (let at = 1; at + shortest <= literal.length; at++)
    if (rarity.indexOf(literal.charAt(at)) < rarity.indexOf(literal.charAt(best))) best = at;
  return { key: literal.slice(best, best + MAX_KEY), offset: best };
}
