import { describe, expect, it } from 'vitest';
import { summarizeOffers } from '../targets/offers.js';
import { renderOffers, terminalLine } from './server-offers.js';

describe("a server's words in the terminal", () => {
  it('turns control characters into spaces, so a title cannot recolour or move the cursor', () => {
    expect(terminalLine('Notes\u001b[2J\u001b[31m view\r\nnext')).toBe('Notes [2J [31m view  next');
    expect(terminalLine('\u009b31m')).toBe('31m');
  });

  it('cuts long text on one line, and shows a dash for none', () => {
    expect(terminalLine('x'.repeat(1_000_000))).toBe(`${'x'.repeat(71)}…`);
    expect(terminalLine(undefined)).toBe('—');
    expect(terminalLine(' \n ')).toBe('—');
  });
});

describe('summarizeOffers', () => {
  it('keeps what was sent and skips entries without their key field', () => {
    const offers = summarizeOffers({
      resources: [{ uri: 'ui://notes/view', name: 'view', mimeType: 'text/html' }, { name: 'no uri' }, 'junk'],
      resourceTemplates: [{ uriTemplate: 'file:///{path}', title: 'File' }, { uri: 'x' }],
      prompts: [{ name: 'review', arguments: [{ name: 'diff', required: true }, { name: 'focus' }, { nope: 1 }] }, {}],
    });
    expect(offers).toEqual({
      resources: [{ uri: 'ui://notes/view', name: 'view', mimeType: 'text/html' }],
      resourceTemplates: [{ uriTemplate: 'file:///{path}', title: 'File' }],
      prompts: [
        {
          name: 'review',
          arguments: [
            { name: 'diff', required: true },
            { name: 'focus', required: false },
          ],
        },
      ],
    });
    expect(renderOffers(offers).join('\n')).toContain('  review  diff, focus?  —');
  });
});
