import { describe, expect, it } from 'vitest';
import { deriveTitle, resolveTitle, splitWords } from './title.js';

describe('titles', () => {
  it('derives a title from snake, kebab, camel and dotted names', () => {
    expect(deriveTitle('read_file')).toBe('Read File');
    expect(deriveTitle('list-open-issues')).toBe('List Open Issues');
    expect(deriveTitle('getUserProfile')).toBe('Get User Profile');
    expect(deriveTitle('github.create_issue')).toBe('Github Create Issue');
    expect(deriveTitle('fetchHTTPResponse')).toBe('Fetch HTTP Response');
  });

  it('splits names into words', () => {
    expect(splitWords('get_or_createUser-v2.x')).toEqual(['get', 'or', 'create', 'User', 'v2', 'x']);
  });

  it('follows the spec precedence: title, then annotations.title, then derived from name', () => {
    expect(resolveTitle('a_b', 'Top', 'Ann')).toEqual({ title: 'Top', source: 'title' });
    expect(resolveTitle('a_b', undefined, 'Ann')).toEqual({ title: 'Ann', source: 'annotations' });
    expect(resolveTitle('a_b', '  ', undefined)).toEqual({ title: 'A B', source: 'derived' });
  });
});
