import { describe, expect, it } from 'vitest';
import { parseArgPairs, parseJsonArguments } from './args.js';
import { isCliError } from './cli-error.js';

function failure(fn: () => unknown): { message: string; details: readonly string[]; exitCode: number } {
  try {
    fn();
  } catch (error) {
    expect(isCliError(error)).toBe(true);
    return error as never;
  }
  throw new Error('expected a CliError');
}

describe('parseJsonArguments', () => {
  it('parses an object', () => {
    expect(parseJsonArguments('{"path": "a.txt", "n": 2}')).toEqual({ path: 'a.txt', n: 2 });
  });

  it('names the line, column and position of a syntax error and points at it', () => {
    const error = failure(() => parseJsonArguments('{"path": }'));
    expect(error.message).toBe(
      "Invalid JSON arguments at line 1, column 10 (position 9): expected a value, found '}'.",
    );
    expect(error.details.slice(0, 2)).toEqual(['  {"path": }', '           ^']);
    expect(error.exitCode).toBe(2);
  });

  it('refuses JSON that is not an object', () => {
    expect(failure(() => parseJsonArguments('["a"]')).message).toMatch(/must be a JSON object .* got an array/);
    expect(failure(() => parseJsonArguments('null')).message).toMatch(/got null/);
  });
});

describe('parseArgPairs', () => {
  const schema = {
    type: 'object',
    properties: {
      path: { type: 'string' },
      startLine: { type: 'integer' },
      ignoreCase: { type: 'boolean' },
      include: { type: 'array', items: { type: 'string' } },
      limit: { anyOf: [{ type: 'number' }, { type: 'null' }] },
    },
  };

  it('reads each value by the type the schema gives it', () => {
    expect(parseArgPairs(['path=123', 'startLine=5', 'ignoreCase=true', 'limit=null'], schema)).toEqual({
      path: '123',
      startLine: 5,
      ignoreCase: true,
      limit: null,
    });
  });

  it('keeps everything after the first "=" in the value', () => {
    expect(parseArgPairs(['path=a=b'], schema)).toEqual({ path: 'a=b' });
  });

  it('collects a repeated key of an array property', () => {
    expect(parseArgPairs(['include=*.ts', 'include=*.md'], schema)).toEqual({ include: ['*.ts', '*.md'] });
  });

  it('takes key:=<json> as JSON', () => {
    expect(parseArgPairs(['include:=["a","b"]', 'path:="x"'], schema)).toEqual({ include: ['a', 'b'], path: 'x' });
  });

  it('guesses JSON then string without a schema', () => {
    expect(parseArgPairs(['a=1', 'b=true', 'c=hello', 'd={"x":1}'])).toEqual({
      a: 1,
      b: true,
      c: 'hello',
      d: { x: 1 },
    });
  });

  it('refuses pairs without "=" and values of the wrong type', () => {
    expect(failure(() => parseArgPairs(['path'], schema)).message).toMatch(/expected key=value/);
    expect(failure(() => parseArgPairs(['startLine=ten'], schema)).message).toMatch(/expects integer for "startLine"/);
    expect(failure(() => parseArgPairs(['include:=[1,'], schema)).message).toMatch(
      /invalid JSON at position 3: expected a value, found the end of the input/,
    );
  });
});
