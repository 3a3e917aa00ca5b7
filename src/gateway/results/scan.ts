/**
 * One scan of a message: every string slot (message-slots.ts) searched as it is and in its
 * normalised views (fold.ts: escapes, invisible characters, look-alikes; blobs.ts: base64
 * and hex runs; the seams between adjacent text blocks), each finding mapped back to the
 * slot and range it came from, so redaction writes into the original strings.
 */
import { blobs } from './blobs.js';
import type { BudgetCheck } from './budget.js';
import { fold, shiftView, toOriginal, type View } from './fold.js';
import { findInjection } from './injection.js';
import { translatedOverride } from './injection-signals.js';
import type { Slot } from './message-slots.js';
import { searchResultAhead } from './search-ahead.js';
import { findSecrets } from './secrets.js';
import { spans } from './spans.js';
import type { ResultFinding } from './types.js';
import { siteWindows } from './unicode-sites.js';
import { BLOB_RULE, ESCAPE_RULE, VIEW_ANCHORS } from './view-anchors.js';

/** What a scan found: per slot, the secret ranges in its text; and every finding. */
export interface ScanFindings {
  findings: ResultFinding[];
  /** Secret ranges by slot index (in the slot's own text). */
  ranges: Map<number, Array<[number, number]>>;
}

// Shorter strings hold no secret or order worth the search (keys such as "type", "text").
const SHORTEST = 8;
// How much of two adjacent text blocks is searched across their seam.
const SEAM = 256;

/**
 * Search every slot for what `run` asks for.
 *
 * @example
 * ```ts
 * const { findings, ranges } = await scanSlots(messageSlots(result), { secrets: true, injection: true }, budget);
 * ```
 */
export async function scanSlots(
  slots: readonly Slot[],
  run: { secrets: boolean; injection: boolean },
  budget: BudgetCheck,
): Promise<ScanFindings> {
  const out: ScanFindings = { findings: [], ranges: new Map() };
  const addRange = (index: number, range: readonly [number, number]) => {
    const list = out.ranges.get(index) ?? [];
    list.push([range[0], range[1]]);
    out.ranges.set(index, list);
  };
  for (const [index, slot] of slots.entries()) {
    if (slot.text.length < SHORTEST) continue;
    budget.check();
    await scanText(slot.text, run, budget, out.findings, (r) => addRange(index, r), 0);
  }
  // A token or an order cut in two between adjacent text blocks.
  const blocks = slots.map((slot, index) => ({ slot, index })).filter(({ slot }) => slot.block !== undefined);
  for (let k = 0; k + 1 < blocks.length; k++) {
    const a = blocks[k] as { slot: Slot; index: number };
    const b = blocks[k + 1] as { slot: Slot; index: number };
    const head = a.slot.text.slice(-SEAM);
    const tail = b.slot.text.slice(0, SEAM);
    const seam = head + tail;
    const cut = head.length;
    const aStart = a.slot.text.length - head.length;
    const found: ResultFinding[] = [];
    await scanText(
      seam,
      run,
      budget,
      found,
      ([start, end]) => {
        if (start >= cut || end <= cut) return;
        addRange(a.index, [aStart + start, a.slot.text.length]);
        addRange(b.index, [0, end - cut]);
        out.findings.push({ kind: 'secret', rule: 'split-across-blocks' });
      },
      0,
    );
    for (const f of found) if (f.kind === 'injection') out.findings.push(f);
  }
  // One finding per rule and level: the same order seen in the text and in its views is one.
  const seen = new Set<string>();
  out.findings = out.findings.filter((f) => {
    const key = `${f.kind} ${f.rule} ${f.level ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return out;
}

/** Search one text and its views; secret ranges go to `range` in the text's own offsets. */
async function scanText(
  text: string,
  run: { secrets: boolean; injection: boolean },
  budget: BudgetCheck,
  findings: ResultFinding[],
  range: (r: readonly [number, number]) => void,
  depth: number,
): Promise<void> {
  searchResultAhead(text, run);
  const searchView = async (view: View | undefined) => {
    if (view === undefined) return;
    await searchOne(view.text, run, budget, findings, (r) => range(toOriginal(view, r)));
  };
  await searchOne(text, run, budget, findings, range);
  // Around invisible, look-alike, fullwidth and other-script characters: that part folded,
  // and searched for the translated phrases.
  for (const [start, end] of siteWindows(text, budget)) {
    budget.check();
    const part = text.slice(start, end);
    if (run.injection) findings.push(...translatedOverride(part));
    const view = fold(part, { unicode: true }, budget);
    if (view !== undefined) await searchView(shiftView(view, start));
  }
  const encoded = spans(text, VIEW_ANCHORS, { budget });
  // Around each escape that can hide ASCII: that part decoded (twice, for JSON in a JSON string).
  for (const { start, end } of encoded.filter((span) => span.rules.has(ESCAPE_RULE))) {
    budget.check();
    const part = text.slice(start, end);
    const once = fold(part, { escapes: true, unicode: true }, budget);
    if (once === undefined) continue;
    await searchView(shiftView(once, start));
    const twice = fold(once.text, { escapes: true }, budget);
    if (twice !== undefined) await searchView(shiftView(compose(once, twice), start));
  }
  // Base64 and hex runs that decode to text: a finding in one redacts the run whole.
  if (depth < 2)
    for (const blob of blobs(
      text,
      encoded.filter((span) => span.rules.has(BLOB_RULE)).map((span) => span.start),
      budget,
    )) {
      const inner: ResultFinding[] = [];
      let secret = false;
      await scanText(
        blob.decoded,
        run,
        budget,
        inner,
        () => {
          secret = true;
        },
        depth + 1,
      );
      if (secret) range([blob.start, blob.end]);
      for (const f of inner) findings.push({ ...f, rule: `${f.rule} (encoded)`, range: undefined } as ResultFinding);
    }
}

async function searchOne(
  text: string,
  run: { secrets: boolean; injection: boolean },
  budget: BudgetCheck,
  findings: ResultFinding[],
  range: (r: readonly [number, number]) => void,
): Promise<void> {
  if (run.secrets)
    for (const f of await findSecrets(text, budget)) {
      findings.push({ kind: f.kind, rule: f.rule });
      if (f.range) range(f.range);
    }
  if (run.injection) findings.push(...findInjection(text, budget));
}

/** A view of a view, as a view of the text under both. */
function compose(outer: View, inner: View): View {
  const map = new Int32Array(inner.map.length);
  for (let k = 0; k < map.length; k++) map[k] = outer.map[inner.map[k] as number] as number;
  return { text: inner.text, map };
}
