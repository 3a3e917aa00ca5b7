/**
 * What candor's client brings to a server, over Streamable HTTP in both eras, checked on
 * the wire through a recording front: the capabilities `connectTarget` is given (declared
 * in `initialize` for 2025-11-25, in every request's `_meta` for 2026-07-28), elicitation
 * answered through `onClient` (an `elicitation/create` request in 2025-11-25, an
 * `input_required` round retried with `requestState` in 2026-07-28), and a tool's JSON
 * Schema 2020-12 input schema listed exactly as the server sent it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEverythingServer } from '../../examples/everything/server.js';
import { connectTarget } from '../../src/targets/connect.js';
import { listAllTools } from '../../src/targets/list.js';
import type { HttpTarget } from '../../src/targets/types.js';
import type { HttpListener } from '../../src/transports/http/listen.js';
import { buildModernServer } from '../support/modern-fixture.js';
import { type RecordingFront, startRecordingFront } from '../support/recording-front.js';

const everything = createEverythingServer();
/** The example's tool whose input schema uses JSON Schema 2020-12 keywords clients have been known to drop. */
const RICH = 'json_schema_2020_12_tool';
let listener: HttpListener;
let everythingListener: HttpListener;
let front: RecordingFront;

beforeAll(async () => {
  listener = await buildModernServer().server.listen({ port: 0, handleSignals: false });
  everythingListener = await everything.listen({ port: 0, handleSignals: false });
  front = await startRecordingFront(listener.url);
});

afterAll(async () => {
  await front?.close();
  await listener?.close();
  await everythingListener?.close();
});

const http = (url: string): HttpTarget => ({ kind: 'http', url, transport: 'streamable-http', label: 'test' });
const target = () => http(front.url);

describe.each([
  ['modern', '2026-07-28'],
  ['legacy', '2025-11-25'],
] as const)('connectTarget in era %s', (era, version) => {
  it('declares the capabilities it is given and answers elicitation through onClient', async () => {
    const asked: string[] = [];
    const from = front.requests.length;
    const connection = await connectTarget(target(), {
      era,
      credentials: false,
      capabilities: { elicitation: { form: {} } },
      onClient: (client) =>
        client.setRequestHandler('elicitation/create', async (request) => {
          asked.push((request.params as { message: string }).message);
          return { action: 'accept', content: { confirm: true } };
        }),
    });
    try {
      expect(connection.client.getNegotiatedProtocolVersion()).toBe(version);
      const result = await connection.client.callTool({ name: 'delete_file', arguments: { path: 'a.txt' } });
      expect(result.content).toEqual([{ type: 'text', text: 'deleted a.txt' }]);
      expect(asked).toEqual(['Delete a.txt?']);
    } finally {
      await connection.close();
    }
    const sent = front.requests.slice(from);
    const calls = sent.filter((r) => r.rpcMethod === 'tools/call');
    if (era === 'modern') {
      // Every request carries the capabilities; the call comes back with the answer and the state.
      for (const request of sent.filter(
        (r) => r.rpcMethod !== undefined && !r.rpcMethod.startsWith('notifications/'),
      )) {
        const meta = (request.body as { params?: { _meta?: Record<string, unknown> } }).params?._meta ?? {};
        expect(meta['io.modelcontextprotocol/clientCapabilities']).toEqual({ elicitation: { form: {} } });
      }
      expect(calls).toHaveLength(2);
      const retry = (calls[1]!.body as { params: Record<string, unknown> }).params;
      expect(Object.values(retry.inputResponses as object)).toEqual([{ action: 'accept', content: { confirm: true } }]);
      expect(typeof retry.requestState).toBe('string');
    } else {
      const initialize = sent.find((r) => r.rpcMethod === 'initialize');
      expect((initialize?.body as { params?: { capabilities?: unknown } } | undefined)?.params?.capabilities).toEqual({
        elicitation: { form: {} },
      });
      expect(calls).toHaveLength(1);
      // The answer to the server's elicitation/create, posted back as a JSON-RPC response.
      const answer = sent.find((r) => (r.body as { result?: { action?: string } } | undefined)?.result?.action);
      expect((answer?.body as { result?: unknown } | undefined)?.result).toEqual({
        action: 'accept',
        content: { confirm: true },
      });
    }
  });

  it('declares no capabilities unless given some, so the server cannot ask and says why', async () => {
    const from = front.requests.length;
    const connection = await connectTarget(target(), { era, credentials: false });
    try {
      const outcome = await connection.client.callTool({ name: 'delete_file', arguments: { path: 'b.txt' } }).then(
        (result) => JSON.stringify(result.content),
        (error: Error) => error.message,
      );
      expect(outcome).toMatch(/did not declare the elicitation capability/);
    } finally {
      await connection.close();
    }
    const sent = front.requests.slice(from);
    expect(sent.filter((r) => r.rpcMethod === 'tools/call')).toHaveLength(1);
    expect(sent.some((r) => (r.body as { result?: unknown } | undefined)?.result !== undefined)).toBe(false);
  });

  it('lists a JSON Schema 2020-12 input schema exactly as the server declared it', async () => {
    const declared = everything.registry.get(RICH)?.input.jsonSchema as Record<string, unknown>;
    expect(Object.keys(declared)).toEqual(expect.arrayContaining(['$schema', '$defs', 'allOf', 'if', 'then', 'else']));
    const connection = await connectTarget(http(everythingListener.url), { era, credentials: false });
    try {
      const tools = (await listAllTools(connection.client)) as { name: string; inputSchema: unknown }[];
      expect(tools.find((t) => t.name === RICH)?.inputSchema).toEqual(declared);
    } finally {
      await connection.close();
    }
  });
});
