import { CandorError } from '../errors.js';

/**
 * Strings for a schema `pattern`: a small sampler over the regular
 * expression subset tool schemas use — literals, `.`, classes and ranges,
 * `\d \w \s` and their negations, groups, alternation, and the quantifiers
 * `* + ? {n} {n,} {n,m}`. Anything else (lookaround, back-references, Unicode
 * property escapes) is declined with `undefined`; the caller still checks the
 * result against the real pattern, so a sample can be missing, never wrong.
 */

type Node =
  | { kind: 'chars'; chars: string[] }
  | { kind: 'seq'; items: Array<{ node: Node; min: number; max: number }> }
  | { kind: 'alt'; options: Node[] };

/** Printable ASCII: the alphabet for `.` and negated classes. */
const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
const DIGITS = PRINTABLE.filter((c) => /\d/.test(c));
const WORD = PRINTABLE.filter((c) => /\w/.test(c));
const SPACE = [' ', '\t', '\n'];
const not = (set: string[]) => PRINTABLE.filter((c) => !set.includes(c));

/** Syntax outside the sampler's subset (caught below; never leaves this module). */
class Unsupported extends CandorError {
  override readonly name = 'UnsupportedPattern';
  constructor(message?: string) {
    super(message ?? 'unsupported pattern syntax', { code: 'internal' });
  }
}

/**
 * A string the pattern may match, drawn with `next`. Open quantifiers (`*`,
 * `+`, `{n,}`) repeat up to about `length.min` (at least 4) more times, and
 * `length.max` at most; `attempt` widens that for later tries. `undefined` for
 * syntax outside the subset.
 */
export function samplePattern(
  pattern: string,
  next: () => number,
  attempt = 0,
  length: { min: number; max: number } = { min: 0, max: Number.POSITIVE_INFINITY },
): string | undefined {
  let tree: Node;
  try {
    const parser = new Parser(pattern.replace(/^\^/, '').replace(/(?<!\\)\$$/, ''));
    tree = parser.alternation();
    if (!parser.done()) return undefined;
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
  return emit(tree, next, Math.min(Math.max(4, length.min) + 2 * attempt, length.max));
}

/** `reach`: how many repeats an open quantifier may add beyond its minimum. */
function emit(node: Node, next: () => number, reach: number): string {
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)]!;
  switch (node.kind) {
    case 'chars':
      return pick(node.chars);
    case 'alt':
      return emit(pick(node.options), next, reach);
    case 'seq':
      return node.items
        .map(({ node: item, min, max }) => {
          const count = min + Math.floor(next() * (Math.min(max, min + reach) - min + 1));
          // Inside a repeat, repeats reach half as far: nested quantifiers stay short.
          return Array.from({ length: count }, () => emit(item, next, count > 1 ? reach >> 1 : reach)).join('');
        })
        .join('');
  }
}

class Parser {
  private at = 0;
  constructor(private readonly source: string) {}

  done(): boolean {
    return this.at === this.source.length;
  }

  alternation(): Node {
    const options = [this.sequence()];
    while (this.source[this.at] === '|') {
      this.at++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0]! : { kind: 'alt', options };
  }

  private sequence(): Node {
    const items: Array<{ node: Node; min: number; max: number }> = [];
    while (!this.done() && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      const node = this.atom();
      const [min, max] = this.quantifier();
      items.push({ node, min, max });
    }
    return { kind: 'seq', items };
  }

  private atom(): Node {
    const c = this.source[this.at++]!;
    if (c === '(') {
      if (this.source[this.at] === '?') {
        if (this.source.startsWith('?:', this.at)) this.at += 2;
        else throw new Unsupported('lookaround or named group');
      }
      const inner = this.alternation();
      if (this.source[this.at++] !== ')') throw new Unsupported('unclosed group');
      return inner;
    }
    if (c === '[') return this.charClass();
    if (c === '.') return { kind: 'chars', chars: PRINTABLE.filter((ch) => ch !== '\n') };
    if (c === '\\') return { kind: 'chars', chars: this.escape() };
    if ('^$*+?{'.includes(c)) throw new Unsupported(`'${c}' in the middle of a pattern`);
    return { kind: 'chars', chars: [c] };
  }

  /** After a backslash: the characters it stands for. */
  private escape(): string[] {
    const c = this.source[this.at++];
    if (c === undefined) throw new Unsupported('trailing backslash');
    const sets: Record<string, string[]> = {
      d: DIGITS,
      w: WORD,
      s: SPACE,
      D: not(DIGITS),
      W: not(WORD),
      S: not(SPACE),
    };
    if (sets[c]) return sets[c]!;
    if (c === 'n') return ['\n'];
    if (c === 't') return ['\t'];
    if (/[bBpPkux0-9]/.test(c)) throw new Unsupported(`\\${c}`);
    return [c];
  }

  private charClass(): Node {
    const negated = this.source[this.at] === '^';
    if (negated) this.at++;
    const chars = new Set<string>();
    let first = true;
    while (this.source[this.at] !== ']' || first) {
      first = false;
      const c = this.source[this.at++];
      if (c === undefined) throw new Unsupported('unclosed class');
      const from = c === '\\' ? this.escape() : [c];
      if (from.length === 1 && this.source[this.at] === '-' && this.source[this.at + 1] !== ']') {
        this.at++;
        const d = this.source[this.at++];
        const to = d === '\\' ? this.escape() : [d!];
        if (to.length !== 1) throw new Unsupported('range to a class');
        for (let code = from[0]!.charCodeAt(0); code <= to[0]!.charCodeAt(0); code++) {
          chars.add(String.fromCharCode(code));
        }
      } else for (const ch of from) chars.add(ch);
    }
    this.at++;
    const list = negated ? PRINTABLE.filter((c) => !chars.has(c)) : [...chars];
    if (list.length === 0) throw new Unsupported('empty class');
    return { kind: 'chars', chars: list };
  }

  /** `[min, max]` of the quantifier here (`[1, 1]` for none); a lazy `?` after it changes nothing for sampling. */
  private quantifier(): [number, number] {
    const c = this.source[this.at];
    let range: [number, number] = [1, 1];
    if (c === '*') range = [0, Number.POSITIVE_INFINITY];
    else if (c === '+') range = [1, Number.POSITIVE_INFINITY];
    else if (c === '?') range = [0, 1];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
      if (!m) throw new Unsupported('brace');
      const min = Number(m[1]);
      range = [min, m[2] === undefined ? min : m[3] ? Number(m[3]) : Number.POSITIVE_INFINITY];
      this.at += m[0].length - 1;
    } else return range;
    this.at++;
    if (this.source[this.at] === '?') this.at++;
    return range;
  }
}
