/**
 * Values earlier calls returned, offered to later calls' arguments: the id a
 * `list_issues` answer holds is what `get_issue` needs as `issue_id`. Answers are
 * read as JSON (structured content, and text that parses as JSON); every short
 * string or number field is kept under its name and the noun it belongs to (the
 * list it sat in, `issues` → `issue`, else the tool's own noun). Seeded data a
 * service double loaded (table names, keys, ids) is offered the same way. Tools
 * that need such a selector run after those that do not, readers first and
 * destructive ones last (list → get → update → delete), so there is something to
 * select. Work is bounded: at most {@link NODE_LIMIT} JSON nodes per answer.
 */
import type { WireToolLike } from '../tool/annotations.js';
import { splitWords } from '../tool/title.js';
import { isRecord } from '../util/is-record.js';

/** JSON nodes read per answer, at most. */
const NODE_LIMIT = 5000;
/** Values kept per field name, at most. */
const PER_FIELD = 16;
/** Answer text longer than this is not parsed. */
const TEXT_LIMIT = 1 << 20;
/** The last word of a name that selects one thing. */
const SELECTOR_WORDS = new Set(['id', 'ids', 'name', 'key', 'slug', 'uuid', 'number', 'ref', 'handle', 'identifier']);
/** Whole names that select one thing in a service: an answer's value for them is worth offering. */
const SELECTOR_NAMES = new Set(
  'owner repo repository project workspace org organization team user username channel branch database schema table collection index bucket queue topic namespace'.split(
    ' ',
  ),
);
/** Words of a tool name that say what it does, not what it acts on. */
const VERBS = new Set(
  'get list read fetch show describe find search query create add insert new update edit modify set patch put delete remove drop destroy clear run execute count browse view lookup retrieve'.split(
    ' ',
  ),
);

/** One value an answer or a seed offered. */
interface Offer {
  value: string | number;
  /** The field's name, normalised (lower case, no separators). */
  field: string;
  /** The noun it belongs to (singular, normalised), or '' for a seed. */
  owner: string;
}

/** A name lower-cased without `_`, `-` or spaces: `issue_id`, `issueId` and `IssueID` are one. */
const norm = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** A noun in the singular: `issues` → `issue`, `repositories` → `repository`. */
function singular(word: string): string {
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ses') || word.endsWith('xes')) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && word.length > 3) return word.slice(0, -1);
  return word;
}

/** The nouns a tool's name is about: its words without the verbs, in the singular (`list_open_issues` → open, issue). */
export function nounsOf(toolName: string): string[] {
  return splitWords(toolName)
    .map((w) => singular(w.toLowerCase()))
    .filter((w) => w.length > 1 && !VERBS.has(w));
}

/** A property name that selects one thing (`id`, `issue_id`, `repoName`, `table`): its last word or whole name says so. */
export function isSelector(name: string): boolean {
  return SELECTOR_WORDS.has(splitWords(name).at(-1)?.toLowerCase() ?? '') || SELECTOR_NAMES.has(norm(name));
}

/** The values answers and seeds offer, by field name. */
export class ValuePool {
  readonly #offers: Offer[] = [];

  constructor(seeds?: Readonly<Record<string, readonly string[]>>) {
    if (seeds) this.seed(seeds);
  }

  /**
   * Seeded data a double loaded: each key's values, offered to properties of that name (and `<key>_name`,
   * `<key>_id`); a list named in the plural (`selectors`, `urls`) is also what one such property takes
   * (`selector`, `url`).
   */
  seed(seeds: Readonly<Record<string, readonly string[]>>): void {
    for (const [key, values] of Object.entries(seeds)) {
      const fields = new Set([norm(key), singular(norm(key))]);
      for (const field of fields)
        for (const value of values.slice(0, PER_FIELD)) this.#offer({ value, field, owner: '' });
    }
  }

  /** Keep what a call that did its work answered. */
  add(tool: string, result: unknown): void {
    const r = isRecord(result) ? result : {};
    const owner = nounsOf(tool).at(-1) ?? '';
    const budget = { left: NODE_LIMIT };
    if (r.structuredContent !== undefined) this.#walk(r.structuredContent, owner, budget);
    for (const block of Array.isArray(r.content) ? r.content : []) {
      const text = isRecord(block) && typeof block.text === 'string' ? block.text : undefined;
      if (text === undefined || text.length > TEXT_LIMIT || !/^\s*[[{]/.test(text)) continue;
      try {
        this.#walk(JSON.parse(text), owner, budget);
      } catch {
        // Not JSON: nothing to take from it.
      }
    }
  }

  #offer(offer: Offer): void {
    const same = this.#offers.filter((o) => o.field === offer.field);
    if (same.length >= PER_FIELD || same.some((o) => o.value === offer.value && o.owner === offer.owner)) return;
    this.#offers.push(offer);
  }

  #walk(value: unknown, owner: string, budget: { left: number }): void {
    // Iterative, breadth first: a deep answer costs its size, never the stack.
    const queue: Array<[unknown, string]> = [[value, owner]];
    for (let at = 0; at < queue.length && budget.left > 0; at++) {
      const [node, noun] = queue[at]!;
      budget.left--;
      if (Array.isArray(node)) {
        for (const item of node.slice(0, 100)) queue.push([item, noun]);
        continue;
      }
      if (!isRecord(node)) continue;
      for (const [key, child] of Object.entries(node)) {
        if ((typeof child === 'string' && child.length > 0 && child.length <= 200) || typeof child === 'number') {
          this.#offer({ value: child, field: norm(key), owner: noun });
        } else if (typeof child === 'object' && child !== null) {
          // A list or object under a name is about that name's noun (`issues: […]`, `repository: {…}`).
          queue.push([child, singular(norm(key))]);
        }
      }
    }
  }

  /**
   * What this pool offers a tool's properties now: a function from a property name to
   * its candidates, best first. Taken once per tool, so the calls of a pair get the same.
   */
  offersFor(tool: string): (name: string) => Array<string | number> {
    const nouns = new Set(nounsOf(tool).map(norm));
    const offers = [...this.#offers];
    return (name) => {
      // Answers offer values to selectors only (a `text` property is not filled with some answer's text); seeds to their own names too.
      const selector = isSelector(name);
      const words = splitWords(name).map((w) => norm(w));
      const whole = norm(name);
      const last = words.at(-1) ?? '';
      // `issue_id` is an issue's id; a bare `id` is the tool's own noun's id.
      const noun = words.length > 1 ? singular(words.slice(0, -1).join('')) : undefined;
      const rank = (o: Offer): number => {
        if (o.field === whole && (o.owner === '' || nouns.has(o.owner) || o.owner === noun)) return 0;
        if (noun !== undefined && o.field === last && o.owner === noun) return 1;
        if (o.field === whole) return 2;
        if (noun === undefined && SELECTOR_WORDS.has(last) && o.field === last && nouns.has(o.owner)) return 3;
        if (noun !== undefined && o.field === noun && o.owner === '') return 4;
        if (noun === undefined && SELECTOR_WORDS.has(last) && o.field === last) return 5;
        return -1;
      };
      return offers
        .map((o, i) => ({ o, i, r: rank(o) }))
        .filter((x) => x.r >= 0 && (selector || x.o.owner === ''))
        .sort((a, b) => a.r - b.r || a.i - b.i)
        .map((x) => x.o.value);
    };
  }
}

/** Whether a tool's schema requires a selector (a required property named like one). */
function needsSelector(wire: WireToolLike): boolean {
  const schema = isRecord(wire.inputSchema) ? wire.inputSchema : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  return required.some((name) => typeof name === 'string' && isSelector(name));
}

/**
 * The order to call tools in: those needing no selector first, in listing order (lists,
 * searches, creates), then those that need one: readers, then writers, then destructive ones.
 *
 * @example
 * ```ts
 * callOrder(tools, (t) => hints(t)).map((t) => t.name); // ['list_items', 'get_item', 'update_item', 'delete_item']
 * ```
 */
export function callOrder<T extends WireToolLike>(
  tools: readonly T[],
  hintsOf: (tool: T) => { readOnlyHint: boolean; destructiveHint: boolean },
): T[] {
  const rank = (tool: T): number => {
    if (!needsSelector(tool)) return 0;
    const hints = hintsOf(tool);
    return hints.readOnlyHint ? 1 : hints.destructiveHint ? 3 : 2;
  };
  return tools
    .map((tool, i) => ({ tool, i, r: rank(tool) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.tool);
}
