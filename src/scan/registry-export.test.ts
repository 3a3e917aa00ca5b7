import { describe, expect, it } from 'vitest';
import { registryEntries } from './registry-export.js';

describe('registryEntries', () => {
  it('reads the API answer, taking each entry’s server and the registry’s status', () => {
    const entries = registryEntries({
      servers: [
        {
          server: { name: 'io.github.a/b', version: '1.2.3' },
          _meta: { 'io.modelcontextprotocol.registry/official': { status: 'deprecated' } },
        },
      ],
      metadata: { nextCursor: null },
    });
    expect(entries).toEqual([
      { server: { name: 'io.github.a/b', version: '1.2.3' }, label: 'io.github.a/b@1.2.3', status: 'deprecated' },
    ]);
  });

  it('reads an array of plain server.json documents, with the status inside their own _meta', () => {
    const entries = registryEntries([
      { name: 'x/y', _meta: { 'io.modelcontextprotocol.registry/official': { status: 'deleted' } } },
      { description: 'no name' },
    ]);
    expect(entries?.map((e) => [e.label, e.status])).toEqual([
      ['x/y', 'deleted'],
      ['entry 1', undefined],
    ]);
  });

  it('is undefined for what is not an export: target strings, client configs, empty lists, one server.json', () => {
    expect(registryEntries(['@scope/pkg', 'http://x'])).toBeUndefined();
    expect(registryEntries({ mcpServers: {} })).toBeUndefined();
    expect(registryEntries({ servers: {} })).toBeUndefined();
    expect(registryEntries([])).toBeUndefined();
    expect(registryEntries({ name: 'a/b', version: '1', packages: [] })).toBeUndefined();
    expect(registryEntries([{ name: 'a/b' }, 'text'])).toBeUndefined();
  });
});
