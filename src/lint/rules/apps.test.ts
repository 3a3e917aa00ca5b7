import { describe, expect, it } from 'vitest';
import { lint } from '../lint.js';
import { matchesTemplate } from './apps.js';

const schema = { type: 'object' };
const ids = (tools: unknown[], ruleId: string, options = {}) =>
  lint(tools, options).findings.filter((f) => f.ruleId === ruleId);

describe('ui-meta-invalid', () => {
  it('fires on a resourceUri that is not ui://', () => {
    const tools = [
      { name: 'show_chart', inputSchema: schema, _meta: { ui: { resourceUri: 'https://example.test/x' } } },
    ];
    expect(ids(tools, 'ui-meta-invalid')[0]?.message).toContain('not a ui:// URI');
  });

  it('fires on a visibility that is not an array of model/app', () => {
    const tools = [{ name: 'show_chart', inputSchema: schema, _meta: { ui: { visibility: 'app' } } }];
    expect(ids(tools, 'ui-meta-invalid')).toHaveLength(1);
  });

  it('does not fire on a valid link and visibility', () => {
    const tools = [
      { name: 'show_chart', inputSchema: schema, _meta: { ui: { resourceUri: 'ui://charts/x', visibility: ['app'] } } },
    ];
    expect(ids(tools, 'ui-meta-invalid')).toEqual([]);
  });
});

describe('ui-resource-missing', () => {
  const tools = [{ name: 'show_chart', inputSchema: schema, _meta: { ui: { resourceUri: 'ui://charts/bar' } } }];

  it('fires when the server does not serve the linked view', () => {
    const [f] = ids(tools, 'ui-resource-missing', { resources: [{ uri: 'ui://charts/pie' }] });
    expect(f?.severity).toBe('error');
    expect(f?.message).toContain('ui://charts/bar');
  });

  it('reads the legacy flat _meta["ui/resourceUri"] key too', () => {
    const legacy = [{ name: 'show_chart', inputSchema: schema, _meta: { 'ui/resourceUri': 'ui://charts/bar' } }];
    expect(ids(legacy, 'ui-resource-missing', { resources: [] })).toHaveLength(1);
  });

  it('does not fire when the resource is served, directly or by a template', () => {
    expect(ids(tools, 'ui-resource-missing', { resources: [{ uri: 'ui://charts/bar' }] })).toEqual([]);
    expect(
      ids(tools, 'ui-resource-missing', { resources: [], resourceTemplates: [{ uriTemplate: 'ui://charts/{kind}' }] }),
    ).toEqual([]);
  });

  it('stays quiet when the resources are not known', () => {
    expect(ids(tools, 'ui-resource-missing')).toEqual([]);
  });

  it('matches RFC 6570 level-1 templates by segment', () => {
    expect(matchesTemplate('ui://charts/{kind}', 'ui://charts/bar')).toBe(true);
    expect(matchesTemplate('ui://charts/{kind}', 'ui://charts/bar/extra')).toBe(false);
    expect(matchesTemplate('ui://a.b/{x}', 'ui://aXb/1')).toBe(false);
  });
});

describe('app-only-write-unannotated', () => {
  it('fires on an app-only tool that deletes and declares no hints', () => {
    const tools = [{ name: 'delete_row', inputSchema: schema, _meta: { ui: { visibility: ['app'] } } }];
    const [f] = ids(tools, 'app-only-write-unannotated');
    expect(f?.severity).toBe('warning');
    expect(f?.patch).toEqual({ readOnlyHint: false, destructiveHint: true, openWorldHint: false });
  });

  it('does not fire when the tool is visible to the model', () => {
    const tools = [{ name: 'delete_row', inputSchema: schema, _meta: { ui: { visibility: ['model', 'app'] } } }];
    expect(ids(tools, 'app-only-write-unannotated')).toEqual([]);
  });

  it('does not fire on an app-only read tool or one with hints', () => {
    const tools = [
      { name: 'get_rows', inputSchema: schema, _meta: { ui: { visibility: ['app'] } } },
      {
        name: 'delete_row',
        inputSchema: schema,
        annotations: { destructiveHint: true },
        _meta: { ui: { visibility: ['app'] } },
      },
    ];
    expect(ids(tools, 'app-only-write-unannotated')).toEqual([]);
  });
});
