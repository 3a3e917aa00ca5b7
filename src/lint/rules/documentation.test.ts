import { describe, expect, it } from 'vitest';
import { lint } from '../lint.js';

const ids = (tools: unknown[], ruleId: string, options = {}) =>
  lint(tools, options).findings.filter((f) => f.ruleId === ruleId);

describe('description-missing', () => {
  it('fires on an absent or blank description', () => {
    const tools = [
      { name: 'a', inputSchema: { type: 'object' } },
      { name: 'b', description: '  ', inputSchema: { type: 'object' } },
    ];
    expect(ids(tools, 'description-missing').map((f) => f.tool)).toEqual(['a', 'b']);
  });

  it('does not fire on a sentence', () => {
    expect(
      ids([{ name: 'a', description: 'Reads a file.', inputSchema: { type: 'object' } }], 'description-missing'),
    ).toEqual([]);
  });
});

describe('description-one-word', () => {
  it('fires on a one-word description', () => {
    const [f] = ids([{ name: 'echo', description: 'Echo', inputSchema: { type: 'object' } }], 'description-one-word');
    expect(f?.message).toContain('"Echo"');
  });

  it('does not fire on two words or more', () => {
    expect(
      ids([{ name: 'echo', description: 'Echoes text.', inputSchema: { type: 'object' } }], 'description-one-word'),
    ).toEqual([]);
  });
});

describe('param-description-missing', () => {
  const tool = {
    name: 'read_file',
    description: 'Reads a file.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string' },
        encoding: { type: 'string', description: 'Text encoding.' },
        opts: { $ref: '#/$defs/o' },
      },
    },
  };

  it('fires listing only the parameters without a description (a $ref is described where defined)', () => {
    const [f] = ids([tool], 'param-description-missing');
    expect(f?.severity).toBe('info');
    expect(f?.message).toContain('"path"');
    expect(f?.message).not.toContain('encoding');
    expect(f?.message).not.toContain('opts');
  });

  it('is a warning in the strict profile', () => {
    expect(ids([tool], 'param-description-missing', { profile: 'strict' })[0]?.severity).toBe('warning');
  });

  it('does not fire on a tool without parameters', () => {
    expect(
      ids(
        [{ name: 'now', description: 'Current time.', inputSchema: { type: 'object' } }],
        'param-description-missing',
      ),
    ).toEqual([]);
  });
});
