import { describe, expect, it } from 'vitest';
import { serverResultSettings } from './settings.js';
import { specificity, toolResultSettings } from './tool-settings.js';
import type { ServerResultSettings } from './types.js';

const tool = (server: string, toolName: string) => ({ server, toolName, name: `${server}__${toolName}` });

describe('toolResultSettings', () => {
  const servers: Record<string, ServerResultSettings> = {
    web: {
      injection: 'annotate',
      tools: {
        'fetch_*': { injection: 'block', secrets: 'block' },
        fetch_raw: { injection: 'off' },
        '*': { secrets: 'annotate' },
      },
    },
    files: { secrets: 'off' },
  };
  const settingsFor = toolResultSettings({ gateway: { secrets: 'redact' }, server: (name) => servers[name] });

  it('lets the most specific entry decide each kind, over the server and the gateway', () => {
    expect(settingsFor(tool('web', 'fetch_raw'))).toEqual({ secrets: 'block', injection: 'off' });
    expect(settingsFor(tool('web', 'fetch_page'))).toEqual({ secrets: 'block', injection: 'block' });
    expect(settingsFor(tool('web', 'search'))).toEqual({ secrets: 'annotate', injection: 'annotate' });
  });

  it("falls back to the server's settings and then the gateway's", () => {
    expect(settingsFor(tool('files', 'read'))).toEqual({ secrets: 'off' });
    expect(settingsFor(tool('memory', 'read_graph'))).toEqual({ secrets: 'redact' });
  });

  it('matches the catalog name server__tool as well as the name on the server', () => {
    const byCatalogName = toolResultSettings({ server: () => ({ tools: { 'web__fetch_*': { secrets: 'block' } } }) });
    expect(byCatalogName(tool('web', 'fetch_page'))).toEqual({ secrets: 'block' });
  });

  it('lets the entry written first win between two globs as specific', () => {
    const tie = toolResultSettings({
      server: () => ({ tools: { 'read_*': { secrets: 'block' }, '*d_key': { secrets: 'off' } } }),
    });
    expect(specificity('read_*')).toBe(specificity('*d_key'));
    expect(tie(tool('files', 'read_key'))).toEqual({ secrets: 'block' });
  });

  it('ranks an exact name over any glob and longer literals over shorter', () => {
    expect(specificity('fetch_page')).toBeGreaterThan(specificity('fetch_pag?'));
    expect(specificity('fetch_*')).toBeGreaterThan(specificity('f*'));
  });
});

describe('serverResultSettings', () => {
  it('reads kinds and per-tool entries', () => {
    expect(serverResultSettings({ secrets: 'block', tools: { 'fetch_*': { injection: 'off' } } })).toEqual({
      secrets: 'block',
      tools: { 'fetch_*': { injection: 'off' } },
    });
  });

  it('says where a wrong value is, below the server', () => {
    expect(serverResultSettings({ tools: { 'fetch_*': { injection: 'drop' } } })).toEqual({
      at: '.tools.fetch_*',
      problem: 'injection must be one of "annotate", "block", "off" (got "drop").',
    });
    expect(serverResultSettings({ tools: ['fetch_*'] })).toEqual({
      at: '.tools',
      problem: 'expected { "<tool name or glob>": { "secrets": "block" } }.',
    });
    expect(serverResultSettings({ secret: 'redact' })).toEqual({
      at: '',
      problem: 'unknown key "secret"; expected "secrets", "injection", "budgetMs" or "tools".',
    });
  });
});
