import {
  CallToolResultSchema,
  DiscoverResultSchema,
  ListToolsResultSchema,
  ReadResourceResultSchema,
  SubscriptionsAcknowledgedNotificationSchema,
  SubscriptionsListenResultSchema,
} from '@modelcontextprotocol/core';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { waitFor } from '../../../test/support/until.js';
import { createToolPipeline } from '../../pipeline/pipeline.js';
import { ToolRegistry } from '../../registry/registry.js';
import { defineResource } from '../../resources/define.js';
import { ResourceRegistry } from '../../resources/registry.js';
import { defineTool } from '../../tool/define.js';
import { silentLogger } from '../../util/logger.js';
import type { Channel, JsonRpcResponse } from '../channel.js';
import { ClientRequests } from '../client-requests.js';
import type { Engine } from '../engine.js';
import { serializeMessage } from '../jsonrpc.js';
import { classifyEra } from './classify.js';
import { type ModernContext, ModernEngine, type ModernOptions } from './modern-engine.js';
import { httpStatusOf } from './protocol.js';

const V = '2026-07-28';
const SERVER = { name: 'modern-test', version: '1.2.3' };
const CAPS = { elicitation: { form: {} }, sampling: {} };

function setup(options: ModernOptions = {}) {
  const effects: string[] = [];
  const seen: { signal?: AbortSignal; lateProgressSent?: boolean } = {};
  const registry = new ToolRegistry();
  registry.add(
    defineTool({
      name: 'echo',
      description: 'Echo text.',
      effect: 'read',
      world: 'closed',
      input: z.object({ text: z.string() }),
      handler: ({ text }) => text,
    }),
    defineTool({
      name: 'delete_file',
      description: 'Delete a file after asking.',
      effect: 'destructive',
      world: 'closed',
      input: z.object({ path: z.string() }),
      handler: async ({ path }, ctx) => {
        effects.push(`before:${path}`);
        if (!(await ctx.confirm(`Delete ${path}?`))) return 'kept';
        const note = await ctx.elicit({
          message: 'Why?',
          requestedSchema: { type: 'object', properties: { reason: { type: 'string' } } },
        });
        effects.push(`deleted:${path}`);
        return `deleted ${path} (${String(note.content?.reason)})`;
      },
    }),
    defineTool({
      name: 'slow',
      description: 'Report progress, log, then wait until aborted.',
      effect: 'read',
      world: 'closed',
      handler: async (_args, ctx) => {
        seen.signal = ctx.signal;
        await ctx.progress(1, 2, 'half');
        await ctx.log('info', 'working');
        await ctx.log('debug', 'noise');
        await new Promise((resolve) =>
          ctx.signal.aborted ? resolve(undefined) : ctx.signal.addEventListener('abort', resolve),
        );
        try {
          await ctx.progress(2, 2);
        } finally {
          seen.lateProgressSent = true;
        }
        return 'late';
      },
    }),
    defineTool({
      name: 'regional',
      description: 'Run in a region.',
      effect: 'read',
      world: 'open',
      input: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
      handler: () => 'ran',
    }),
  );
  const resources = new ResourceRegistry().add(
    defineResource({ uri: 'file:///readme.txt', name: 'readme', read: () => 'hello' }),
  );
  const engine: Engine = {
    serverInfo: SERVER,
    instructions: 'Be careful.',
    capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, logging: {} },
    tools: registry,
    resources,
    prompts: undefined,
    runTool: createToolPipeline({ tools: registry, logger: silentLogger }),
    logger: silentLogger,
    clientRequests: new ClientRequests(),
    accepting: true,
    track() {},
  };
  const modern = new ModernEngine(engine, { requestState: { secret: 'a-test-secret-of-enough-length' }, ...options });
  const sent: any[] = [];
  const channel: Channel & { keepAlive(): void } = {
    open: true,
    send: (m) => sent.push(JSON.parse(JSON.stringify(m))),
    keepAlive: () => sent.push(':keepalive'),
  };
  let nextId = 1;
  const request = async (
    method: string,
    params: Record<string, unknown> = {},
    extra: { meta?: Record<string, unknown>; ctx?: Partial<ModernContext>; headers?: Record<string, string> } = {},
  ) => {
    const id = nextId++;
    const message = {
      jsonrpc: '2.0',
      id,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': V,
          'io.modelcontextprotocol/clientCapabilities': CAPS,
          ...extra.meta,
        },
      },
    };
    const route = classifyEra(message, extra.headers ? { headers: extra.headers } : {});
    if (route.era === 'refused') return { id, answer: route.response as JsonRpcResponse };
    if (route.era !== 'modern') throw new Error('expected a modern route');
    const answer = await modern.handle(route, {
      channel,
      ...(extra.headers ? { headers: extra.headers } : {}),
      ...extra.ctx,
    });
    // As a transport writes it: RawJson pages are spliced text.
    return {
      id,
      answer: answer === undefined ? undefined : (JSON.parse(serializeMessage(answer)) as any),
      raw: answer,
    };
  };
  return { modern, registry, resources, request, sent, effects, seen };
}

describe('the modern engine', () => {
  test('server/discover advertises versions, capabilities, server info and cache hints', async () => {
    const { request } = setup();
    const { answer } = await request('server/discover');
    const result = answer!.result;
    expect(DiscoverResultSchema.parse(result)).toBeTruthy();
    expect(result).toMatchObject({
      resultType: 'complete',
      supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'],
      instructions: 'Be careful.',
      ttlMs: 60_000,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': SERVER },
    });
  });

  test('tools/list is the same deterministic list for everyone, with resultType, ttlMs and cacheScope', async () => {
    const { request } = setup({ cache: { lists: { ttlMs: 5000, scope: 'public' } } });
    const a = (await request('tools/list')).answer!.result;
    const b = (await request('tools/list', {}, { ctx: { info: { auth: { subject: 'alice' } } } })).answer!.result;
    expect(ListToolsResultSchema.parse(a)).toBeTruthy();
    expect(a).toMatchObject({ resultType: 'complete', ttlMs: 5000, cacheScope: 'public' });
    expect(a.tools.map((t: { name: string }) => t.name)).toEqual(['delete_file', 'echo', 'regional', 'slow']);
    expect(b).toEqual(a);
  });

  test('by default an authenticated caller gets a private list scope', async () => {
    const { request } = setup();
    const result = (await request('tools/list', {}, { ctx: { info: { auth: { subject: 'alice' } } } })).answer!.result;
    expect(result.cacheScope).toBe('private');
  });

  test('an unknown method, and methods the era removed, are 404 with -32601', async () => {
    const { request } = setup();
    for (const method of ['tools/frobnicate', 'ping', 'initialize', 'logging/setLevel', 'resources/subscribe']) {
      const { raw } = await request(method);
      expect(httpStatusOf(raw)).toBe(404);
      expect((raw as any).error.code).toBe(-32601);
    }
  });

  test('tools/call answers a complete result with server info', async () => {
    const { request } = setup();
    const { answer, raw } = await request('tools/call', { name: 'echo', arguments: { text: 'hi' } });
    expect(httpStatusOf(raw)).toBe(200);
    expect(CallToolResultSchema.parse(answer!.result)).toBeTruthy();
    expect(answer!.result).toEqual({
      content: [{ type: 'text', text: 'hi' }],
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': SERVER },
    });
  });

  test('an unknown tool is -32602 in-band (200), not a refusal', async () => {
    const { raw } = await setup().request('tools/call', { name: 'nope', arguments: {} });
    expect(httpStatusOf(raw)).toBe(200);
    expect((raw as any).error.code).toBe(-32602);
  });

  test('ctx.confirm() and ctx.elicit() travel as input_required rounds and the retries resume the handler', async () => {
    const { request, effects } = setup();
    const args = { path: 'a.txt' };
    const first = (await request('tools/call', { name: 'delete_file', arguments: args })).answer!.result;
    expect(first.resultType).toBe('input_required');
    expect(Object.keys(first.inputRequests)).toEqual(['elicit-0']);
    expect(first.inputRequests['elicit-0']).toMatchObject({
      method: 'elicitation/create',
      params: { mode: 'form', message: 'Delete a.txt?' },
    });
    expect(typeof first.requestState).toBe('string');
    expect(first._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': SERVER });

    const second = (
      await request('tools/call', {
        name: 'delete_file',
        arguments: args,
        requestState: first.requestState,
        inputResponses: { 'elicit-0': { action: 'accept', content: { confirm: true } } },
      })
    ).answer!.result;
    expect(second.resultType).toBe('input_required');
    expect(Object.keys(second.inputRequests)).toEqual(['elicit-1']);

    // The last round answers only elicit-1: the confirmation comes from the sealed state.
    const third = (
      await request('tools/call', {
        name: 'delete_file',
        arguments: args,
        requestState: second.requestState,
        inputResponses: { 'elicit-1': { action: 'accept', content: { reason: 'old' } } },
      })
    ).answer!.result;
    expect(third).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'deleted a.txt (old)' }] });
    // The part before the first question ran once per round; the deletion once.
    expect(effects).toEqual(['before:a.txt', 'before:a.txt', 'before:a.txt', 'deleted:a.txt']);
  });

  test('a declined confirmation ends the call without the side effect', async () => {
    const { request, effects } = setup();
    const first = (await request('tools/call', { name: 'delete_file', arguments: { path: 'b' } })).answer!.result;
    const done = (
      await request('tools/call', {
        name: 'delete_file',
        arguments: { path: 'b' },
        requestState: first.requestState,
        inputResponses: { 'elicit-0': { action: 'decline' } },
      })
    ).answer!.result;
    expect(done.content[0].text).toBe('kept');
    expect(effects).not.toContain('deleted:b');
  });

  test('a tampered, replayed or mismatched requestState is refused and never reaches the handler', async () => {
    const { request, effects } = setup();
    const first = (await request('tools/call', { name: 'delete_file', arguments: { path: 'a' } })).answer!.result;
    effects.length = 0;
    const state: string = first.requestState;
    const tampered = `${state.slice(0, -3)}${state.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    const cases = [
      [{ name: 'delete_file', arguments: { path: 'a' }, requestState: tampered }, 'integrity'],
      [{ name: 'delete_file', arguments: { path: '/etc/passwd' }, requestState: state }, 'different arguments'],
      [{ name: 'echo', arguments: { text: 'x' }, requestState: state }, 'not tools/call "echo"'],
    ] as const;
    for (const [params, reason] of cases) {
      const { answer, raw } = await request('tools/call', {
        ...params,
        inputResponses: { 'elicit-0': { action: 'accept', content: { confirm: true } } },
      });
      expect(answer!.error.code).toBe(-32602);
      expect(answer!.error.message).toContain(reason);
      expect(httpStatusOf(raw)).toBe(200);
    }
    const other = await request(
      'tools/call',
      { name: 'delete_file', arguments: { path: 'a' }, requestState: state },
      { ctx: { info: { auth: { subject: 'mallory' } } } },
    );
    expect(other.answer!.error.message).toContain('another principal');
    expect(effects).toEqual([]);
  });

  test('an expired requestState is refused', async () => {
    const { request, effects } = setup({ requestState: { secret: 'a-test-secret-of-enough-length', ttlMs: 0 } });
    const first = (await request('tools/call', { name: 'delete_file', arguments: { path: 'a' } })).answer!.result;
    effects.length = 0;
    const { answer } = await request('tools/call', {
      name: 'delete_file',
      arguments: { path: 'a' },
      requestState: first.requestState,
    });
    expect(answer!.error).toMatchObject({ code: -32602, message: expect.stringContaining('expired') });
    expect(effects).toEqual([]);
  });

  test('a malformed input response is -32602 before the handler runs', async () => {
    const { request, effects } = setup();
    const first = (await request('tools/call', { name: 'delete_file', arguments: { path: 'a' } })).answer!.result;
    effects.length = 0;
    const { answer } = await request('tools/call', {
      name: 'delete_file',
      arguments: { path: 'a' },
      requestState: first.requestState,
      inputResponses: { 'elicit-0': { action: 'maybe' } },
    });
    expect(answer!.error.code).toBe(-32602);
    expect(effects).toEqual([]);
  });

  test('a request that did not declare elicitation gets -32021 naming it (HTTP 400), not an input request', async () => {
    const { request, effects } = setup();
    const before = effects.length;
    const { answer, raw } = await request(
      'tools/call',
      { name: 'delete_file', arguments: { path: 'a' } },
      { meta: { 'io.modelcontextprotocol/clientCapabilities': {} } },
    );
    // basic/index, "Error Codes": MissingRequiredClientCapability, data.requiredCapabilities in the ClientCapabilities shape.
    expect(answer!.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
    expect(answer!.error.message).toContain('did not declare the elicitation capability');
    expect(answer!.result).toBeUndefined();
    expect(httpStatusOf(raw)).toBe(400);
    // The handler ran up to its question (as it does on every round) and no further.
    expect(effects.slice(before)).toEqual(['before:a']);
  });

  test('progress goes to the request channel; logs only when the request set a log level', async () => {
    const { request, sent, seen } = setup();
    const controller = new AbortController();
    const pending = request(
      'tools/call',
      { name: 'slow', arguments: {} },
      {
        meta: { progressToken: 'p1', 'io.modelcontextprotocol/logLevel': 'info' },
        ctx: { info: { signal: controller.signal } },
      },
    );
    await waitFor(() => seen.signal !== undefined && sent.length >= 2);
    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p1', progress: 1, total: 2, message: 'half' },
      },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } },
    ]);
    controller.abort();
    await pending;
  });

  test('a disconnect aborts the handler signal, gives no response and sends nothing more', async () => {
    const { request, sent, seen } = setup();
    const controller = new AbortController();
    const pending = request(
      'tools/call',
      { name: 'slow', arguments: {} },
      { meta: { progressToken: 7 }, ctx: { info: { signal: controller.signal } } },
    );
    await waitFor(() => seen.signal !== undefined && sent.length === 1);
    controller.abort();
    const { answer } = await pending;
    expect(answer).toBeUndefined();
    expect(seen.signal!.aborted).toBe(true);
    // Once the handler has sent its progress(2) after the abort, nothing more went out.
    await waitFor(() => seen.lateProgressSent === true);
    expect(sent).toHaveLength(1);
  });

  test('a mirrored Mcp-Param header that differs from the argument is refused with 400 and -32020', async () => {
    const { request } = setup();
    const headers = (region: string) => ({
      'mcp-protocol-version': V,
      'mcp-method': 'tools/call',
      'mcp-name': 'regional',
      'mcp-param-region': region,
    });
    const ok = await request(
      'tools/call',
      { name: 'regional', arguments: { region: 'eu' } },
      { headers: headers('eu') },
    );
    expect(ok.answer!.result.content[0].text).toBe('ran');
    const bad = await request(
      'tools/call',
      { name: 'regional', arguments: { region: 'eu' } },
      { headers: headers('us') },
    );
    expect(httpStatusOf(bad.raw)).toBe(400);
    expect(bad.answer!.error.code).toBe(-32020);
  });

  test('resources/read carries cache hints, and an unknown URI is -32602 (not -32002)', async () => {
    const { request } = setup();
    const read = (await request('resources/read', { uri: 'file:///readme.txt' })).answer!.result;
    expect(ReadResourceResultSchema.parse(read)).toBeTruthy();
    expect(read).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    const missing = (await request('resources/read', { uri: 'file:///nope' })).answer!;
    expect(missing.error.code).toBe(-32602);
  });

  test('subscriptions/listen acknowledges, streams list changes and resource updates, and ends when the client leaves', async () => {
    const { request, sent, registry, resources, modern } = setup({ subscriptions: { keepAliveMs: 10 } });
    const controller = new AbortController();
    const pending = request(
      'subscriptions/listen',
      {
        notifications: {
          toolsListChanged: true,
          promptsListChanged: true,
          resourceSubscriptions: ['file:///readme.txt'],
        },
      },
      { ctx: { info: { signal: controller.signal } } },
    );
    await waitFor(() => sent.length >= 1);
    const id = 1;
    expect(SubscriptionsAcknowledgedNotificationSchema.parse(sent[0])).toBeTruthy();
    // No prompts on this server: promptsListChanged is not honoured.
    expect(sent[0].params).toEqual({
      notifications: { toolsListChanged: true, resourceSubscriptions: ['file:///readme.txt'] },
      _meta: { 'io.modelcontextprotocol/subscriptionId': id },
    });
    registry.disable({ names: ['echo'] });
    resources.notifyUpdated('file:///readme.txt');
    resources.notifyUpdated('file:///other.txt');
    await waitFor(() => sent.includes(':keepalive'));
    const notes = sent.filter((m) => m !== ':keepalive').slice(1);
    expect(notes).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/tools/list_changed',
        params: { _meta: { 'io.modelcontextprotocol/subscriptionId': id } },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'file:///readme.txt', _meta: { 'io.modelcontextprotocol/subscriptionId': id } },
      },
    ]);
    expect(modern.subscriptions).toBe(1);
    controller.abort();
    expect((await pending).answer).toBeUndefined();
    expect(modern.subscriptions).toBe(0);
    const before = sent.length;
    registry.enable({ names: ['echo'] });
    expect(sent.length).toBe(before);
  });

  test('the subscription limit refuses one more listen; shutdown ends the open ones gracefully', async () => {
    const { request, modern } = setup({ subscriptions: { maxSubscriptions: 1 } });
    const first = request('subscriptions/listen', { notifications: { toolsListChanged: true } });
    await waitFor(() => modern.subscriptions === 1);
    const refused = await request('subscriptions/listen', { notifications: { toolsListChanged: true } });
    expect(refused.answer!.error.message).toContain('Subscription limit');
    modern.close();
    const closed = (await first).answer!;
    expect(SubscriptionsListenResultSchema.parse(closed.result)).toBeTruthy();
    expect(closed.result).toEqual({
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/subscriptionId': closed.id, 'io.modelcontextprotocol/serverInfo': SERVER },
    });
  });

  test('a listen request without a filter object is -32602', async () => {
    const { answer } = await setup().request('subscriptions/listen', { notifications: 'all' });
    expect(answer!.error.code).toBe(-32602);
  });
});
