import { describe, expect, it } from 'vitest';
import { defineTool } from '../tool/define.js';
import { isDestructive, summarizeTool } from './tool-summary.js';
import { defaultsNote, toolTable } from './tool-table.js';

describe('summarizeTool', () => {
  it('marks hints the server left out as spec defaults', () => {
    const s = summarizeTool({ name: 'read', annotations: { readOnlyHint: true } });
    expect(s.hints).toEqual({
      readOnlyHint: { value: true, source: 'wire' },
      destructiveHint: { value: true, source: 'default' },
      idempotentHint: { value: false, source: 'default' },
      openWorldHint: { value: true, source: 'default' },
    });
  });

  it('reads title precedence, candor tags and the MCP Apps UI link', () => {
    const tool = defineTool({
      name: 'chart',
      description: 'Draw a chart.',
      effect: 'read',
      world: 'closed',
      tags: ['viz'],
      ui: { resourceUri: 'ui://charts/view' },
      handler: () => 'ok',
    });
    expect(summarizeTool(tool.wire)).toMatchObject({
      name: 'chart',
      title: 'Chart',
      tags: ['viz'],
      ui: 'ui://charts/view',
    });
    expect(summarizeTool({ name: 'x', annotations: { title: 'From Annotations' } }).title).toBe('From Annotations');
  });
});

describe('isDestructive', () => {
  it('follows the spec defaults: absent destructiveHint on a tool that is not read-only is destructive', () => {
    expect(isDestructive({ name: 'x' })).toBe(true);
    expect(isDestructive({ name: 'x', annotations: { readOnlyHint: false } })).toBe(true);
    expect(isDestructive({ name: 'x', annotations: { readOnlyHint: false, destructiveHint: false } })).toBe(false);
    expect(isDestructive({ name: 'x', annotations: { readOnlyHint: true } })).toBe(false);
  });
});

describe('toolTable', () => {
  it('shows the four hints and marks defaults', () => {
    const table = toolTable([
      { name: 'rm', title: 'Remove', annotations: { readOnlyHint: false, openWorldHint: false } },
    ]);
    expect(table).toBe(
      [
        'NAME  TITLE   READ-ONLY  DESTRUCTIVE    IDEMPOTENT    OPEN-WORLD  TAGS  UI',
        'rm    Remove  no         yes (default)  no (default)  no          —     —',
      ].join('\n'),
    );
    expect(
      defaultsNote([
        { name: 'rm' },
        {
          name: 'ok',
          annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
        },
      ]),
    ).toMatch(/\(1 of 2 tools\)/);
  });
});
