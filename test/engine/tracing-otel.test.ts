/**
 * OpenTelemetry spans for tool calls with the real OpenTelemetry
 * SDK (sdk-trace-base, in-memory exporter) registered as the global tracer
 * provider, and calls made by the SDK v2 client over Streamable HTTP.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { ToolError } from '../../src/errors.js';
import { otelRegistered } from '../../src/pipeline/middleware/tracing.js';
import { createServer } from '../../src/server/create-server.js';
import { defineTool } from '../../src/tool/define.js';
import { silentLogger } from '../../src/util/logger.js';

const tools = [
  defineTool({
    name: 'echo',
    description: 'Echo the text back.',
    input: z.object({ text: z.string() }),
    effect: 'read',
    world: 'closed',
    handler: ({ text }) => text,
  }),
  defineTool({
    name: 'remove',
    description: 'Remove an entry (always refuses here).',
    input: z.object({ id: z.string() }),
    effect: 'destructive',
    world: 'closed',
    handler: () => {
      throw new ToolError('no such entry');
    },
  }),
];

const exporter = new InMemorySpanExporter();
const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  trace.disable();
});

describe('tracing', () => {
  test('without a registered tracer provider nothing is traced and the API is not needed', () => {
    expect(otelRegistered()).toBe(false);
  });

  test('with a provider registered, each call is a SERVER span with MCP attributes and the hints', async () => {
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    expect(otelRegistered()).toBe(true);
    const server = createServer({ name: 'traced', version: '1.0.0', tools, logger: silentLogger, lintOnStart: false });
    const listener = await server.listen({ port: 0, handleSignals: false });
    closers.push(() => server.close());
    // The API loads by dynamic import at createServer; this test imported it already, so the
    // import settles in microtasks, all of which run before the next turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    const client = new Client({ name: 'tracing-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(listener.url));
    await client.connect(transport);
    closers.push(() => client.close());
    expect(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).toMatchObject({
      content: [{ type: 'text', text: 'hi' }],
    });
    const refused = await client.callTool({ name: 'remove', arguments: { id: 'x' } });
    expect(refused.isError).toBe(true);

    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(['tools/call echo', 'tools/call remove']);
    const [echo, remove] = spans as [(typeof spans)[0], (typeof spans)[0]];
    expect(echo.kind).toBe(SpanKind.SERVER);
    expect(echo.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'echo',
      'mcp.session.id': transport.sessionId,
      'candor.tool.read_only': true,
      'candor.tool.destructive': false,
      'candor.era': '2025',
    });
    expect(echo.status.code).toBe(SpanStatusCode.UNSET);
    expect(remove.attributes).toMatchObject({ 'candor.tool.read_only': false, 'candor.tool.destructive': true });
    expect(remove.status).toEqual({ code: SpanStatusCode.ERROR, message: 'no such entry' });
    // Argument values never reach the trace.
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain('"hi"');
  });
});
