/**
 * The registry's search index. Hints are kept as a bit mask per tool, tags and
 * categories as sets of tools, and the order by name is computed once per
 * change, so a filter over 100,000 tools is one pass of integer tests. Text is
 * matched against a lower-cased haystack built the first time a search needs it
 * (registration stays cheap).
 */
import { splitWords } from '../tool/title.js';
import type { ToolDefinition } from '../tool/types.js';
import { Bm25Index } from './bm25.js';

/** What `registry.search()` accepts. Every filter is optional; all given filters must hold. */
export interface SearchQuery {
  /** Words matched against name, title and description (every word must match, unless `ranking` is `bm25`). */
  text?: string;
  /**
   * `words` (default): every word must occur (as a substring); exact name matches first.
   * `bm25`: any word may match (stemmed, stop words dropped), ranked by BM25 over name,
   * title, tags, description and hints: for questions in words (`find_tools`).
   */
  ranking?: 'words' | 'bm25';
  /** A last test each result must pass (not part of the cursor's identity: keep it stable across pages). */
  where?: (tool: ToolDefinition) => boolean;
  readOnly?: boolean;
  destructive?: boolean;
  idempotent?: boolean;
  openWorld?: boolean;
  category?: string;
  /** Tools carrying every one of these tags. */
  tags?: readonly string[];
  cursor?: string;
  /** Page size (default 50, at most 1,000). */
  limit?: number;
}

interface Entry {
  readonly def: ToolDefinition;
  readonly bits: number;
  /** Built on first text search: `name \n title \n description`, lower-cased. */
  haystack?: string;
  /** Built on first text search: the name's words, space-padded (` read file `). */
  words?: string;
}

const READ_ONLY = 1;
const DESTRUCTIVE = 2;
const IDEMPOTENT = 4;
const OPEN_WORLD = 8;

function hintBits(def: ToolDefinition): number {
  return (
    (def.hints.readOnlyHint ? READ_ONLY : 0) |
    (def.hints.destructiveHint ? DESTRUCTIVE : 0) |
    (def.hints.idempotentHint ? IDEMPOTENT : 0) |
    (def.hints.openWorldHint ? OPEN_WORLD : 0)
  );
}

export class SearchIndex {
  readonly #entries = new Map<string, Entry>();
  readonly #byTag = new Map<string, Set<Entry>>();
  readonly #byCategory = new Map<string, Set<Entry>>();
  #ordered: Entry[] | undefined;
  #bm25: Bm25Index | undefined;

  add(def: ToolDefinition): void {
    const entry: Entry = { def, bits: hintBits(def) };
    this.#entries.set(def.name, entry);
    for (const tag of def.tags) setFor(this.#byTag, tag).add(entry);
    if (def.category !== undefined) setFor(this.#byCategory, def.category).add(entry);
    this.#ordered = undefined;
    this.#bm25 = undefined;
  }

  remove(def: ToolDefinition): void {
    const entry = this.#entries.get(def.name);
    if (entry === undefined) return;
    this.#entries.delete(def.name);
    for (const tag of def.tags) dropFrom(this.#byTag, tag, entry);
    if (def.category !== undefined) dropFrom(this.#byCategory, def.category, entry);
    this.#ordered = undefined;
    this.#bm25 = undefined;
  }

  /**
   * All matching tools: best first when there is text, else in name order.
   * `unlisted` holds the names of tools that are registered but not listed.
   * `need`: only the first `need` are wanted (the rest are counted, not sorted).
   */
  match(
    query: SearchQuery,
    unlisted: ReadonlySet<string>,
    need = Infinity,
  ): { tools: ToolDefinition[]; total: number } {
    let mask = 0;
    let want = 0;
    const flags: Array<[boolean | undefined, number]> = [
      [query.readOnly, READ_ONLY],
      [query.destructive, DESTRUCTIVE],
      [query.idempotent, IDEMPOTENT],
      [query.openWorld, OPEN_WORLD],
    ];
    for (const [value, bit] of flags) {
      if (typeof value !== 'boolean') continue;
      mask |= bit;
      if (value) want |= bit;
    }

    const sets: Set<Entry>[] = [];
    for (const tag of query.tags ?? []) sets.push(this.#byTag.get(tag) ?? new Set());
    if (query.category !== undefined) sets.push(this.#byCategory.get(query.category) ?? new Set());
    sets.sort((a, b) => a.size - b.size);

    const checkListed = unlisted.size > 0;
    const where = query.where;
    if (query.ranking === 'bm25' && query.text !== undefined && query.text.trim() !== '') {
      // The index's documents are the entries in name order: a document number is a position in it.
      const entries = this.#order();
      this.#bm25 ??= new Bm25Index(entries.map((e) => e.def));
      // Called for every tool sharing a word with the query (thousands at 10,000 tools): no map lookups.
      const keep =
        mask === 0 && sets.length === 0 && !checkListed && where === undefined
          ? undefined
          : (def: ToolDefinition, doc: number) => {
              const entry = entries[doc]!;
              return (
                (entry.bits & mask) === want &&
                (sets.length === 0 || inAll(sets, entry)) &&
                !(checkListed && unlisted.has(def.name)) &&
                (where === undefined || where(def))
              );
            };
      const ranked = this.#bm25.rank(query.text, keep === undefined ? { top: need } : { keep, top: need });
      return { tools: ranked.tools, total: ranked.total };
    }

    const ordered = this.#order();
    const smallest = sets[0];
    // Walk a small set and sort it, or walk everything in order and test membership.
    const candidates: readonly Entry[] =
      smallest !== undefined && smallest.size * 16 < ordered.length
        ? [...smallest].sort((a, b) => compareNames(a.def.name, b.def.name))
        : ordered;
    const rest = smallest !== undefined && candidates !== ordered ? sets.slice(1) : sets;

    const tokens = tokenize(query.text);
    const hits: Entry[] = [];
    const scores: number[] = [];
    for (let i = 0; i < candidates.length; i++) {
      const entry = candidates[i]!;
      if ((entry.bits & mask) !== want) continue;
      if (rest.length > 0 && !inAll(rest, entry)) continue;
      if (checkListed && unlisted.has(entry.def.name)) continue;
      if (where !== undefined && !where(entry.def)) continue;
      if (tokens.length > 0) {
        const score = scoreText(entry, tokens);
        if (score < 0) continue;
        scores.push(score);
      }
      hits.push(entry);
    }
    if (tokens.length === 0) return { tools: hits.map((e) => e.def), total: hits.length };
    const order = hits.map((_, i) => i);
    order.sort((a, b) => scores[b]! - scores[a]! || compareNames(hits[a]!.def.name, hits[b]!.def.name));
    return { tools: order.map((i) => hits[i]!.def), total: hits.length };
  }

  #order(): Entry[] {
    this.#ordered ??= [...this.#entries.values()].sort((a, b) => compareNames(a.def.name, b.def.name));
    return this.#ordered;
  }
}

/** Code-unit order: deterministic and locale-independent. */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function inAll(sets: readonly Set<Entry>[], entry: Entry): boolean {
  for (const set of sets) if (!set.has(entry)) return false;
  return true;
}

function tokenize(text: string | undefined): string[] {
  if (text === undefined) return [];
  return text
    .toLowerCase()
    .split(/[\s,]+/)
    .filter((t) => t.length > 0);
}

/** -1 when some token matches nowhere; otherwise higher is better. */
function scoreText(entry: Entry, tokens: readonly string[]): number {
  const def = entry.def;
  entry.haystack ??= `${def.name}\n${def.title}\n${def.description}`.toLowerCase();
  const haystack = entry.haystack;
  for (const token of tokens) if (!haystack.includes(token)) return -1;
  entry.words ??= ` ${splitWords(def.name).join(' ').toLowerCase()} `;
  const name = haystack.slice(0, def.name.length);
  const title = def.title.toLowerCase();
  let score = 0;
  for (const token of tokens) {
    if (name === token) score += 16;
    else if (entry.words.includes(` ${token} `)) score += 8;
    else if (name.includes(token)) score += 4;
    else if (title.includes(token)) score += 2;
    else score += 1;
  }
  return score;
}

function setFor(map: Map<string, Set<Entry>>, key: string): Set<Entry> {
  let set = map.get(key);
  if (set === undefined) {
    set = new Set();
    map.set(key, set);
  }
  return set;
}

function dropFrom(map: Map<string, Set<Entry>>, key: string, entry: Entry): void {
  const set = map.get(key);
  if (set === undefined) return;
  set.delete(entry);
  if (set.size === 0) map.delete(key);
}
