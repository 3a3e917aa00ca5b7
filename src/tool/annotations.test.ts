import { describe, expect, it } from 'vitest';
import { normaliseTool } from './annotations.js';

describe('normaliseTool', () => {
  it('fills every absent hint with the spec default and says so', () => {
    const tool = normaliseTool({ name: 'x', inputSchema: { type: 'object' } });
    expect(tool.hints).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(tool.hintSources).toEqual({
      readOnlyHint: 'default',
      destructiveHint: 'default',
      idempotentHint: 'default',
      openWorldHint: 'default',
    });
    expect(tool.title).toBe('x');
    expect(tool.visibility).toEqual(['model', 'app']);
  });

  it('reads snake_case hints', () => {
    const tool = normaliseTool({ name: 'x', annotations: { destructive_hint: false, idempotent_hint: true } });
    expect(tool.hints).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(tool.hintSources.destructiveHint).toBe('server');
  });

  it('takes the stricter value when camelCase and snake_case disagree', () => {
    const tool = normaliseTool({ name: 'x', annotations: { readOnlyHint: true, read_only_hint: false } });
    expect(tool.hints.readOnlyHint).toBe(false);
    expect(tool.warnings[0]).toContain('disagree');
  });

  it('treats a tool that says read-only and destructive as not read-only', () => {
    const tool = normaliseTool({ name: 'x', annotations: { readOnlyHint: true, destructiveHint: true } });
    expect(tool.hints.readOnlyHint).toBe(false);
    expect(tool.hints.destructiveHint).toBe(true);
  });

  it('ignores non-boolean hints, with a warning', () => {
    const tool = normaliseTool({ name: 'x', annotations: { readOnlyHint: 'true' } });
    expect(tool.hints.readOnlyHint).toBe(false);
    expect(tool.hintSources.readOnlyHint).toBe('default');
    expect(tool.warnings[0]).toContain('not a boolean');
  });

  it('follows the spec title precedence: title, annotations.title, name', () => {
    expect(normaliseTool({ name: 'n', title: 'T', annotations: { title: 'A' } }).title).toBe('T');
    expect(normaliseTool({ name: 'n', annotations: { title: 'A' } }).title).toBe('A');
  });

  it('reads MCP Apps visibility, always-confirm and candor tags from _meta', () => {
    const tool = normaliseTool({
      name: 'x',
      _meta: {
        ui: { resourceUri: 'ui://a', visibility: ['app', 'bogus'] },
        'anthropic/requiresUserInteraction': true,
        'dev.candor/tool': { tags: ['files', 3] },
      },
    });
    expect(tool.visibility).toEqual(['app']);
    expect(tool.ui).toEqual({ resourceUri: 'ui://a', visibility: ['app'] });
    expect(tool.requiresUserInteraction).toBe(true);
    expect(tool.tags).toEqual(['files']);
  });
});
