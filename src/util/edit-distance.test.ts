import { describe, expect, it } from 'vitest';
import { closestNames, editDistance } from './edit-distance.js';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('read_flie', 'read_file')).toBe(2);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});

describe('closestNames', () => {
  it('suggests the nearest names, nearest first, case-insensitively', () => {
    const tools = ['read_file', 'write_file', 'read_files', 'glob'];
    expect(closestNames('read_flie', tools)).toEqual(['read_file', 'read_files']);
    expect(closestNames('READ_FILE', tools)).toEqual(['read_file', 'read_files']);
    expect(closestNames('deploy', tools)).toEqual([]);
  });
});
