/**
 * The prefilter of the result guards: the few places in a text where a rule could match.
 * Every rule this guard runs needs some literal in each of its matches (a token's prefix,
 * `://`, `PRIVATE KEY`...). One `indexOf` pass per literal, native and far cheaper than
 * the rules' own regular expressions, finds those places; the rules then run only on a
 * span around each, wide enough to hold any match that contains it.
 */

/** A literal every match of some rules contains, and how far such a match reaches around it. */
export interface Anchor {
  literal: string;
  /** Rules that can only match where this literal is. */
  rules: readonly string[];
  /** Characters a match can start before the literal (default 64). */
  before?: number;
  /** Characters a match can end after the literal, before the span stretches to the next stop (default 64). */
  after?: number;
  /** Where a match of these rules must end instead: the first occurrence of this after the literal. */
  until?: string;
  /** Text every match also holds within `nearWithin` characters after the literal (the `@` after a URL's password). */
  near?: string;
  nearWithin?: number;
  /** What must follow the literal at once (a sticky expression), else no match starts here. */
  followedBy?: RegExp;
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
  const found: Span[] = [];
  const view = scanView(text, options.caseless ?? false);
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
  const { direct, pivoted } = plan(anchors);
  for (const anchor of direct) {
    let near = -1;
    for (let at = view.indexOf(anchor.literal); at !== -1; at = view.indexOf(anchor.literal, at + 1)) {
      if (anchor.near !== undefined) {
        // The next `near` is looked for again only once the search has passed it.
        if (near !== Number.POSITIVE_INFINITY && near < at) {
          near = view.indexOf(anchor.near, at);
          if (near === -1) near = Number.POSITIVE_INFINITY;
        }
        if (near > at + anchor.literal.length + (anchor.nearWithin ?? 0)) continue;
      }
      add(anchor, at);
    }
  }
  // One pass over the underscores instead of one per token prefix; the character before
  // each picks the few prefixes that could end there.
  if (pivoted.size > 0)
    for (let at = view.indexOf('_'); at !== -1; at = view.indexOf('_', at + 1)) {
      for (const { anchor, offset } of pivoted.get(view.charCodeAt(at - 1)) ?? [])
        if (view.startsWith(anchor.literal, at - offset)) add(anchor, at - offset);
      for (const { anchor, offset } of pivoted.get(-1) ?? [])
        if (view.startsWith(anchor.literal, at - offset)) add(anchor, at - offset);
    }
  if (found.length < 2) return found;
  found.sort((a, b) => a.start - b.start);
  const merged: Span[] = [found[0] as Span];
  for (const span of found.slice(1)) {
    const last = merged[merged.length - 1] as Span;
    if (span.start <= last.end) {
      last.end = Math.max(last.end, span.end);
      for (const rule of span.rules) last.rules.add(rule);
    } else merged.push(span);
  }
  return merged;
}

let last: { text: string; view: string; caseless: boolean } | undefined;

/**
 * The text to search in: a copy with one byte per character (each character's low byte),
 * lower-cased for `caseless`. V8 searches and lower-cases a one-byte string several times
 * faster than a two-byte one, which any text with a character past U+00FF is; the copy
 * keeps every position (no one-byte character lower-cases to two, as İ does), the anchors
 * are ASCII and stay as they are, and a character the copy turns into ASCII can only add a
 * span, never hide one. The last copy made is kept, for the next search over the same text.
 */
function scanView(text: string, caseless: boolean): string {
  if (last !== undefined && last.caseless === caseless && last.text === text) return last.view;
  const narrow = Buffer.from(text, 'latin1').toString('latin1');
  const view = caseless ? narrow.toLowerCase() : narrow;
  last = { text, view, caseless };
  return view;
}

interface Plan {
  direct: Anchor[];
  /** Anchors holding an underscore, by the character code before their first one (-1: it starts the literal). */
  pivoted: Map<number, Array<{ anchor: Anchor; offset: number }>>;
}

const plans = new WeakMap<readonly Anchor[], Plan>();

// indexOf's cost follows how often the literal's first character occurs; token prefixes
// start with common letters but all hold an underscore, which is rarer.
function plan(anchors: readonly Anchor[]): Plan {
  const known = plans.get(anchors);
  if (known) return known;
  const made: Plan = { direct: [], pivoted: new Map() };
  for (const anchor of anchors) {
    const offset = anchor.literal.indexOf('_');
    if (offset === -1) {
      made.direct.push(anchor);
      continue;
    }
    const key = offset === 0 ? -1 : anchor.literal.charCodeAt(offset - 1);
    made.pivoted.set(key, [...(made.pivoted.get(key) ?? []), { anchor, offset }]);
  }
  plans.set(anchors, made);
  return made;
}
