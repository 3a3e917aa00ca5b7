import { describe, expect, it } from 'vitest';
import { renderTable, visibleWidth } from './table.js';

describe('renderTable', () => {
  it('pads columns to their widest cell and trims the last', () => {
    expect(
      renderTable({
        headers: ['NAME', 'TITLE'],
        rows: [
          ['read_file', 'Read File'],
          ['glob', '—'],
        ],
      }),
    ).toBe('NAME       TITLE\nread_file  Read File\nglob       —');
  });

  it('ignores colour codes when measuring', () => {
    expect(visibleWidth('\u001b[1mbold\u001b[22m')).toBe(4);
    const table = renderTable({ headers: ['A', 'B'], rows: [['\u001b[1mxx\u001b[22m', 'y']] });
    expect(table.split('\n')[1]).toBe('\u001b[1mxx\u001b[22m  y');
  });
});
