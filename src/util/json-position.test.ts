import { describe, expect, it } from 'vitest';
import { findJsonError, pointAt } from './json-position.js';

describe('findJsonError', () => {
  const cases: Array<[string, number, RegExp]> = [
    ['{"a": }', 6, /expected a value, found '}'/],
    ['{"a": 1,}', 8, /trailing comma before '}'/],
    ['{a: 1}', 1, /property name in double quotes/],
    ["{'a': 1}", 1, /property name in double quotes/],
    ['{"a": \'x\'}', 6, /double quotes/],
    ['{"a": "x', 8, /unterminated string/],
    ['[1 2]', 3, /expected ',' or ']'/],
    ['[1,]', 3, /trailing comma before ']'/],
    ['{"a": 1} x', 9, /after the JSON value/],
    ['', 0, /found the end of the input/],
    ['{"a": 01}', 7, /expected ',' or '}'/],
    ['{"a": "\\q"}', 7, /bad escape/],
    ['{"a": tru}', 6, /expected a value/],
  ];
  for (const [text, offset, message] of cases) {
    it(`finds the error in ${JSON.stringify(text)} at ${offset}`, () => {
      const problem = findJsonError(text);
      expect(problem?.offset).toBe(offset);
      expect(problem?.message).toMatch(message);
    });
  }

  it('accepts everything JSON.parse accepts', () => {
    for (const text of ['{}', '[]', '{"a": [1, -2.5e3, true, false, null, "\\u00e9\\n"]}', ' "x" ', '0']) {
      expect(() => JSON.parse(text)).not.toThrow();
      expect(findJsonError(text)).toBeUndefined();
    }
  });
});

describe('pointAt', () => {
  it('gives line, column and a caret under the offset', () => {
    expect(pointAt('{\n  "a": }', 9)).toEqual({ line: 2, column: 8, excerpt: ['  "a": }', '       ^'] });
  });

  it('shows a window around the offset of a long line', () => {
    const text = `{"a": "${'x'.repeat(200)}", "b": }`;
    const { excerpt, column } = pointAt(text, text.length - 1);
    expect(column).toBe(text.length);
    expect(excerpt[0]!.startsWith('…')).toBe(true);
    expect(excerpt[0]![excerpt[1]!.length - 1]).toBe('}');
  });
});
