import { describe, expect, it } from 'vitest';
import { resultSettings, resultSettingsFlag, serverResultSettings } from './settings.js';

describe('result guard settings', () => {
  it('refuses "redact" for injected instructions, naming the key and the allowed values', () => {
    expect(resultSettings({ injection: 'redact' })).toBe(
      'injection must be one of "annotate", "block", "off" (got "redact"); redaction removes secrets, and an instruction cut out of a text would leave the rest of it looking trusted.',
    );
    expect(serverResultSettings({ tools: { 'fetch_*': { injection: 'redact' } } })).toEqual({
      at: '.tools.fetch_*',
      problem: expect.stringContaining('injection must be one of "annotate", "block", "off"'),
    });
    expect(resultSettings({ secrets: 'redact', injection: 'block' })).toEqual({
      secrets: 'redact',
      injection: 'block',
    });
  });

  it('refuses a kind given twice on the command line with different actions (no silent last-wins)', () => {
    expect(resultSettingsFlag('secrets=block,secrets=off')).toBe(
      '--results: secrets is given twice (block, then off); give each kind once.',
    );
    expect(resultSettingsFlag('secrets=block,secrets=block')).toEqual({ secrets: 'block' });
    expect(resultSettingsFlag('secrets=block,injection=off')).toEqual({ secrets: 'block', injection: 'off' });
    expect(resultSettingsFlag('injection=redact')).toMatch(
      /^--results: injection must be one of "annotate", "block", "off"/,
    );
  });
});
