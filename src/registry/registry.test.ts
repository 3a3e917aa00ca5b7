import { ListToolsResultSchema } from '@modelcontextprotocol/core';
import { describe, expect, it } from 'vitest';
import { DefinitionError, ProtocolError } from '../errors.js';
import { defineTool } from '../tool/define.js';
import type { Effect, World } from '../tool/types.js';
import { disableVariable } from './env.js';
import { ToolRegistry } from './registry.js';

function tool(
  name: string,
  effect: Effect = 'read',
  extra: { tags?: string[]; category?: string; world?: World; description?: string; title?: string } = {},
) {
  return defineTool({
    name,
    description: extra.description ?? `The ${name} tool.`,
    title: extra.title,
    effect,
    world: extra.world ?? 'closed',
    tags: extra.tags,
    category: extra.category,
    handler: () => name,
  });
}

function quiet(env: Record<string, string> = {}) {
  const lines: string[] = [];
  return { registry: new ToolRegistry({ env, logger: (l) => lines.push(l) }), lines };
}

describe('ToolRegistry', () => {
  it('adds, gets and removes tools, emitting one event per call', () => {
    const { registry } = quiet();
    const events: string[] = [];
    registry.on('registered', (e) => events.push(`registered:${e.tools.map((t) => t.name).join(',')}`));
    registry.on('removed', (e) => events.push(`removed:${e.names.join(',')}`));
    registry.on('changed', (e) => events.push(`changed:${e.reason}:${e.names.join(',')}`));
    registry.add(tool('b'), tool('a'));
    expect(registry.get('a')?.name).toBe('a');
    expect(registry.has('b')).toBe(true);
    expect(registry.remove('a', 'zzz')).toBe(true);
    expect(registry.remove('zzz')).toBe(false);
    expect(events).toEqual(['registered:b,a', 'changed:added:b,a', 'removed:a', 'changed:removed:a']);
  });

  it('refuses a duplicate name and adds nothing from that call', () => {
    const { registry } = quiet();
    registry.add(tool('a'));
    expect(() => registry.add(tool('b'), tool('a'))).toThrow(DefinitionError);
    expect(() => registry.add(tool('c'), tool('c'))).toThrow(/already registered/);
    expect(registry.has('b')).toBe(false);
    expect(registry.size).toBe(1);
  });

  it('lists in deterministic name order whatever the insertion order', () => {
    const { registry } = quiet();
    registry.add(tool('zeta'), tool('Alpha'), tool('alpha'), tool('beta'));
    expect(registry.manifest().tools.map((t) => t.name)).toEqual(['Alpha', 'alpha', 'beta', 'zeta']);
  });

  it('enables and disables by names or tags with one change event per call', () => {
    const { registry } = quiet();
    registry.add(
      tool('r1', 'read', { tags: ['fs'] }),
      tool('w1', 'additive', { tags: ['fs', 'write'] }),
      tool('w2', 'destructive', { tags: ['write'] }),
    );
    const changes: string[][] = [];
    registry.on('changed', (e) => changes.push(e.names));
    expect(registry.disable({ tags: ['write'] })).toEqual(['w1', 'w2']);
    expect(registry.manifest().tools.map((t) => t.name)).toEqual(['r1']);
    expect(registry.callable('w1')).toBeUndefined();
    expect(registry.unavailableReason('w1')).toBe('disabled');
    expect(registry.disable({ names: ['w1'] })).toEqual([]);
    expect(registry.enable({ names: ['w1'], tags: ['fs'] })).toEqual(['w1']);
    expect(changes).toEqual([['w1', 'w2'], ['w1']]);
    expect(() => registry.disable({ names: ['nope'] })).toThrow(/No tool named "nope"/);
  });

  it('leaves tools disabled by TOOL_<NAME>_DISABLED out of the manifest, uncallable, with a log line', () => {
    const { registry, lines } = quiet({ TOOL_READ_FILE_DISABLED: 'true', TOOL_NS_LIST_DISABLED: '1' });
    registry.add(tool('read-file'), tool('ns.list'), tool('other'));
    expect(registry.manifest().tools.map((t) => t.name)).toEqual(['other']);
    expect(registry.callable('read-file')).toBeUndefined();
    expect(registry.unavailableReason('read-file')).toBe('disabled by TOOL_READ_FILE_DISABLED');
    expect(lines).toEqual([
      'candor: tool "read-file" is disabled by TOOL_READ_FILE_DISABLED',
      'candor: tool "ns.list" is disabled by TOOL_NS_LIST_DISABLED',
    ]);
  });

  it('re-reads the environment on reload without a rebuild, in one change event', () => {
    const env: Record<string, string> = { TOOL_A_DISABLED: 'true' };
    const registry = new ToolRegistry({ env, logger: () => {} });
    registry.add(tool('a'), tool('b'));
    const changes: string[][] = [];
    registry.on('changed', (e) => changes.push(e.names));
    delete env.TOOL_A_DISABLED;
    env.TOOL_B_DISABLED = 'TRUE';
    expect(registry.reloadEnv()).toEqual(['a', 'b']);
    expect(registry.manifest().tools.map((t) => t.name)).toEqual(['a']);
    expect(registry.reloadEnv()).toEqual([]);
    expect(changes).toEqual([['a', 'b']]);
  });

  it('maps names to their variable: upper case, every other character an underscore', () => {
    expect(disableVariable('get-user.v2')).toBe('TOOL_GET_USER_V2_DISABLED');
    expect(disableVariable('camelCase')).toBe('TOOL_CAMELCASE_DISABLED');
  });

  it('serves a cached manifest that only a change invalidates', () => {
    const { registry } = quiet();
    registry.add(tool('a'), tool('b'));
    const first = registry.manifest();
    expect(registry.manifest().tools[0]).toBe(first.tools[0]);
    const json = registry.manifestJson();
    expect(registry.manifestJson()).toBe(json);
    expect(JSON.parse(json)).toEqual(first);
    registry.add(tool('c'));
    expect(registry.manifestJson()).not.toBe(json);
    expect(ListToolsResultSchema.safeParse(JSON.parse(registry.manifestJson())).success).toBe(true);
  });

  it('pages with opaque cursors and ends without a nextCursor', () => {
    const { registry } = quiet();
    for (let i = 0; i < 25; i++) registry.add(tool(`t${String(i).padStart(2, '0')}`));
    // The full page first: per-tool JSON then comes from slices of it, and pages must not change.
    expect(JSON.parse(registry.manifestJson()).tools).toHaveLength(25);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = registry.manifest({ cursor, limit: 10 });
      expect(JSON.parse(registry.manifestJson({ cursor, limit: 10 }))).toEqual(page);
      seen.push(...page.tools.map((t) => t.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(registry.list().map((t) => t.name));
  });

  it('keeps paging correctly when a tool is removed between pages', () => {
    const { registry } = quiet();
    for (const n of ['a', 'b', 'c', 'd']) registry.add(tool(n));
    const first = registry.manifest({ limit: 2 });
    registry.remove('a');
    expect(registry.manifest({ cursor: first.nextCursor, limit: 2 }).tools.map((t) => t.name)).toEqual(['c', 'd']);
  });

  it('answers an invalid cursor with a clear -32602 error', () => {
    const { registry } = quiet();
    registry.add(tool('a'));
    for (const bad of ['nope!', 'e30', Buffer.from('{"x":1}').toString('base64url'), '']) {
      try {
        registry.manifest({ cursor: bad });
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ProtocolError);
        expect((error as ProtocolError).rpcCode).toBe(-32602);
        expect((error as Error).message).toMatch(/Invalid cursor/);
      }
    }
  });
});

describe('ToolRegistry.search', () => {
  function populated() {
    const { registry } = quiet();
    registry.add(
      tool('read_file', 'read', { tags: ['fs'], category: 'files' }),
      tool('write_file', 'additive', { tags: ['fs', 'write'], category: 'files' }),
      tool('delete_file', 'destructive', { tags: ['fs', 'write'], category: 'files' }),
      tool('web_fetch', 'read', { world: 'open', tags: ['net'], description: 'Fetch a URL from the web.' }),
      tool('send_email', 'additive', { world: 'open', title: 'Send an email' }),
    );
    return registry;
  }

  it('filters on the resolved hints', () => {
    const registry = populated();
    expect(registry.search({ readOnly: true }).tools.map((t) => t.name)).toEqual(['read_file', 'web_fetch']);
    expect(registry.search({ destructive: false, readOnly: false }).tools.map((t) => t.name)).toEqual([
      'send_email',
      'write_file',
    ]);
    expect(registry.search({ openWorld: true, readOnly: false }).tools.map((t) => t.name)).toEqual(['send_email']);
    expect(registry.search({ idempotent: true }).total).toBe(2);
  });

  it('filters on tags (all given) and category', () => {
    const registry = populated();
    expect(registry.search({ tags: ['fs', 'write'] }).tools.map((t) => t.name)).toEqual(['delete_file', 'write_file']);
    expect(registry.search({ category: 'files', readOnly: true }).tools.map((t) => t.name)).toEqual(['read_file']);
    expect(registry.search({ tags: ['unknown'] }).total).toBe(0);
  });

  it('matches text in name, title and description, best match first', () => {
    const registry = populated();
    expect(registry.search({ text: 'file' }).tools.map((t) => t.name)).toEqual([
      'delete_file',
      'read_file',
      'write_file',
    ]);
    expect(registry.search({ text: 'email' }).tools.map((t) => t.name)).toEqual(['send_email']);
    expect(registry.search({ text: 'url' }).tools.map((t) => t.name)).toEqual(['web_fetch']);
    expect(registry.search({ text: 'web file' }).total).toBe(0);
  });

  it('leaves disabled tools out', () => {
    const registry = populated();
    registry.disable({ names: ['read_file'] });
    expect(registry.search({ readOnly: true }).tools.map((t) => t.name)).toEqual(['web_fetch']);
  });

  it('pages with a total and refuses a cursor from another search', () => {
    const registry = populated();
    const first = registry.search({ limit: 2 });
    expect(first.total).toBe(5);
    expect(first.tools).toHaveLength(2);
    const second = registry.search({ limit: 2, cursor: first.nextCursor });
    expect(second.tools.map((t) => t.name)).toEqual(['send_email', 'web_fetch']);
    expect(() => registry.search({ readOnly: true, cursor: first.nextCursor })).toThrow(/different search/);
  });

  it('finds tools among 100,000 through the indexes', () => {
    const { registry } = quiet();
    const tools = [];
    for (let i = 0; i < 100_000; i++) {
      tools.push(
        tool(`tool_${i}`, i % 3 === 0 ? 'read' : i % 3 === 1 ? 'additive' : 'destructive', {
          tags: i % 1000 === 0 ? ['rare'] : [],
        }),
      );
    }
    registry.add(...tools);
    const page = registry.search({ tags: ['rare'], readOnly: true, limit: 1000 });
    expect(page.total).toBe(34);
    expect(page.tools.every((t) => t.hints.readOnlyHint && t.tags.includes('rare'))).toBe(true);
    expect(registry.search({ text: 'tool_99999' }).tools[0]?.name).toBe('tool_99999');
  });
});
