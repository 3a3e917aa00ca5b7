/**
 * The 2026-07-28 era over Streamable HTTP with the official SDK v2 client,
 * pinned to the new era and in 'auto' mode, against one candor
 * server whose single /mcp endpoint also keeps serving 2025-era clients (SDK
 * v1 and v2 in legacy mode) in the same run. Every message the server sends
 * to a modern client is checked against the 2026-07-28 rules.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Client,
  MissingRequiredClientCapabilityError,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema as ElicitRequestSchemaV1 } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHttpHandler, type HttpHandler } from '../../src/transports/http/create-http-handler.js';
import { buildModernServer, type Observed } from '../support/modern-fixture.js';
import { createModernWireCheck, type ModernWireCheck } from '../support/modern-wire-check.js';
import { waitFor } from '../support/until.js';

const V = '2026-07-28';
let http: Server;
let handler: HttpHandler;
let url: string;
let observed: Observed;

beforeAll(async () => {
  const built = buildModernServer();
  observed = built.observed;
  handler = createHttpHandler({ dispatcher: built.server.dispatcher });
  http = createHttpServer((req, res) => void handler.nodeHandler(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await handler.close({ timeoutMs: 1000 });
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

async function modernClient(mode: 'pin' | 'auto'): Promise<{ client: Client; wire: ModernWireCheck }> {
  const client = new Client(
    { name: 'interop', version: '1.0.0' },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: mode === 'pin' ? { pin: V } : 'auto' },
    },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    const message = (request.params as { message: string }).message;
    return message.includes('keep') ? { action: 'decline' } : { action: 'accept', content: { confirm: true } };
  });
  const wire = createModernWireCheck();
  await client.connect(wire.wrap(new StreamableHTTPClientTransport(new URL(url))));
  return { client, wire };
}

describe.each(['pin', 'auto'] as const)('SDK v2 client in %s mode over HTTP', (mode) => {
  test('negotiates 2026-07-28 through server/discover and sees the server identity', async () => {
    const { client, wire } = await modernClient(mode);
    expect(client.getNegotiatedProtocolVersion()).toBe(V);
    expect(client.getServerVersion()).toMatchObject({ name: 'modern-interop', version: '0.4.0' });
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
    expect(wire.resultsOf('server/discover')).toHaveLength(1);
    await client.close();
    wire.assertClean();
  });

  test('lists tools with caching hints and calls one', async () => {
    const { client, wire } = await modernClient(mode);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'count',
      'delete_file',
      'echo',
      'regional',
      'status',
      'toggle_echo',
      'wait',
    ]);
    expect(wire.resultsOf('tools/list')[0]).toMatchObject({
      resultType: 'complete',
      ttlMs: 60_000,
      cacheScope: 'public',
    });
    // The official client mirrors x-mcp-header arguments into Mcp-Param-* headers; the server checks them.
    const regional = await client.callTool({ name: 'regional', arguments: { region: `zone ${mode} ü` } });
    expect(regional.content).toEqual([{ type: 'text', text: `ran in zone ${mode} ü` }]);
    const result = await client.callTool({ name: 'echo', arguments: { text: `hello ${mode}` } });
    expect(result.content).toEqual([{ type: 'text', text: `hello ${mode}` }]);
    expect(wire.resultsOf('tools/call')[0]._meta['io.modelcontextprotocol/serverInfo'].name).toBe('modern-interop');
    await client.close();
    wire.assertClean();
  });

  test('streams progress on the call response', async () => {
    const { client, wire } = await modernClient(mode);
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'count', arguments: {} },
      { onprogress: ({ progress: p }) => void progress.push(p) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'counted' }]);
    // On the wire (the call's SSE stream): three increasing progress notifications, then the answer.
    const sent = wire.serverMessages as any[];
    const answer = sent.findIndex((m) => m.result?.content?.[0]?.text === 'counted');
    const notes = sent.slice(0, answer).filter((m) => m.method === 'notifications/progress');
    expect(notes.map((m) => m.params.progress)).toEqual([1, 2, 3]);
    // Not asserted on the callback: the SDK v2 client hands notifications to handlers a microtask late
    // but settles the response at once, so progress read together with the answer misses its callback
    // (a client race, the same in both eras; `progress` is there so the client sends a progressToken).
    await client.close();
    wire.assertClean();
  });

  test('an elicitation round trip travels as input_required and the retry completes the call', async () => {
    const { client, wire } = await modernClient(mode);
    const path = `${mode}-a.txt`;
    const result = await client.callTool({ name: 'delete_file', arguments: { path } });
    expect(result.content).toEqual([{ type: 'text', text: `deleted ${path}` }]);
    const calls = wire.resultsOf('tools/call');
    expect(calls.map((r) => r.resultType)).toEqual(['input_required', 'complete']);
    expect(Object.values(calls[0].inputRequests)).toEqual([
      expect.objectContaining({ method: 'elicitation/create', params: expect.objectContaining({ mode: 'form' }) }),
    ]);
    expect(observed.effects).toContain(`deleted ${path}`);
    const kept = await client.callTool({ name: 'delete_file', arguments: { path: `${mode}-keep.txt` } });
    expect(kept.content).toEqual([{ type: 'text', text: `kept ${mode}-keep.txt` }]);
    await client.close();
    wire.assertClean();
  });

  test('list changes arrive through subscriptions/listen', async () => {
    const { client, wire } = await modernClient(mode);
    let changed!: () => void;
    const arrived = new Promise<void>((resolve) => {
      changed = resolve;
    });
    client.setNotificationHandler('notifications/tools/list_changed', () => changed());
    const subscription = await client.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
    await client.callTool({ name: 'toggle_echo', arguments: {} });
    await arrived;
    await client.callTool({ name: 'toggle_echo', arguments: {} }); // echo back on for the other tests
    await subscription.close();
    expect(await subscription.closed).toBe('local');
    await client.close();
    wire.assertClean();
  });

  test('closing the request cancels the call: the handler aborts and nothing more is sent', async () => {
    const { client, wire } = await modernClient(mode);
    const tag = `${mode}-cancel`;
    const controller = new AbortController();
    const progress: number[] = [];
    const call = client.callTool(
      { name: 'wait', arguments: { tag } },
      { signal: controller.signal, onprogress: ({ progress: p }) => void progress.push(p) },
    );
    await waitFor(() => observed.started.includes(tag));
    controller.abort();
    await expect(call).rejects.toThrow();
    // The handler tried its progress(99) after the abort and returned; none of it reached the client.
    await waitFor(() => observed.settled.includes(tag));
    expect(progress).toEqual([]);
    await client.close();
    wire.assertClean();
  });
});

describe('prompts/get and resources/read that ask the user', () => {
  test('2026-07-28: the SDK v2 client answers the input_required round and gets the prompt', async () => {
    const { client, wire } = await modernClient('pin');
    const prompt = await client.getPrompt({ name: 'release_notes', arguments: { version: '2.0' } });
    expect(prompt.messages[0]?.content).toEqual({
      type: 'text',
      text: 'Write the notes for 2.0, internal changes included.',
    });
    const rounds = wire.resultsOf('prompts/get');
    expect(rounds.map((r) => r.resultType)).toEqual(['input_required', 'complete']);
    expect(Object.values(rounds[0].inputRequests)).toEqual([
      expect.objectContaining({ method: 'elicitation/create', params: expect.objectContaining({ mode: 'form' }) }),
    ]);
    expect(observed.effects).toContain('notes 2.0 internal=true');
    await client.close();
    wire.assertClean();
  });

  test('2026-07-28: resources/read answers input_required, then the read, with caching hints only on the read', async () => {
    const { client, wire } = await modernClient('pin');
    const read = await client.readResource({ uri: 'vault://secret' });
    expect(read.contents).toEqual([{ uri: 'vault://secret', mimeType: 'text/plain', text: 'the secret' }]);
    const rounds = wire.resultsOf('resources/read');
    expect(rounds.map((r) => r.resultType)).toEqual(['input_required', 'complete']);
    expect(rounds[0].ttlMs).toBeUndefined();
    expect(rounds[1].ttlMs).toBeTypeOf('number');
    await client.close();
    wire.assertClean();
  });

  test('2026-07-28: a tampered requestState is refused before the prompt runs again', async () => {
    const post = async (params: Record<string, unknown>) => {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': V,
          'mcp-method': 'prompts/get',
          'mcp-name': 'release_notes',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'prompts/get',
          params: {
            name: 'release_notes',
            arguments: { version: '3.0' },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': V,
              'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
            },
            ...params,
          },
        }),
      });
      return (await res.json()) as any;
    };
    const first = await post({});
    expect(first.result.resultType).toBe('input_required');
    const key = Object.keys(first.result.inputRequests)[0]!;
    const state = first.result.requestState as string;
    const tampered = `${state.slice(0, -2)}${state.endsWith('A') ? 'B' : 'A'}${state.slice(-1)}`;
    const refused = await post({
      requestState: tampered,
      inputResponses: { [key]: { action: 'accept', content: { confirm: true } } },
    });
    expect(refused.error.code).toBe(-32602);
    expect(observed.effects).not.toContain('notes 3.0 internal=true');
    const answered = await post({
      requestState: state,
      inputResponses: { [key]: { action: 'decline' } },
    });
    expect(answered.result.messages[0].content.text).toBe('Write the notes for 3.0.');
  });

  test('2026-07-28: without the elicitation capability, prompts/get answers -32021', async () => {
    const client = new Client(
      { name: 'no-elicitation', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: V } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const failure = await client.getPrompt({ name: 'release_notes', arguments: { version: '4.0' } }).catch((e) => e);
    expect(failure).toBeInstanceOf(MissingRequiredClientCapabilityError);
    await client.close();
  });

  test('2025 era: the prompt asks with elicitation/create on the request (SDK v1 client)', async () => {
    const client = new ClientV1({ name: 'v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchemaV1, async () => ({ action: 'accept', content: { confirm: false } }));
    await client.connect(new HttpTransportV1(new URL(url)));
    const prompt = await client.getPrompt({ name: 'release_notes', arguments: { version: '1.9' } });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Write the notes for 1.9.' });
    const read = await client.readResource({ uri: 'vault://secret' });
    expect(read.contents[0]).toMatchObject({ text: 'withheld' });
    await client.close();
  });
});

describe('2025-era clients on the same endpoint, in the same run', () => {
  test('the SDK v2 client in legacy mode initializes, lists and calls', async () => {
    const client = new Client({ name: 'legacy-v2', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect((await client.listTools()).tools).toHaveLength(7);
    expect((await client.callTool({ name: 'echo', arguments: { text: 'old' } })).content).toEqual([
      { type: 'text', text: 'old' },
    ]);
    await client.close();
  });

  test('the SDK v1 client initializes, lists and calls', async () => {
    const client = new ClientV1({ name: 'legacy-v1', version: '1.0.0' });
    await client.connect(new HttpTransportV1(new URL(url)));
    expect((await client.listTools()).tools).toHaveLength(7);
    expect((await client.callTool({ name: 'echo', arguments: { text: 'v1' } })).content).toEqual([
      { type: 'text', text: 'v1' },
    ]);
    await client.close();
  });
});

describe('refusals over HTTP, with the status and code the spec gives', () => {
  const envelope = (version = V) => ({
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': {},
  });
  const send = async (body: unknown, headers: Record<string, string>) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any, session: res.headers.get('mcp-session-id') };
  };
  const callBody = (version = V) => ({
    jsonrpc: '2.0',
    id: 9,
    method: 'tools/call',
    params: { name: 'echo', arguments: { text: 'x' }, _meta: envelope(version) },
  });
  const standard = { 'mcp-protocol-version': V, 'mcp-method': 'tools/call', 'mcp-name': 'echo' };

  test('a modern call with the right headers is answered without a session', async () => {
    const { status, body, session } = await send(callBody(), standard);
    expect(status).toBe(200);
    expect(body.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'x' }] });
    expect(session).toBeNull();
  });

  test('Mcp-Name disagreeing with the body: 400 and -32020', async () => {
    const { status, body } = await send(callBody(), { ...standard, 'mcp-name': 'delete_file' });
    expect(status).toBe(400);
    expect(body.error.code).toBe(-32020);
  });

  test('MCP-Protocol-Version disagreeing with the body: 400 and -32020', async () => {
    const { status, body } = await send(callBody(), { ...standard, 'mcp-protocol-version': '2025-11-25' });
    expect(status).toBe(400);
    expect(body.error.code).toBe(-32020);
  });

  test('a call that needs elicitation the request did not declare: 400 and -32021 with requiredCapabilities', async () => {
    const body = {
      jsonrpc: '2.0',
      id: 10,
      method: 'tools/call',
      params: { name: 'delete_file', arguments: { path: 'nodecl.txt' }, _meta: envelope() },
    };
    const { status, body: answer } = await send(body, { ...standard, 'mcp-name': 'delete_file' });
    expect(status).toBe(400);
    expect(answer.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
    expect(observed.effects).not.toContain('deleted nodecl.txt');
  });

  test('the SDK v2 client without elicitation sees MissingRequiredClientCapabilityError', async () => {
    const client = new Client(
      { name: 'no-elicitation', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: V } } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const failure = await client.callTool({ name: 'delete_file', arguments: { path: 'sdk.txt' } }).catch((e) => e);
    expect(failure).toBeInstanceOf(MissingRequiredClientCapabilityError);
    expect((failure as MissingRequiredClientCapabilityError).requiredCapabilities).toEqual({
      elicitation: { form: {} },
    });
    expect(observed.effects).not.toContain('deleted sdk.txt');
    await client.close();
  });

  test('an unsupported version: 400 and -32022 listing the supported versions', async () => {
    const { status, body } = await send(callBody('2031-01-01'), { ...standard, 'mcp-protocol-version': '2031-01-01' });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({
      code: -32022,
      data: { supported: expect.arrayContaining([V]), requested: '2031-01-01' },
    });
  });

  test('an unknown method: 404 and -32601', async () => {
    const { status, body } = await send(
      { jsonrpc: '2.0', id: 3, method: 'tools/teleport', params: { _meta: envelope() } },
      { 'mcp-protocol-version': V, 'mcp-method': 'tools/teleport' },
    );
    expect(status).toBe(404);
    expect(body.error.code).toBe(-32601);
  });

  test('a modern version header without the envelope: 400 and -32602', async () => {
    const { status, body } = await send(
      { jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} },
      { 'mcp-protocol-version': V, 'mcp-method': 'tools/list' },
    );
    expect(status).toBe(400);
    expect(body.error.code).toBe(-32602);
  });

  test('a tampered requestState is refused and the handler never runs', async () => {
    const path = 'tamper.txt';
    const body = (extra: Record<string, unknown>) => ({
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: {
        name: 'delete_file',
        arguments: { path },
        _meta: { ...envelope(), 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } },
        ...extra,
      },
    });
    const headers = { ...standard, 'mcp-name': 'delete_file' };
    const first = await send(body({}), headers);
    expect(first.body.result.resultType).toBe('input_required');
    const state: string = first.body.result.requestState;
    const forged = `${state.slice(0, -2)}${state.endsWith('xx') ? 'yy' : 'xx'}`;
    const key = Object.keys(first.body.result.inputRequests)[0]!;
    const retry = await send(
      body({ requestState: forged, inputResponses: { [key]: { action: 'accept', content: { confirm: true } } } }),
      headers,
    );
    expect(retry.body.error.code).toBe(-32602);
    expect(retry.body.error.message).toContain('integrity');
    expect(observed.effects).not.toContain(`deleted ${path}`);
  });

  test('an Mcp-Param header the client mirrored wrongly: 400 and -32020; the right one passes', async () => {
    const call = {
      jsonrpc: '2.0',
      id: 6,
      method: 'tools/call',
      params: { name: 'regional', arguments: { region: 'eu-west' }, _meta: envelope() },
    };
    const headers = { ...standard, 'mcp-name': 'regional' };
    const wrong = await send(call, { ...headers, 'mcp-param-region': 'us-east' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.code).toBe(-32020);
    const missing = await send(call, headers);
    expect(missing.status).toBe(400);
    const right = await send(call, { ...headers, 'mcp-param-region': 'eu-west' });
    expect(right.body.result.content).toEqual([{ type: 'text', text: 'ran in eu-west' }]);
  });
});
