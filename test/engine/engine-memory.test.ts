/**
 * The engine through the in-memory pair, driven by the official SDK v2 client.
 * Every message the server sends is checked against @modelcontextprotocol/core.
 */
import { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, test } from 'vitest';
import { defineTool } from '../../src/tool/define.js';
import { silentLogger } from '../../src/util/logger.js';
import { buildTestServer } from '../support/engine-server.js';
import { waitFor } from '../support/until.js';
import { createWireCheck, type WireCheck } from '../support/wire-check.js';

const open: Array<{ close(): Promise<void> }> = [];
const wires: WireCheck[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
  // Every message the server sent in the test, checked against @modelcontextprotocol/core.
  for (const wire of wires.splice(0)) wire.assertClean();
});

async function connect(
  options: { capabilities?: Record<string, object>; server?: ReturnType<typeof buildTestServer> } = {},
): Promise<{ client: Client; wire: WireCheck } & ReturnType<typeof buildTestServer>> {
  const built = options.server ?? buildTestServer({ logger: silentLogger });
  const wire = createWireCheck();
  const client = new Client({ name: 'sdk-v2-test', version: '0.0.1' }, { capabilities: options.capabilities ?? {} });
  await client.connect(wire.wrap(built.server.connectMemory()));
  open.push(client);
  wires.push(wire);
  return { client, wire, ...built };
}

const text = (result: { content: unknown[] }) => (result.content[0] as { text: string }).text;

describe('initialize', () => {
  test('the server answers with its info, instructions and capabilities derived from what is configured', async () => {
    const { client, wire } = await connect();
    expect(client.getServerVersion()).toEqual({ name: 'engine-test', version: '1.2.3', title: 'Engine test server' });
    expect(client.getInstructions()).toBe('Use echo to test.');
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: true },
      logging: {},
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    });
    wire.assertClean();
  });

  test('a server without resources or prompts does not advertise them', async () => {
    const { client } = await connect({
      server: {
        server: (await import('../../src/server/create-server.js')).createServer({
          name: 'bare',
          version: '1.0.0',
          logger: silentLogger,
        }),
        observed: { signals: new Map() },
      },
    });
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: true }, logging: {} });
  });
});

describe('tools', () => {
  test('tools/list carries every tool with its title and all four resolved hints', async () => {
    const { client, wire } = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('echo');
    for (const tool of tools) {
      expect(tool.title).toBeTypeOf('string');
      expect(Object.keys(tool.annotations ?? {}).sort()).toEqual(
        ['destructiveHint', 'idempotentHint', 'openWorldHint', 'readOnlyHint', 'title'].sort(),
      );
    }
    expect(tools.find((t) => t.name === 'delete_everything')?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    wire.assertClean();
  });

  test('tools/call returns text, and JSON plus structuredContent for a tool with an output schema', async () => {
    const { client, wire } = await connect();
    expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toEqual({
      content: [{ type: 'text', text: 'hi' }],
    });
    const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(sum.structuredContent).toEqual({ sum: 5 });
    expect(text(sum)).toBe('{"sum":5}');
    wire.assertClean();
  });

  test('an unknown tool is a JSON-RPC -32602 error; invalid arguments are an isError result', async () => {
    const { client, wire } = await connect();
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    const bad = await client.callTool({ name: 'echo', arguments: { text: 42 } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/- text: /);
    wire.assertClean();
  });

  test('handler failures are isError results: a ToolError shows its message, anything else is masked', async () => {
    const { client, wire } = await connect();
    const purposeful = await client.callTool({ name: 'fail', arguments: { on_purpose: true } });
    expect(purposeful).toMatchObject({ isError: true, content: [{ type: 'text', text: 'This failed on purpose.' }] });
    const accident = await client.callTool({ name: 'fail', arguments: { on_purpose: false } });
    expect(accident.isError).toBe(true);
    expect(text(accident)).not.toContain('/etc/secret');
    wire.assertClean();
  });

  test('a disabled tool is refused with -32602 and disappears from the list', async () => {
    const { client, server } = await connect();
    server.registry.disable({ names: ['echo'] });
    await expect(client.callTool({ name: 'echo', arguments: { text: 'x' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('disabled'),
    });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).not.toContain('echo');
  });

  test('notifications/tools/list_changed is sent once per registry change', async () => {
    const { client, server, wire } = await connect();
    let count = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      count += 1;
    });
    server.registry.disable({ names: ['echo', 'add', 'roots'] });
    server.registry.add(
      defineTool({ name: 'late', description: 'Added later.', effect: 'read', world: 'closed', handler: () => 'x' }),
      defineTool({ name: 'later', description: 'Added later.', effect: 'read', world: 'closed', handler: () => 'x' }),
    );
    await client.ping();
    await waitFor(() => count >= 2);
    expect(count).toBe(2);
    wire.assertClean();
  });
});

describe('progress, logging, cancellation, timeout', () => {
  test('progress notifications arrive for a call with a progress token, strictly increasing', async () => {
    const { client, wire } = await connect();
    const seen: Array<{ progress: number; total?: number; message?: string }> = [];
    const result = await client.callTool(
      { name: 'count_up', arguments: { n: 4 } },
      { onprogress: (p) => void seen.push({ progress: p.progress, total: p.total, message: p.message }) },
    );
    expect(text(result)).toBe('counted to 4');
    expect(seen.map((p) => p.progress)).toEqual([1, 2, 3, 4]);
    expect(seen[0]).toEqual({ progress: 1, total: 4, message: 'step 1' });
    wire.assertClean();
  });

  test('logging/setLevel filters notifications/message for that client', async () => {
    const { client, wire } = await connect();
    const levels: string[] = [];
    client.setNotificationHandler('notifications/message', (n) => void levels.push(n.params.level));
    await client.callTool({ name: 'log_levels', arguments: {} });
    expect(levels).toEqual(['debug', 'info', 'warning', 'error']);
    levels.length = 0;
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'log_levels', arguments: {} });
    expect(levels).toEqual(['warning', 'error']);
    await expect(
      client.request({ method: 'logging/setLevel', params: { level: 'loud' } } as never),
    ).rejects.toMatchObject({
      code: -32602,
    });
    wire.assertClean();
  });

  test('notifications/cancelled aborts the handler signal and the call gets no response', async () => {
    const { client, observed, server } = await connect();
    const controller = new AbortController();
    const call = client.callTool({ name: 'wait_for_abort', arguments: { key: 'c1' } }, { signal: controller.signal });
    await waitFor(() => observed.signals.has('c1'));
    controller.abort('user pressed stop');
    await expect(call).rejects.toThrow();
    await waitFor(() => observed.signals.get('c1')!.aborted);
    expect(String((observed.signals.get('c1')!.reason as Error).message)).toContain('user pressed stop');
    await waitFor(() => server.dispatcher.inFlight === 0);
  });

  test('a call past its time limit gets an isError result naming the limit and its signal is aborted', async () => {
    const { client, observed, wire } = await connect();
    const result = await client.callTool({ name: 'hang', arguments: { key: 't1' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('50 ms');
    expect(observed.signals.get('t1')?.aborted).toBe(true);
    wire.assertClean();
  });
});

describe('server→client requests inside a call', () => {
  test('elicitation round trip: the client answers and the tool gets the content', async () => {
    const { client, wire } = await connect({ capabilities: { elicitation: {} } });
    const asked: unknown[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    expect(text(await client.callTool({ name: 'ask_name', arguments: {} }))).toBe('hello Ada');
    expect(asked[0]).toMatchObject({ mode: 'form', message: 'What is your name?' });
    wire.assertClean();
  });

  test('confirm() is true only when the user accepts and confirms; decline and cancel are false', async () => {
    const { client } = await connect({ capabilities: { elicitation: {} } });
    let answer: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, boolean> } = { action: 'decline' };
    client.setRequestHandler('elicitation/create', async () => answer);
    expect(text(await client.callTool({ name: 'delete_everything', arguments: {} }))).toBe('kept');
    answer = { action: 'cancel' };
    expect(text(await client.callTool({ name: 'delete_everything', arguments: {} }))).toBe('kept');
    answer = { action: 'accept', content: { confirm: false } };
    expect(text(await client.callTool({ name: 'delete_everything', arguments: {} }))).toBe('kept');
    answer = { action: 'accept', content: { confirm: true } };
    expect(text(await client.callTool({ name: 'delete_everything', arguments: {} }))).toBe('deleted');
  });

  test('a client without the elicitation capability gets a clear refusal, not a hang', async () => {
    const { client, wire } = await connect();
    const result = await client.callTool({ name: 'ask_name', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('did not declare the elicitation capability');
    wire.assertClean();
  });

  test('confirmDestructive asks before a destructive call and a decline is reported to the model', async () => {
    const built = buildTestServer({ logger: silentLogger, confirmDestructive: true });
    const { client, wire } = await connect({ capabilities: { elicitation: {} }, server: built });
    const questions: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      questions.push((request.params as { message: string }).message);
      return { action: 'decline' };
    });
    const result = await client.callTool({ name: 'delete_everything', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('declined');
    expect(questions).toHaveLength(1);
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'safe' } }))).toBe('safe');
    expect(questions).toHaveLength(1);
    wire.assertClean();
  });

  test('sampling round trip', async () => {
    const { client, wire } = await connect({ capabilities: { sampling: {} } });
    client.setRequestHandler('sampling/createMessage', async (request) => ({
      model: 'test-model',
      role: 'assistant',
      content: { type: 'text', text: `short: ${JSON.stringify(request.params.messages[0]?.content).length}` },
    }));
    expect(text(await client.callTool({ name: 'summarise', arguments: { text: 'long text' } }))).toMatch(
      /^model test-model said: short: \d+$/,
    );
    wire.assertClean();
  });

  test('roots round trip, and a clear refusal without the roots capability', async () => {
    const { client, wire } = await connect({ capabilities: { roots: {} } });
    client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
    expect(text(await client.callTool({ name: 'roots', arguments: {} }))).toBe('file:///work');
    const { client: other } = await connect();
    const refused = await other.callTool({ name: 'roots', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('roots capability');
    wire.assertClean();
  });
});

describe('resources', () => {
  test('list, templates, and read of text, blob, ui:// and templated resources', async () => {
    const { client, wire } = await connect();
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['docs://readme', 'data://logo', 'ui://counter/view']);
    expect(resources[2]).toMatchObject({
      mimeType: 'text/html;profile=mcp-app',
      _meta: { ui: { prefersBorder: true } },
    });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([{ uriTemplate: 'notes://{id}', name: 'note', mimeType: 'text/plain' }]);
    expect((await client.readResource({ uri: 'docs://readme' })).contents).toEqual([
      { uri: 'docs://readme', mimeType: 'text/markdown', text: '# Hello' },
    ]);
    expect((await client.readResource({ uri: 'data://logo' })).contents).toEqual([
      { uri: 'data://logo', mimeType: 'image/png', blob: 'iVBORw==' },
    ]);
    const view = await client.readResource({ uri: 'ui://counter/view' });
    expect(view.contents[0]).toMatchObject({
      mimeType: 'text/html;profile=mcp-app',
      _meta: { ui: { prefersBorder: true } },
    });
    expect((await client.readResource({ uri: 'notes://b' })).contents).toEqual([
      { uri: 'notes://b', mimeType: 'text/plain', text: 'Note B' },
    ]);
    wire.assertClean();
  });

  test('an unknown URI is -32002 and a failing read is a JSON-RPC error with the ToolError message', async () => {
    const { client, wire } = await connect();
    // 2025-11-25 spec: "Resource not found: -32002", with the uri in data (the v2 client re-maps it locally).
    await expect(client.readResource({ uri: 'docs://missing' })).rejects.toMatchObject({
      data: { uri: 'docs://missing' },
    });
    expect(wire.serverMessages.at(-1)).toMatchObject({ error: { code: -32002, data: { uri: 'docs://missing' } } });
    await expect(client.readResource({ uri: 'notes://zzz' })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('No note zzz.'),
    });
    wire.assertClean();
  });

  test('subscribers get notifications/resources/updated; others and unsubscribed ones do not', async () => {
    const { client, server, wire } = await connect();
    const updated: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    await client.subscribeResource({ uri: 'docs://readme' });
    server.resources!.notifyUpdated('docs://readme');
    server.resources!.notifyUpdated('data://logo');
    await client.ping();
    expect(updated).toEqual(['docs://readme']);
    await client.unsubscribeResource({ uri: 'docs://readme' });
    server.resources!.notifyUpdated('docs://readme');
    await client.ping();
    expect(updated).toEqual(['docs://readme']);
    wire.assertClean();
  });

  test('adding a resource or prompt sends the matching list_changed notification', async () => {
    const { client, server, wire } = await connect();
    const seen: string[] = [];
    client.setNotificationHandler('notifications/resources/list_changed', () => void seen.push('resources'));
    client.setNotificationHandler('notifications/prompts/list_changed', () => void seen.push('prompts'));
    server.resources!.remove('data://logo');
    server.prompts!.remove('greet');
    await client.ping();
    expect(seen).toEqual(['resources', 'prompts']);
    wire.assertClean();
  });
});

describe('prompts and completion', () => {
  test('prompts/list shows arguments derived from the zod schema; prompts/get returns messages', async () => {
    const { client, wire } = await connect();
    const { prompts } = await client.listPrompts();
    expect(prompts.find((p) => p.name === 'review')).toEqual({
      name: 'review',
      title: 'Code review',
      description: 'Review code in a language.',
      arguments: [
        { name: 'code', description: 'The code', required: true },
        { name: 'language', required: true },
      ],
    });
    const got = await client.getPrompt({ name: 'review', arguments: { code: 'x = 1', language: 'python' } });
    expect(got.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Review this python:\nx = 1' } },
      { role: 'assistant', content: { type: 'text', text: 'Sure.' } },
    ]);
    expect((await client.getPrompt({ name: 'greet' })).messages[0]?.content).toEqual({ type: 'text', text: 'Hello!' });
    wire.assertClean();
  });

  test('unknown prompts and invalid arguments are -32602 errors naming the problem', async () => {
    const { client } = await connect();
    await expect(client.getPrompt({ name: 'nope' })).rejects.toMatchObject({ code: -32602 });
    await expect(client.getPrompt({ name: 'review', arguments: { code: 'x' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('language'),
    });
  });

  test('completion of a zod enum prompt argument and of a resource template variable', async () => {
    const { client, wire } = await connect();
    const lang = await client.complete({
      ref: { type: 'ref/prompt', name: 'review' },
      argument: { name: 'language', value: 'py' },
    });
    expect(lang.completion).toEqual({ values: ['python'], total: 1, hasMore: false });
    const note = await client.complete({
      ref: { type: 'ref/resource', uri: 'notes://{id}' },
      argument: { name: 'id', value: '' },
    });
    expect(note.completion.values).toEqual(['a', 'b']);
    const none = await client.complete({
      ref: { type: 'ref/prompt', name: 'review' },
      argument: { name: 'code', value: '' },
    });
    expect(none.completion.values).toEqual([]);
    await expect(
      client.complete({ ref: { type: 'ref/prompt', name: 'missing' }, argument: { name: 'x', value: '' } }),
    ).rejects.toMatchObject({ code: -32602 });
    wire.assertClean();
  });
});
