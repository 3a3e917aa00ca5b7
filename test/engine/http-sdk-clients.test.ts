/**
 * candor's Streamable HTTP transport driven by the official clients nobody
 * here wrote: SDK v1 (`@modelcontextprotocol/sdk`, StreamableHTTPClientTransport)
 * and SDK v2 (`@modelcontextprotocol/client`), in stateful and stateless mode,
 * over real sockets. Every message the server sends is checked against the
 * zod schemas of `@modelcontextprotocol/core` (test/support/wire-check.ts).
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, test } from 'vitest';
import { defineTool } from '../../src/tool/define.js';
import { type EventStore, InMemoryEventStore, type ReplaySink } from '../../src/transports/http/event-store.js';
import type { HttpRequestInfo } from '../../src/transports/http/exchange.js';
import { closeAll, post, startHttp, track, waitFor } from '../support/http-support.js';
import { createWireCheck, type WireCheck } from '../support/wire-check.js';

afterEach(closeAll);

type Mode = 'stateful' | 'stateless';
type ElicitAnswer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };

/** The same operations on either SDK generation. */
interface Harness {
  readonly wire: WireCheck;
  readonly sessionId: string | undefined;
  listTools(): Promise<{ tools: Array<Record<string, any>> }>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    onprogress?: (p: { progress: number }) => void,
  ): Promise<{ content: Array<{ text?: string }>; isError?: boolean }>;
  onElicit(answer: (params: Record<string, unknown>) => ElicitAnswer): void;
  onLog(listener: (params: { level: string; data: unknown }) => void): void;
  onListChanged(listener: () => void): void;
  terminateSession(): Promise<void>;
  close(): Promise<void>;
}

/** Requests the client made, seen through its `fetch` option (method and Last-Event-ID). */
type Seen = Array<{ method: string; lastEventId: string | null; status: number }>;

function observingFetch(seen: Seen): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    const response = await fetch(input, init);
    seen.push({ method: init?.method ?? 'GET', lastEventId: headers.get('last-event-id'), status: response.status });
    return response;
  };
}

const reconnection = {
  initialReconnectionDelay: 20,
  maxReconnectionDelay: 100,
  reconnectionDelayGrowFactor: 1.5,
  maxRetries: 5,
};

async function connectV1(url: string, seen: Seen): Promise<Harness> {
  const wire = createWireCheck();
  const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  const transport = new TransportV1(new URL(url), { fetch: observingFetch(seen), reconnectionOptions: reconnection });
  await client.connect(wire.wrap(transport));
  const harness: Harness = {
    wire,
    get sessionId() {
      return transport.sessionId;
    },
    listTools: () => client.listTools() as never,
    callTool: (name, args, onprogress) =>
      client.callTool({ name, arguments: args }, undefined, { onprogress }) as never,
    onElicit: (answer) => client.setRequestHandler(ElicitRequestSchema, async (r) => answer(r.params)),
    onLog: (listener) => client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => listener(n.params)),
    onListChanged: (listener) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => listener()),
    terminateSession: () => transport.terminateSession(),
    close: () => client.close(),
  };
  return track(harness);
}

async function connectV2(url: string, seen: Seen): Promise<Harness> {
  const wire = createWireCheck();
  const client = new ClientV2({ name: 'sdk-v2', version: '2.0.0' }, { capabilities: { elicitation: {} } });
  const transport = new TransportV2(new URL(url), { fetch: observingFetch(seen), reconnectionOptions: reconnection });
  await client.connect(wire.wrap(transport));
  const harness: Harness = {
    wire,
    get sessionId() {
      return transport.sessionId;
    },
    listTools: () => client.listTools() as never,
    callTool: (name, args, onprogress) => client.callTool({ name, arguments: args }, { onprogress }) as never,
    onElicit: (answer) =>
      client.setRequestHandler('elicitation/create', async (r) => answer(r.params as never) as never),
    onLog: (listener) => client.setNotificationHandler('notifications/message', (n) => listener(n.params as never)),
    onListChanged: (listener) => client.setNotificationHandler('notifications/tools/list_changed', () => listener()),
    terminateSession: () => transport.terminateSession(),
    close: () => client.close(),
  };
  return track(harness);
}

/** A store that answers later, like a remote one (Redis): exercises the ordered, asynchronous paths. */
class AsyncEventStore implements EventStore {
  readonly #inner = new InMemoryEventStore();

  async storeEvent(streamId: string, data: string): Promise<string> {
    await new Promise((resolve) => setImmediate(resolve));
    return this.#inner.storeEvent(streamId, data);
  }

  async replayEventsAfter(lastEventId: string, send: ReplaySink): Promise<string | undefined> {
    await new Promise((resolve) => setImmediate(resolve));
    return this.#inner.replayEventsAfter(lastEventId, send);
  }
}

const clients = [
  ['SDK v1', connectV1],
  ['SDK v2', connectV2],
] as const;
const modes: Mode[] = ['stateful', 'stateless'];
const text = (result: { content: Array<{ text?: string }> }) => result.content[0]?.text;

describe.each(clients)('%s client', (_name, connect) => {
  describe.each(modes)('%s', (mode) => {
    test('lists every tool with its title and all four hints, exactly as the registry resolved them', async () => {
      const { url, server } = await startHttp({ sessions: mode });
      const client = await connect(url, []);
      const { tools } = await client.listTools();
      const expected = server.registry.list();
      expect(tools.map((t) => t.name).sort()).toEqual(expected.map((t) => t.name).sort());
      for (const tool of tools) {
        const definition = expected.find((t) => t.name === tool.name)!;
        expect(tool.title).toBe(definition.title);
        expect(tool.annotations).toEqual({ title: definition.title, ...definition.hints });
      }
      client.wire.assertClean();
    });

    test('calls a tool and gets its result as JSON', async () => {
      const { url } = await startHttp({ sessions: mode });
      const seen: Seen = [];
      const client = await connect(url, seen);
      expect(await client.callTool('echo', { text: 'over http' })).toEqual({
        content: [{ type: 'text', text: 'over http' }],
      });
      // The checker saw the traffic (initialize and the call at least), and all of it was well-formed.
      expect(client.wire.serverMessages.length).toBeGreaterThanOrEqual(2);
      client.wire.assertClean();
    });

    test('progress upgrades the POST response to SSE and arrives before the result', async () => {
      const { url } = await startHttp({ sessions: mode });
      const client = await connect(url, []);
      const progress: number[] = [];
      const result = await client.callTool('count_up', { n: 3 }, (p) => progress.push(p.progress));
      expect(progress).toEqual([1, 2, 3]);
      expect(text(result)).toBe('counted to 3');
      client.wire.assertClean();
    });

    test('answers an elicitation sent inside a call, on a separate POST', async () => {
      const { url } = await startHttp({ sessions: mode });
      const seen: Seen = [];
      const client = await connect(url, seen);
      const asked: Array<Record<string, unknown>> = [];
      client.onElicit((params) => {
        asked.push(params);
        return { action: 'accept', content: { name: 'Ada' } };
      });
      const posts = seen.filter((s) => s.method === 'POST').length;
      expect(text(await client.callTool('ask_name', {}))).toBe('hello Ada');
      expect(asked).toEqual([expect.objectContaining({ message: 'What is your name?' })]);
      // The call and the answer to the elicitation: two POSTs (the answer got 202).
      const after = seen.filter((s) => s.method === 'POST').slice(posts);
      expect(after.map((s) => s.status)).toEqual([200, 202]);
      client.wire.assertClean();
    });

    test('receives the log messages a tool sends during its call', async () => {
      const { url } = await startHttp({ sessions: mode });
      const client = await connect(url, []);
      const levels: string[] = [];
      client.onLog((params) => levels.push(params.level));
      expect(text(await client.callTool('log_levels', {}))).toBe('logged');
      expect(levels).toEqual(['debug', 'info', 'warning', 'error']);
      client.wire.assertClean();
    });
  });

  describe('stateful only', () => {
    test('tools/list_changed arrives on the GET stream', async () => {
      const { url, server } = await startHttp();
      const seen: Seen = [];
      const client = await connect(url, seen);
      let changes = 0;
      client.onListChanged(() => {
        changes += 1;
      });
      // The client opens its GET stream after initialization; wait until the server has it.
      await waitFor(() => [...server.dispatcher.peers].some((peer) => peer.channel !== undefined), 'the GET stream');
      server.registry.disable({ names: ['echo'] });
      await waitFor(() => changes === 1, 'list_changed');
      expect(seen.some((s) => s.method === 'GET' && s.status === 200)).toBe(true);
      client.wire.assertClean();
    });

    test.each([
      ['the default store', () => undefined],
      ['an asynchronous store', () => new AsyncEventStore()],
    ])(
      'resumes with Last-Event-ID after the server closes the stream mid-call (SEP-1699), with %s',
      async (_label, store) => {
        const { url, server } = await startHttp({ retryMs: 20, eventStore: store() });
        const seen: Seen = [];
        let closed: boolean | undefined;
        server.registry.add(
          defineTool({
            name: 'poll_me',
            description: 'Close the SSE connection, keep working, then answer on the resumed stream.',
            effect: 'read',
            world: 'closed',
            handler: async (_args, ctx) => {
              closed = (ctx.http as HttpRequestInfo).closeStream();
              await ctx.progress(1, 2, 'sent while the client was away');
              // Wait until the client has come back with Last-Event-ID: the rest goes out live.
              await waitFor(() => seen.some((s) => s.method === 'GET' && s.lastEventId !== null), 'the reconnection');
              await ctx.progress(2, 2, 'sent on the resumed stream');
              return 'resumed';
            },
          }),
        );
        const client = await connect(url, seen);
        const progress: number[] = [];
        expect(text(await client.callTool('poll_me', {}, (p) => progress.push(p.progress)))).toBe('resumed');
        expect(closed).toBe(true);
        expect(progress).toEqual([1, 2]);
        client.wire.assertClean();
      },
    );

    test('a stream that finished while the client was away is replayed in full, result included', async () => {
      const { url, server } = await startHttp({ retryMs: 20 });
      server.registry.add(
        defineTool({
          name: 'quick_after_close',
          description: 'Close the SSE connection and answer at once.',
          effect: 'read',
          world: 'closed',
          handler: async (_args, ctx) => {
            (ctx.http as HttpRequestInfo).closeStream();
            await ctx.progress(1, 1);
            return 'done while away';
          },
        }),
      );
      const seen: Seen = [];
      const client = await connect(url, seen);
      const progress: number[] = [];
      expect(text(await client.callTool('quick_after_close', {}, (p) => progress.push(p.progress)))).toBe(
        'done while away',
      );
      expect(progress).toEqual([1]);
      expect(seen.filter((s) => s.method === 'GET' && s.lastEventId !== null)).toHaveLength(1);
      client.wire.assertClean();
    });

    test('DELETE ends the session; its id then gets 404', async () => {
      const { url, listener } = await startHttp();
      const client = await connect(url, []);
      const sessionId = client.sessionId!;
      expect(listener.handler.sessionCount).toBe(1);
      await client.terminateSession();
      expect(listener.handler.sessionCount).toBe(0);
      const response = await post(url, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-session-id': sessionId });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: -32001 } });
    });
  });
});
