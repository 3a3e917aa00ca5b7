/**
 * The prefilter of the result guards: the few places in a text where a rule could match.
 * Every rule this guard runs needs some literal in each of its matches (a token's prefix,
 * `://`, `PRIVATE KEY`...), and often something right before or after it. One pass finds
 * where the literals are (`anchor-occurrences.ts`), cheap sticky checks on the text drop
 * the places where what must be next to a literal is not, and the rules then run only on
 * a span around each place left, wide enough to hold any match that contains it.
 */
import type { Anchor, Gate } from './anchor.js';
import { occurrences } from './anchor-occurrences.js';
import { type BudgetCheck, UNBOUNDED } from './budget.js';

export type { Anchor } from './anchor.js';

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
export function spans(
  text: string,
  anchors: readonly Anchor[],
  options: { caseless?: boolean; budget?: BudgetCheck } = {},
): Span[] {
  const caseless = options.caseless ?? false;
  const budget = options.budget ?? UNBOUNDED;
  const found: Span[] = [];
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
  // The first occurrence of each closing text at or after a position: remembered, so that a
  // text of many openings and no close (`<!-- ` repeated) costs one search, not one per opening.
  const closes = new Map<string, { from: number; at: number }>();
  const closeAfter = (until: string, from: number): number => {
    const known = closes.get(until);
    if (known !== undefined && from >= known.from && (known.at === -1 || from <= known.at)) return known.at;
    const at = text.indexOf(until, from);
    closes.set(until, { from, at });
    return at;
  };
  const add = (anchor: Anchor, at: number) => {
    budget.step();
    if (!passesGates(text, anchor, at)) return;
    if (anchor.until !== undefined) {
      const close = closeAfter(anchor.until, at + anchor.literal.length);
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
  occurrences(text, anchors, caseless, add);
  if (found.length < 2) return found;
  found.sort((a, b) => a.start - b.start);
  const merged: Span[] = [found[0] as Span];
  for (let i = 1; i < found.length; i++) {
    budget.step();
    const span = found[i] as Span;
    const last = merged[merged.length - 1] as Span;
    if (span.start <= last.end) {
      last.end = Math.max(last.end, span.end);
      for (const rule of span.rules) last.rules.add(rule);
    } else merged.push(span);
  }
  return merged;
}

/** Whether what an anchor needs right before and after its literal at `at` is there. */
export function passesGates(text: string, anchor: Anchor, at: number): boolean {
  return (
    (anchor.precededBy === undefined || holds(anchor.precededBy, text, at)) &&
    (anchor.followedBy === undefined || holds(anchor.followedBy, text, at + anchor.literal.length))
  );
}

function holds(gate: Gate, text: string, at: number): boolean {
  if (typeof gate === 'function') return gate(text, at);
  gate.lastIndex = at;
  return gate.test(text);
}
