import { CandorError } from '../errors.js';
/**
 * Where a JSON text goes wrong. `JSON.parse` on Node 20 names the position for
 * some mistakes and not others (`{"a": }` gives none), so the CLI finds the
 * offset itself with a small RFC 8259 scanner and shows a caret under it.
 */

/** The first syntax error in a JSON text. */
export interface JsonSyntaxProblem {
  /** Offset (UTF-16 code units) where the text stops being JSON. */
  offset: number;
  message: string;
}

/** Ends the scan at the first syntax error (caught below; never leaves this module). */
class Stop extends CandorError {
  override readonly name = 'JsonSyntaxStop';
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message, { code: 'internal' });
  }
}

/**
 * Find the first syntax error, or undefined when the text is valid JSON.
 *
 * @example
 * ```ts
 * findJsonError('{"a": }'); // { offset: 6, message: "expected a value, found '}'" }
 * ```
 */
export function findJsonError(text: string): JsonSyntaxProblem | undefined {
  let i = 0;
  const describe = (at: number) => (at >= text.length ? 'the end of the input' : `'${text[at]}'`);
  const fail = (message: string, at = i): never => {
    throw new Stop(at, message);
  };
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const string = () => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail('control character inside a string (escape it, e.g. \\n)');
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('bad \\u escape (needs 4 hex digits)');
          i += 6;
          continue;
        }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) fail(`bad escape '\\${e ?? ''}'`);
        i += 2;
        continue;
      }
      i++;
    }
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match || match[0] === '-' || match[0] === '') fail(`expected a value, found ${describe(i)}`);
    i += match![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') object();
    else if (c === '[') array();
    else if (c === '"') string();
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) number();
    else {
      const literal = ['true', 'false', 'null'].find((word) => text.startsWith(word, i));
      if (literal) i += literal.length;
      else if (c === "'") fail('strings need double quotes (")');
      else fail(`expected a value, found ${describe(i)}`);
    }
  };
  const object = () => {
    i++;
    ws();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] !== '"') {
        fail(
          text[i] === '}'
            ? "trailing comma before '}'"
            : `expected a property name in double quotes, found ${describe(i)}`,
        );
      }
      string();
      ws();
      if (text[i] !== ':') fail(`expected ':' after the property name, found ${describe(i)}`);
      i++;
      value();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === '}') {
        i++;
        return;
      }
      fail(`expected ',' or '}', found ${describe(i)}`);
    }
  };
  const array = () => {
    i++;
    ws();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (;;) {
      ws();
      if (text[i] === ']') fail("trailing comma before ']'");
      value();
      ws();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === ']') {
        i++;
        return;
      }
      fail(`expected ',' or ']', found ${describe(i)}`);
    }
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${describe(i)} after the JSON value`);
    return undefined;
  } catch (error) {
    if (error instanceof Stop) return { offset: error.offset, message: error.message };
    throw error;
  }
}

/**
 * Line and column (1-based) of an offset, and the line with a caret under it.
 *
 * @example
 * ```ts
 * pointAt('{"a": }', 6); // { line: 1, column: 7, excerpt: ['{"a": }', '      ^'] }
 * ```
 */
export function pointAt(text: string, offset: number): { line: number; column: number; excerpt: string[] } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const lineStart = before.lastIndexOf('\n') + 1;
  const lineEnd = text.indexOf('\n', offset);
  const full = text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
  const column = offset - lineStart + 1;
  // Keep long one-line JSON readable: show a window around the offset.
  const from = Math.max(0, column - 1 - 60);
  const shown = (from > 0 ? '…' : '') + full.slice(from, from + 120) + (full.length > from + 120 ? '…' : '');
  const caretAt = column - 1 - from + (from > 0 ? 1 : 0);
  return { line, column, excerpt: [shown, `${' '.repeat(caretAt)}^`] };
}
