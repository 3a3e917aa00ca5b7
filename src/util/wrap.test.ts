import { describe, expect, it } from 'vitest';
import { wrapText } from './wrap.js';

describe('wrapText', () => {
  it('folds at spaces under the width, indents the rest, and keeps every word', () => {
    const reason = `every call failed: ${'word '.repeat(60)}the real cause at the end`;
    const out = wrapText(reason, { width: 40, first: '  tool: ', indent: '    ' });
    const lines = out.split('\n');
    expect(lines[0]!.startsWith('  tool: every call failed:')).toBe(true);
    expect(lines.slice(1).every((l) => l.startsWith('    '))).toBe(true);
    expect(lines.every((l) => l.length <= 40)).toBe(true);
    expect(out.replace(/\s+/g, ' ')).toBe(`  tool: ${reason}`.replace(/\s+/g, ' ').trimEnd());
    expect(out).toContain('the real cause at the end');
  });

  it('gives a word longer than the width a line of its own instead of splitting it', () => {
    const long = `/${'a'.repeat(80)}`;
    expect(wrapText(`see ${long} here`, { width: 30, indent: '  ' })).toBe(`see\n  ${long}\n  here`);
  });

  it('keeps line breaks in the text and takes linear time on a pathological input', () => {
    expect(wrapText('one\ntwo', { indent: '> ' })).toBe('one\n> two');
    const big = ' '.repeat(200_000) + 'x'.repeat(200_000);
    expect(wrapText(big, { width: 50 })).toBe('x'.repeat(200_000));
  });
});
