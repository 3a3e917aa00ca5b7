import { describe, expect, test } from 'vitest';
import { paramHeaderProblem } from './param-header-problems.js';

const one = (property: Record<string, unknown>) => ({ type: 'object', properties: { field: property } });

describe('paramHeaderProblem', () => {
  test('accepts primitive properties reached through properties alone, nested ones included', () => {
    expect(
      paramHeaderProblem({
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          priority: { type: 'integer', 'x-mcp-header': 'Priority' },
          target: { type: 'object', properties: { verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' } } },
          query: { type: 'string' },
        },
      }),
    ).toBeUndefined();
    expect(paramHeaderProblem({ type: 'object' })).toBeUndefined();
  });

  test.each([
    ['an empty name', one({ type: 'string', 'x-mcp-header': '' }), 'must be a non-empty string'],
    ['a name with a space', one({ type: 'string', 'x-mcp-header': 'My Region' }), 'is not an HTTP token'],
    ['a name with a colon', one({ type: 'string', 'x-mcp-header': 'Region:Primary' }), 'is not an HTTP token'],
    ['a non-ASCII name', one({ type: 'string', 'x-mcp-header': 'Région' }), 'is not an HTTP token'],
    ['a name with a tab', one({ type: 'string', 'x-mcp-header': 'Region\t1' }), 'is not an HTTP token'],
    ['an object property', one({ type: 'object', 'x-mcp-header': 'Data' }), 'on a "object" property'],
    ['an array property', one({ type: 'array', items: {}, 'x-mcp-header': 'Items' }), 'on a "array" property'],
    ['a null property', one({ type: 'null', 'x-mcp-header': 'Nil' }), 'on a "null" property'],
    ['a number property', one({ type: 'number', 'x-mcp-header': 'Score' }), 'on a "number" property'],
    [
      'a name used twice, ignoring case',
      {
        type: 'object',
        properties: {
          a: { type: 'string', 'x-mcp-header': 'MyField' },
          b: { type: 'string', 'x-mcp-header': 'myfield' },
        },
      },
      'declared twice (also as "MyField"',
    ],
    [
      'a declaration under items',
      { type: 'object', properties: { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'L' } } } },
      'list.items: x-mcp-header is allowed only on a property reached through "properties" alone',
    ],
    [
      'a declaration under anyOf',
      { type: 'object', anyOf: [{ properties: { r: { type: 'string', 'x-mcp-header': 'R' } } }] },
      'x-mcp-header is allowed only on a property reached through "properties" alone',
    ],
    ['a declaration on the root', { type: 'string', 'x-mcp-header': 'Root' }, '(the root): x-mcp-header'],
  ])('refuses %s', (_what, schema, expected) => {
    expect(paramHeaderProblem(schema)).toContain(expected);
  });
});
