/**
 * The 2026-07-28 per-request headers through the gateway, over Streamable HTTP on
 * both sides: `Mcp-Method`, `Mcp-Name` and the `Mcp-Param-*` headers a tool's
 * `x-mcp-header` properties ask for. An SDK v2 client speaking either era calls a
 * tool of an HTTP upstream that speaks only 2026-07-28 (a candor server, which
 * refuses a call whose headers are missing or disagree with the body); the upstream
 * says which headers it was sent. A 2026-07-28 client's own headers are checked by
 * the gateway before anything goes upstream. A tool the upstream runs only as a task
 * (the tasks extension) is called as one over HTTP too, and the client gets its result.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServer, defineTool, silentLogger } from '../../src/index.js';
import { listenGateway } from '../support/gateway-listener.js';
import { type RecordingFront, startRecordingFront } from '../support/recording-front.js';

const open: Array<() => Promise<unknown>> = [];
const calls: Array<Record<string, string | undefined>> = [];
let gatewayUrl: string;
/** Between the gateway and the upstream: what the gateway put on the wire. */
let front: RecordingFront;

const REGION_SCHEMA = {
  type: 'object',
  properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, query: { type: 'string' } },
  required: ['region', 'query'],
};

beforeAll(async () => {
  const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(',') : value);
  const upstream = createServer({
    name: 'regions',
    version: '1.0.0',
    logger: silentLogger,
    lintOnStart: false,
    modern: { only: true },
    tools: [
      defineTool({
        name: 'tally',
        description: 'Count the words of a text, as a task.',
        effect: 'read',
        world: 'closed',
        task: 'required',
        input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        handler: (args, ctx) => `${String(args.text).split(/\s+/).length} words${ctx.task ? ' (task)' : ''}`,
      }),
      defineTool({
        name: 'lookup',
        description: 'Look a query up in one region.',
        effect: 'read',
        world: 'closed',
        input: REGION_SCHEMA,
        handler: (args, ctx) => {
          const seen = ctx.http?.headers ?? {};
          calls.push({
            method: header(seen['mcp-method']),
            name: header(seen['mcp-name']),
            region: header(seen['mcp-param-region']),
            version: header(seen['mcp-protocol-version']),
          });
          return `${String(args.query)} in ${String(args.region)}`;
        },
      }),
    ],
  });
  const upstreamListener = await upstream.listen({ port: 0, handleSignals: false });
  open.push(() => upstreamListener.close());
  front = await startRecordingFront(upstreamListener.url);
  open.push(() => front.close());
  const gateway = await listenGateway({
    logger: silentLogger,
    servers: { geo: { url: front.url } },
    policy: 'yolo',
  });
  gatewayUrl = gateway.url;
  open.push(() => gateway.close());
}, 60_000);

afterAll(async () => {
  for (const close of open.reverse()) await close().catch(() => {});
});

const text = (result: unknown) =>
  ((result as { content?: Array<{ type: string; text?: string }> }).content ?? []).map((c) => c.text ?? '').join('');

describe.each(['2025-11-25', '2026-07-28'] as const)(
  'a %s client in front of a 2026-07-28-only HTTP upstream',
  (down) => {
    let client: Client;

    beforeAll(async () => {
      client = new Client(
        { name: 'downstream', version: '1.0.0' },
        { versionNegotiation: { mode: down === '2026-07-28' ? { pin: down } : 'legacy' } },
      );
      await client.connect(new StreamableHTTPClientTransport(new URL(gatewayUrl)));
      open.push(() => client.close());
    });

    test("the tool keeps its x-mcp-header declaration in the gateway's list", async () => {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'geo__lookup');
      const properties = (tool?.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
      expect(properties.region).toMatchObject({
        'x-mcp-header': 'Region',
      });
    });

    test('the upstream is sent Mcp-Method, Mcp-Name with its own tool name, and the Mcp-Param header', async () => {
      calls.length = 0;
      const result = await client.callTool({ name: 'geo__lookup', arguments: { region: 'eu-west-1', query: 'ping' } });
      expect(text(result)).toBe('ping in eu-west-1');
      expect(calls).toEqual([{ method: 'tools/call', name: 'lookup', region: 'eu-west-1', version: '2026-07-28' }]);
    });

    test('a tool the upstream runs only as a task answers the plain call with its result', async () => {
      const result = await client.callTool({ name: 'geo__tally', arguments: { text: 'one two three' } });
      expect(text(result)).toBe('3 words (task)');
    });

    test('a value that cannot ride as a plain header goes in the base64 form and arrives intact', async () => {
      calls.length = 0;
      const result = await client.callTool({ name: 'geo__lookup', arguments: { region: 'Zürich ', query: 'q' } });
      expect(text(result)).toBe('q in Zürich ');
      const sent = calls[0]?.region ?? '';
      expect(sent).toMatch(/^=\?base64\?.+\?=$/);
      expect(Buffer.from(sent.slice('=?base64?'.length, -2), 'base64').toString('utf8')).toBe('Zürich ');
    });
  },
);

test('a 2026-07-28 request whose Mcp-Param header disagrees with its body is refused by the gateway and the upstream is not called', async () => {
  calls.length = 0;
  const response = await fetch(gatewayUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'geo__lookup',
      'mcp-param-region': 'us-east-1',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'geo__lookup',
        arguments: { region: 'eu-west-1', query: 'ping' },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
        },
      },
    }),
  });
  expect(response.status).toBe(400);
  const body = (await response.json()) as { error?: { code: number; message: string } };
  expect(body.error?.code).toBe(-32020);
  expect(body.error?.message).toContain('Mcp-Param-Region');
  expect(calls).toEqual([]);
});
