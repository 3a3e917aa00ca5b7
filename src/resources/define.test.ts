import { describe, expect, test } from 'vitest';
import { isDefinitionError } from '../errors.js';
import { defineResource, defineResourceTemplate } from './define.js';
import { ResourceRegistry } from './registry.js';
import { MCP_APP_MIME_TYPE } from './types.js';

function definitionError(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    if (isDefinitionError(error)) return error;
    throw error;
  }
  throw new Error('expected a DefinitionError');
}

describe('defineResource', () => {
  test('produces frozen plain data with the wire entry computed once', () => {
    const r = defineResource({
      uri: 'docs://a',
      name: 'a',
      title: 'A',
      mimeType: 'text/plain',
      size: 3,
      read: () => 'abc',
    });
    expect(Object.isFrozen(r)).toBe(true);
    expect(r.wire).toEqual({ uri: 'docs://a', name: 'a', title: 'A', mimeType: 'text/plain', size: 3 });
  });

  test('a ui:// resource defaults to the MCP Apps mime type and refuses another', () => {
    expect(defineResource({ uri: 'ui://app/view', name: 'view', read: () => '<p>' }).mimeType).toBe(MCP_APP_MIME_TYPE);
    expect(
      definitionError(() => defineResource({ uri: 'ui://app/view', name: 'v', mimeType: 'text/html', read: () => '' }))
        .message,
    ).toContain(MCP_APP_MIME_TYPE);
  });

  test('a URI without a scheme, a missing name or read are refused with the field named', () => {
    expect(definitionError(() => defineResource({ uri: 'readme', name: 'r', read: () => '' })).message).toContain(
      'uri',
    );
    expect(definitionError(() => defineResource({ uri: 'a://b', name: '', read: () => '' })).message).toContain('name');
    expect(definitionError(() => defineResource({ uri: 'a://b', name: 'b' } as never)).message).toContain('read');
  });
});

describe('defineResourceTemplate', () => {
  test('completers must name template variables', () => {
    expect(
      definitionError(() =>
        defineResourceTemplate({ uriTemplate: 'n://{id}', name: 'n', complete: { other: () => [] }, read: () => '' }),
      ).message,
    ).toContain('complete.other');
  });
});

describe('ResourceRegistry', () => {
  test('duplicates are refused and pagination walks every resource once', async () => {
    const registry = new ResourceRegistry({ pageSize: 2 });
    for (let i = 0; i < 5; i++) registry.add(defineResource({ uri: `n://${i}`, name: `n${i}`, read: () => '' }));
    expect(() => registry.add(defineResource({ uri: 'n://0', name: 'again', read: () => '' }))).toThrow(
      /already registered/,
    );
    const uris: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await registry.list(cursor === undefined ? {} : { cursor });
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(uris).toEqual(['n://0', 'n://1', 'n://2', 'n://3', 'n://4']);
    await expect(registry.list({ cursor: 'garbage!' })).rejects.toMatchObject({ rpcCode: -32602 });
  });

  test('read normalises strings, bytes and item lists, filling uri and mime type', async () => {
    const registry = new ResourceRegistry().add(
      defineResource({ uri: 'a://text', name: 't', mimeType: 'text/plain', read: () => 'hi' }),
      defineResource({ uri: 'a://bytes', name: 'b', read: () => new Uint8Array([1, 2, 3]) }),
      defineResource({
        uri: 'a://many',
        name: 'm',
        read: () => [{ text: 'one' }, { uri: 'a://many#2', blob: 'AAAA' }],
      }),
    );
    const ctx = { signal: new AbortController().signal };
    expect(await registry.read('a://text', ctx)).toEqual({
      contents: [{ uri: 'a://text', mimeType: 'text/plain', text: 'hi' }],
    });
    expect(await registry.read('a://bytes', ctx)).toEqual({ contents: [{ uri: 'a://bytes', blob: 'AQID' }] });
    expect(await registry.read('a://many', ctx)).toEqual({
      contents: [
        { uri: 'a://many', text: 'one' },
        { uri: 'a://many#2', blob: 'AAAA' },
      ],
    });
    await expect(registry.read('a://none', ctx)).rejects.toMatchObject({ rpcCode: -32002 });
  });
});
