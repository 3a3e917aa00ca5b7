import { describe, expect, it } from 'vitest';
import { lint } from '../lint.js';

const schema = { type: 'object' };
const ids = (tools: unknown[], ruleId: string, options = {}) =>
  lint(tools, options).findings.filter((f) => f.ruleId === ruleId);

describe('name-pattern', () => {
  it('fires on a name with a space and a slash, and suggests one that fits', () => {
    const [f] = ids([{ name: 'read file/v2', inputSchema: schema }], 'name-pattern');
    expect(f?.severity).toBe('error');
    expect(f?.message).toContain('a space');
    expect(f?.message).toContain('"/"');
    expect(f?.fix).toContain('"read_file_v2"');
  });

  it('fires on a missing name and on a non-object entry', () => {
    expect(ids([{ inputSchema: schema }, 42], 'name-pattern')).toHaveLength(2);
  });

  it('does not fire on letters, digits, dots, dashes and underscores', () => {
    expect(ids([{ name: 'fs.read-file_2', inputSchema: schema }], 'name-pattern')).toEqual([]);
  });
});

describe('name-duplicate', () => {
  it('fires once per duplicated name', () => {
    const tools = [
      { name: 'a', inputSchema: schema },
      { name: 'a', inputSchema: schema },
      { name: 'b', inputSchema: schema },
    ];
    const found = ids(tools, 'name-duplicate');
    expect(found).toHaveLength(1);
    expect(found[0]?.message).toContain('2 tools are named "a"');
  });

  it('does not fire on unique names', () => {
    expect(
      ids(
        [
          { name: 'a', inputSchema: schema },
          { name: 'A', inputSchema: schema },
        ],
        'name-duplicate',
      ),
    ).toEqual([]);
  });
});

describe('name-length', () => {
  it('fires over 64 characters, as an error in the anthropic profile', () => {
    const tools = [{ name: 'x'.repeat(65), inputSchema: schema }];
    expect(ids(tools, 'name-length')[0]?.severity).toBe('warning');
    expect(ids(tools, 'name-length', { profile: 'anthropic' })[0]?.severity).toBe('error');
  });

  it('does not fire at exactly 64', () => {
    expect(ids([{ name: 'x'.repeat(64), inputSchema: schema }], 'name-length')).toEqual([]);
  });
});

describe('title-missing', () => {
  it('fires without title or annotations.title and suggests one from the name', () => {
    const [f] = ids([{ name: 'read_file', inputSchema: schema }], 'title-missing');
    expect(f?.patch).toEqual({ title: 'Read File' });
  });

  it('does not fire with either title', () => {
    const tools = [
      { name: 'a', title: 'A', inputSchema: schema },
      { name: 'b', inputSchema: schema, annotations: { title: 'B' } },
    ];
    expect(ids(tools, 'title-missing')).toEqual([]);
  });
});
