/**
 * Ranked text search over tools (`find_tools`): BM25 with field
 * weights (a BM25F simplification). A model asks in words ("delete a file on
 * disk"), so every word may match and tools are ranked by how well the words
 * they share explain them: a name word counts three times, a title word or tag
 * twice, a description word once; rare words weigh more (idf), long
 * descriptions do not win by length. The index is inverted (word → tools), so a
 * query costs its postings, not a pass over every tool.
 */
import { splitWords } from '../tool/title.js';
import type { ToolDefinition } from '../tool/types.js';

const K1 = 1.2;
/** Weight and length normalisation (b) per field. */
const FIELD_SPEC = {
  name: { weight: 3, b: 0.3 },
  title: { weight: 2, b: 0.3 },
  tags: { weight: 2, b: 0.3 },
  description: { weight: 1, b: 0.75 },
  hints: { weight: 0.5, b: 0 },
} as const;
type Field = keyof typeof FIELD_SPEC;
const FIELDS = Object.keys(FIELD_SPEC) as Field[];

/** Words that carry no meaning for finding a tool. */
const STOP = new Set(
  'a an and any are as at be by can do does for from get how i in into is it its me my of on or please some that the their them this to use using want we what which with you your'.split(
    ' ',
  ),
);

/**
 * Words people use for the same action or thing in tool land. A query word in a
 * group also searches the group's first word (the one tool names use), at
 * {@link SYNONYM_WEIGHT}: "book a room" finds `create_room_booking`, "make a
 * folder" `create_directory`, "terminate an instance" `delete_instance`.
 */
const SYNONYM_GROUPS = [
  'create add new make insert open post book schedule register upload start trigger',
  'delete remove erase drop destroy terminate kill purge discard',
  'get show view fetch read display detail look',
  'update change edit modify rename rotate set',
  'list find search browse enumerate',
  'directory folder',
  'file document',
  'message chat',
];
const SYNONYM_WEIGHT = 0.4;
const SYNONYMS = new Map<string, string[]>();
for (const group of SYNONYM_GROUPS) {
  const [canonical, ...members] = group.split(' ').map(stem);
  for (const word of members) SYNONYMS.set(word, [...(SYNONYMS.get(word) ?? []), canonical!]);
}

/** A query's words with their weights: each word 1, its synonyms {@link SYNONYM_WEIGHT} (a word never counts twice). */
function queryWeights(text: string): Map<string, number> {
  const weights = new Map<string, number>();
  const own = words(text);
  for (const word of own) weights.set(word, 1);
  for (const word of own) {
    for (const synonym of SYNONYMS.get(word) ?? []) {
      if ((weights.get(synonym) ?? 0) < SYNONYM_WEIGHT) weights.set(synonym, SYNONYM_WEIGHT);
    }
  }
  return weights;
}

/**
 * Lower-cased, stemmed words of a text, camelCase and snake_case split, stop words dropped.
 *
 * @example
 * ```ts
 * words('readFiles from the disk'); // ['read', 'file', 'disk']
 * ```
 */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const word of splitWords(text)) {
    const lower = word.toLowerCase();
    if (STOP.has(lower)) continue;
    out.push(stem(lower));
  }
  return out;
}

/** A light suffix stemmer: plurals, -ing, -ed (files → file, searching → search, listed → list). */
function stem(word: string): string {
  if (word.length <= 3) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('sses')) return word.slice(0, -2);
  if (word.endsWith('ing') && word.length > 5) return undouble(word.slice(0, -3));
  if (word.endsWith('ed') && word.length > 4) return undouble(word.slice(0, -2));
  if (word.endsWith('es') && /(?:ch|sh|x|ss|zz)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us') && !word.endsWith('is'))
    return word.slice(0, -1);
  return word;
}

function undouble(word: string): string {
  return word.length > 3 && word.at(-1) === word.at(-2) && !/[lsz]$/.test(word) ? word.slice(0, -1) : word;
}

function hintWords(def: ToolDefinition): string {
  const h = def.hints;
  if (h.readOnlyHint) return 'read only readonly';
  return `${h.destructiveHint ? 'destructive delete' : 'write'}${h.idempotentHint ? ' idempotent' : ''}`;
}

/** The tools a word occurs in, with its weighted, length-normalised frequency in each (typed arrays: a query walks them). */
interface Postings {
  readonly docs: Int32Array;
  readonly tfs: Float64Array;
}

/**
 * An inverted BM25 index of tool definitions, built once and then queried.
 *
 * @example
 * ```ts
 * const index = new Bm25Index(registry.manifest().tools.map((t) => registry.get(t.name)!));
 * index.rank('create a directory').slice(0, 3); // best first: [{ tool, score }, …]
 * ```
 */
export class Bm25Index {
  readonly #docs: readonly ToolDefinition[];
  readonly #postings = new Map<string, Postings>();
  /** Scratch scores, one per tool, zeroed after each query (one allocation, not one per query). */
  #scores = new Float64Array(0);
  /** Scratch list of the tools a query touched (a growing array per query was garbage at 10,000 tools). */
  #touched = new Int32Array(0);

  constructor(tools: readonly ToolDefinition[]) {
    this.#docs = tools;
    // BM25F: each field is length-normalised against its own average, then the fields are summed by weight.
    const fieldWords = tools.map((def) => ({
      name: words(def.name),
      title: words(def.title),
      tags: words([...def.tags, def.category ?? ''].join(' ')),
      description: words(def.description),
      hints: words(hintWords(def)),
    }));
    const average = {} as Record<Field, number>;
    for (const field of FIELDS) {
      let total = 0;
      for (const doc of fieldWords) total += doc[field].length;
      average[field] = Math.max(1, total / Math.max(1, tools.length));
    }
    const building = new Map<string, { docs: number[]; tfs: number[] }>();
    for (let doc = 0; doc < tools.length; doc++) {
      const tf = new Map<string, number>();
      for (const field of FIELDS) {
        const list = fieldWords[doc]![field];
        const { weight, b } = FIELD_SPEC[field];
        const norm = 1 - b + (b * list.length) / average[field];
        for (const word of list) tf.set(word, (tf.get(word) ?? 0) + weight / norm);
      }
      for (const [word, count] of tf) {
        let list = building.get(word);
        if (list === undefined) {
          list = { docs: [], tfs: [] };
          building.set(word, list);
        }
        list.docs.push(doc);
        list.tfs.push(count);
      }
    }
    for (const [word, list] of building) {
      this.#postings.set(word, { docs: Int32Array.from(list.docs), tfs: Float64Array.from(list.tfs) });
    }
  }

  /**
   * Tools sharing at least one word with `text` and passing `keep`: the best
   * `top` of them, best first (ties by name), and how many there are in all.
   */
  rank(
    text: string,
    /** `keep` gets the tool and its position in the list the index was built from. */
    options: { keep?: (tool: ToolDefinition, doc: number) => boolean; top?: number } = {},
  ): { tools: ToolDefinition[]; total: number } {
    const n = this.#docs.length;
    if (this.#scores.length !== n) {
      this.#scores = new Float64Array(n);
      this.#touched = new Int32Array(n);
    }
    const scores = this.#scores;
    const touchedAll = this.#touched;
    let count = 0;
    for (const [word, weight] of queryWeights(text)) {
      const list = this.#postings.get(word);
      if (list === undefined) continue;
      const { docs, tfs } = list;
      const idf = weight * Math.log(1 + (n - docs.length + 0.5) / (docs.length + 0.5));
      for (let i = 0; i < docs.length; i++) {
        const doc = docs[i]!;
        const tf = tfs[i]!;
        if (scores[doc] === 0) touchedAll[count++] = doc;
        scores[doc]! += (idf * tf * (K1 + 1)) / (tf + K1);
      }
    }
    const touched = touchedAll.subarray(0, count);
    const { keep, top = Infinity } = options;
    // The best `top` in a small array kept sorted (top is a page: 8 by default), the rest only counted.
    const best: number[] = [];
    let total = 0;
    const better = (a: number, b: number) =>
      scores[a]! > scores[b]! || (scores[a] === scores[b] && this.#docs[a]!.name < this.#docs[b]!.name);
    if (top > 64) {
      const all = Array.from(keep === undefined ? touched : touched.filter((doc) => keep(this.#docs[doc]!, doc)));
      all.sort((a, b) => (better(a, b) ? -1 : better(b, a) ? 1 : 0));
      const tools = all.slice(0, top).map((doc) => this.#docs[doc]!);
      for (const doc of touched) scores[doc] = 0;
      return { tools, total: all.length };
    }
    for (const doc of touched) {
      if (keep !== undefined && !keep(this.#docs[doc]!, doc)) continue;
      total++;
      if (best.length >= top && !better(doc, best[best.length - 1]!)) continue;
      let at = best.length;
      while (at > 0 && better(doc, best[at - 1]!)) at--;
      best.splice(at, 0, doc);
      if (best.length > top) best.pop();
    }
    const tools = best.map((doc) => this.#docs[doc]!);
    for (const doc of touched) scores[doc] = 0;
    return { tools, total };
  }
}
