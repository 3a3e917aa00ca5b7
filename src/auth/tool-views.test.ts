import { describe, expect, test } from 'vitest';
import { ToolRegistry } from '../registry/registry.js';
import { defineTool } from '../tool/define.js';
import { ToolScopePolicy } from './tool-scopes.js';
import { ToolViews } from './tool-views.js';

function registry(): ToolRegistry {
  return new ToolRegistry().add(
    defineTool({ name: 'read_note', description: 'Read a note.', effect: 'read', world: 'closed', handler: () => 'x' }),
    defineTool({
      name: 'add_note',
      description: 'Add a note.',
      effect: 'additive',
      world: 'closed',
      handler: () => 'x',
    }),
    defineTool({
      name: 'delete_note',
      description: 'Delete a note.',
      effect: 'destructive',
      world: 'closed',
      handler: () => 'x',
    }),
    defineTool({
      name: 'purge',
      description: 'Purge all notes.',
      effect: 'destructive',
      world: 'closed',
      handler: () => 'x',
    }),
  );
}

describe('ToolScopePolicy', () => {
  test('derives one scope from the effect, renamable, overridable per tool', () => {
    const tools = registry();
    const policy = new ToolScopePolicy({
      scopeNames: { write: 'notes:write' },
      scopes: { purge: ['admin', 'tools:destructive'] },
    });
    expect(policy.required(tools.get('read_note')!)).toEqual(['tools:read']);
    expect(policy.required(tools.get('add_note')!)).toEqual(['notes:write']);
    expect(policy.required(tools.get('delete_note')!)).toEqual(['tools:destructive']);
    expect(policy.required(tools.get('purge')!)).toEqual(['admin', 'tools:destructive']);
    const own = defineTool({
      name: 'audit_log',
      description: 'Read the audit log.',
      effect: 'read',
      world: 'closed',
      scopes: ['audit:read'],
      handler: () => 'x',
    });
    expect(new ToolScopePolicy().required(own)).toEqual(['audit:read']);
    expect(new ToolScopePolicy({ scopes: { audit_log: ['admin'] } }).required(own)).toEqual(['admin']);
    expect(() =>
      defineTool({ name: 'x', description: 'x', effect: 'read', scopes: ['a b'], handler: () => 'x' }),
    ).toThrow(/scope tokens/);
    const fn = new ToolScopePolicy({ scopes: (tool) => (tool.name.startsWith('read') ? ['public'] : undefined) });
    expect(fn.required(tools.get('read_note')!)).toEqual(['public']);
    expect(fn.required(tools.get('add_note')!)).toEqual(['tools:write']);
  });

  test('refuses scope names that cannot go in a header', () => {
    expect(() => new ToolScopePolicy({ scopeNames: { read: 'tools read' } })).toThrow(/scope token/);
    expect(() => new ToolScopePolicy({ scopes: { x: ['a"b'] } })).toThrow(/scope tokens/);
  });
});

describe('ToolViews', () => {
  test('lists and resolves only the tools a scope set allows', () => {
    const tools = registry();
    const views = new ToolViews(tools, new ToolScopePolicy());
    const reader = views.forScopes(['tools:read', 'openid']);
    expect(reader.manifest().tools.map((t) => t.name)).toEqual(['read_note']);
    expect(reader.get('delete_note')).toBeUndefined();
    expect(reader.get('read_note')?.name).toBe('read_note');
    expect(JSON.parse(reader.manifestJson()).tools.map((t: { name: string }) => t.name)).toEqual(['read_note']);
    const all = views.forScopes(['tools:read', 'tools:write', 'tools:destructive']);
    expect(all.manifest().tools.map((t) => t.name)).toEqual(['add_note', 'delete_note', 'purge', 'read_note']);
    expect(views.forScopes([]).manifest().tools).toEqual([]);
  });

  test('is cached per scope set, not per request: the same JSON string until the registry changes', () => {
    const tools = registry();
    const views = new ToolViews(tools, new ToolScopePolicy());
    const first = views.forScopes(['tools:read', 'irrelevant']);
    const again = views.forScopes(['irrelevant-too', 'tools:read']);
    expect(again).toBe(first);
    const json = first.manifestJson();
    expect(views.forScopes(['tools:read']).manifestJson()).toBe(json);
    tools.disable({ names: ['read_note'] });
    expect(views.forScopes(['tools:read']).manifest().tools).toEqual([]);
    tools.enable({ names: ['read_note'] });
    expect(
      views
        .forScopes(['tools:read'])
        .manifest()
        .tools.map((t) => t.name),
    ).toEqual(['read_note']);
  });

  test('pages with the registry cursor format', () => {
    const tools = registry();
    const all = new ToolViews(tools, new ToolScopePolicy()).forScopes([
      'tools:read',
      'tools:write',
      'tools:destructive',
    ]);
    const first = all.manifest({ limit: 2 });
    expect(first.tools.map((t) => t.name)).toEqual(['add_note', 'delete_note']);
    const second = all.manifest({ cursor: first.nextCursor!, limit: 2 });
    expect(second.tools.map((t) => t.name)).toEqual(['purge', 'read_note']);
    expect(second.nextCursor).toBeUndefined();
  });
});
