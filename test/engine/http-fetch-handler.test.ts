/**
 * The fetch-style handler `(Request) => Promise<Response>`: the same rules as
 * the node:http one, SSE through a ReadableStream. Driven by the SDK v2 client
 * (its `fetch` option points at the handler) and by hand-made Requests.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, test } from 'vitest';
import { defineTool } from '../../src/tool/define.js';
import { createHttpHandler, type HttpHandler } from '../../src/transports/http/create-http-handler.js';
import type { HttpRequestInfo } from '../../src/transports/http/exchange.js';
import type { HttpHandlerOptions } from '../../src/transports/http/handler-options.js';
import { silentLogger } from '../../src/util/logger.js';
import { buildTestServer } from '../support/engine-server.js';
import { closeAll, INITIALIZE, messagesOf, POST_HEADERS, readSse, track } from '../support/http-support.js';
import { createWireCheck } from '../support/wire-check.js';

afterEach(closeAll);

const URL_BASE = 'http://localhost:3000/mcp';

function setup(options: Partial<Omit<HttpHandlerOptions, 'dispatcher'>> = {}) {
  const built = buildTestServer({ logger: silentLogger });
  const handler = createHttpHandler({ dispatcher: built.server.dispatcher, env: {}, ...options });
  track({ close: () => built.server.close() });
  track(handler);
  return { handler, ...built };
}

function send(handler: HttpHandler, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return handler.fetchHandler(
    new Request(URL_BASE, {
      method: 'POST',
      headers: { ...POST_HEADERS, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

describe('fetch handler', () => {
  test('the SDK v2 client initializes, lists, calls, gets progress and answers an elicitation', async () => {
    const { handler } = setup();
    const wire = createWireCheck();
    const client = new Client({ name: 'fetch-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const transport = new StreamableHTTPClientTransport(new URL(URL_BASE), {
      fetch: (input, init) => handler.fetchHandler(new Request(input, init)),
    });
    await client.connect(wire.wrap(transport));
    track(client);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const { tools } = await client.listTools();
    expect(tools.every((t) => typeof t.annotations?.readOnlyHint === 'boolean' && typeof t.title === 'string')).toBe(
      true,
    );
    const progress: number[] = [];
    const counted = await client.callTool(
      { name: 'count_up', arguments: { n: 2 } },
      { onprogress: (p) => void progress.push(p.progress) },
    );
    expect(counted.content).toEqual([{ type: 'text', text: 'counted to 2' }]);
    expect(progress).toEqual([1, 2]);
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Lin' } }));
    expect((await client.callTool({ name: 'ask_name', arguments: {} })).content).toEqual([
      { type: 'text', text: 'hello Lin' },
    ]);
    wire.assertClean();
  });

  test('refusals: foreign origin 403, wrong type 415, bad JSON 400, unknown session 404, other path 404', async () => {
    const { handler } = setup();
    expect((await send(handler, INITIALIZE, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await send(handler, INITIALIZE, { 'content-type': 'text/plain' })).status).toBe(415);
    const parse = await send(handler, '{');
    expect(parse.status).toBe(400);
    expect(await parse.json()).toMatchObject({ error: { code: -32700 } });
    const unknown = await send(handler, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-session-id': 'nope' });
    expect(unknown.status).toBe(404);
    const elsewhere = await handler.fetchHandler(new Request('http://localhost:3000/else', { method: 'POST' }));
    expect(elsewhere.status).toBe(404);
  });

  test('without a bound host, a fetch handler applies the localhost Host rule; host: 0.0.0.0 lifts it', async () => {
    const local = setup();
    const foreign = await local.handler.fetchHandler(
      new Request('https://mcp.example.com/mcp', {
        method: 'POST',
        headers: POST_HEADERS,
        body: JSON.stringify(INITIALIZE),
      }),
    );
    expect(foreign.status).toBe(403);
    const publicServer = setup({ host: '0.0.0.0' });
    const allowed = await publicServer.handler.fetchHandler(
      new Request('https://mcp.example.com/mcp', {
        method: 'POST',
        headers: { ...POST_HEADERS, origin: 'https://mcp.example.com' },
        body: JSON.stringify(INITIALIZE),
      }),
    );
    expect(allowed.status).toBe(200);
    // Not local: only the server's own origin passes by default.
    const crossSite = await publicServer.handler.fetchHandler(
      new Request('https://mcp.example.com/mcp', {
        method: 'POST',
        headers: { ...POST_HEADERS, origin: 'https://evil.example' },
        body: JSON.stringify(INITIALIZE),
      }),
    );
    expect(crossSite.status).toBe(403);
  });

  test('a body over the limit is 413 even when streamed without a length', async () => {
    const { handler } = setup({ bodyLimit: 100 });
    const body = new Blob([JSON.stringify({ ...INITIALIZE, pad: 'y'.repeat(500) })]).stream();
    const response = await handler.fetchHandler(
      new Request(URL_BASE, { method: 'POST', headers: POST_HEADERS, body, duplex: 'half' } as RequestInit),
    );
    expect(response.status).toBe(413);
  });

  test('a GET stream carries list_changed, and Last-Event-ID replays what a dropped stream missed', async () => {
    const { handler, server } = setup();
    const init = await send(handler, INITIALIZE);
    const session = init.headers.get('mcp-session-id')!;
    await send(handler, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': session });
    const get = () =>
      handler.fetchHandler(
        new Request(URL_BASE, { headers: { accept: 'text/event-stream', 'mcp-session-id': session } }),
      );
    const first = await get();
    expect(first.headers.get('content-type')).toBe('text/event-stream');
    server.registry.disable({ names: ['echo'] });
    const seen = await readSse(first, (events) => messagesOf(events).length === 1);
    expect(messagesOf(seen)).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
    const lastId = seen.at(-1)!.id!;
    // The reader cancelled the stream (a dropped connection); two changes happen while away.
    server.registry.disable({ names: ['add'] });
    server.registry.enable({ names: ['echo'] });
    const resumed = await handler.fetchHandler(
      new Request(URL_BASE, {
        headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'last-event-id': lastId },
      }),
    );
    const replayed = await readSse(resumed, (events) => messagesOf(events).length === 2);
    expect(messagesOf(replayed).map((m) => m.method)).toEqual([
      'notifications/tools/list_changed',
      'notifications/tools/list_changed',
    ]);
  });

  test('closeStream() on a POST stream ends the response; GET with Last-Event-ID picks up the rest', async () => {
    const { handler, server } = setup();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.registry.add(
      defineTool({
        name: 'long_job',
        description: 'Close the stream, then finish when released.',
        effect: 'read',
        world: 'closed',
        handler: async (_args, ctx) => {
          (ctx.http as HttpRequestInfo).closeStream();
          await ctx.log('info', 'still working');
          await gate;
          return 'job done';
        },
      }),
    );
    const init = await send(handler, INITIALIZE);
    const session = init.headers.get('mcp-session-id')!;
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const call = await send(
      handler,
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'long_job' } },
      headers,
    );
    const before = await readSse(call);
    // Only the priming event went out before the connection was closed.
    expect(before).toEqual([{ id: expect.any(String), retry: 1000, data: '' }]);
    const resumed = await handler.fetchHandler(
      new Request(URL_BASE, { headers: { ...headers, accept: 'text/event-stream', 'last-event-id': before[0]!.id! } }),
    );
    release();
    const rest = messagesOf(await readSse(resumed));
    expect(rest).toEqual([
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'still working' } },
      { jsonrpc: '2.0', id: 9, result: { content: [{ type: 'text', text: 'job done' }] } },
    ]);
  });

  test('close() ends open GET streams', async () => {
    const { handler } = setup();
    const init = await send(handler, INITIALIZE);
    const session = init.headers.get('mcp-session-id')!;
    const stream = await handler.fetchHandler(
      new Request(URL_BASE, { headers: { accept: 'text/event-stream', 'mcp-session-id': session } }),
    );
    await handler.close();
    const events = await readSse(stream);
    expect(messagesOf(events)).toEqual([]);
    expect((await send(handler, INITIALIZE)).status).toBe(503);
  });
});
