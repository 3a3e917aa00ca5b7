import { describe, expect, it } from 'vitest';
import { apiNameFor } from './catalog.js';
import { Overrides } from './overrides.js';

describe('Overrides', () => {
  const overrides = new Overrides({
    servers: {
      mem: {
        tools: {
          'delete_*': { effect: 'destructive', world: 'closed' },
          delete_all: { effect: 'destructive', world: 'closed', idempotent: true },
          read_graph: { annotations: { readOnlyHint: true, openWorldHint: false }, tags: ['kg'] },
        },
      },
    },
  });

  it('resolves effects into hints, exact names before globs', () => {
    expect(overrides.lookup('mem', 'delete_all')).toMatchObject({
      pattern: 'delete_all',
      hints: { idempotentHint: true },
    });
    expect(overrides.lookup('mem', 'delete_one')).toMatchObject({
      pattern: 'delete_*',
      hints: { destructiveHint: true },
    });
    expect(overrides.lookup('mem', 'read_graph')).toMatchObject({ tags: ['kg'], hints: { readOnlyHint: true } });
    expect(overrides.lookup('mem', 'other')).toBeUndefined();
    expect(overrides.lookup('else', 'read_graph')).toBeUndefined();
  });

  it('refuses a malformed file with the path of each problem', () => {
    expect(() => new Overrides({ servers: { mem: { tools: { x: { effect: 'reads' } } } } }, 'o.json')).toThrow(
      /o\.json[\s\S]*servers\.mem\.tools\.x\.effect/,
    );
    expect(() => new Overrides({ servers: { mem: { tools: { x: { effect: 'read' } } } } })).toThrow(/world/);
    expect(() => new Overrides({ server: {} })).toThrow(/invalid/);
  });
});

describe('apiNameFor', () => {
  it('keeps names model APIs accept and makes others safe and stable', () => {
    expect(apiNameFor('fs__read_file')).toBe('fs__read_file');
    const dotted = apiNameFor('docs__search.v2');
    expect(dotted).toMatch(/^docs__search_v2_[0-9a-f]{8}$/);
    expect(apiNameFor('docs__search.v2')).toBe(dotted);
    expect(apiNameFor(`s__${'x'.repeat(100)}`)).toHaveLength(64);
  });
});
