import { describe, expect, test } from 'vitest';
import { isDefinitionError } from '../errors.js';
import { compileUriTemplate } from './uri-template.js';

describe('compileUriTemplate', () => {
  test('simple variables match one path segment and are percent-decoded', () => {
    const t = compileUriTemplate('users://{id}/profile');
    expect(t.variables).toEqual(['id']);
    expect(t.match('users://ada%20l/profile')).toEqual({ id: 'ada l' });
    expect(t.match('users://a/b/profile')).toBeUndefined();
    expect(t.match('users:///profile')).toBeUndefined();
  });

  test('reserved expansion {+path} spans slashes', () => {
    expect(compileUriTemplate('file:///{+path}').match('file:///src/engine/peer.ts')).toEqual({
      path: 'src/engine/peer.ts',
    });
  });

  test('query expressions read named parameters in any order and may be absent', () => {
    const t = compileUriTemplate('search://items{?q,limit}');
    expect(t.match('search://items?limit=5&q=red%20shoes')).toEqual({ q: 'red shoes', limit: '5' });
    expect(t.match('search://items')).toEqual({});
  });

  test('path-segment and exploded variables become lists', () => {
    expect(compileUriTemplate('repo://{owner}{/path*}').match('repo://ada/src/a.ts')).toEqual({
      owner: 'ada',
      path: ['src', 'a.ts'],
    });
  });

  test('literal characters that are special in regular expressions match literally', () => {
    const t = compileUriTemplate('x://a.b+c/{id}');
    expect(t.match('x://a.b+c/1')).toEqual({ id: '1' });
    expect(t.match('x://aXb+c/1')).toBeUndefined();
  });

  test('malformed templates are refused at definition time', () => {
    for (const bad of ['', 'x://{id', 'x://{a b}']) {
      let error: unknown;
      try {
        compileUriTemplate(bad);
      } catch (e) {
        error = e;
      }
      expect(isDefinitionError(error), bad).toBe(true);
    }
  });
});
