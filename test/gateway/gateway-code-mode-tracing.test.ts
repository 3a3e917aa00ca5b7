/**
 * Code mode's spans with the real OpenTelemetry SDK (sdk-trace-base, in-memory
 * exporter) and a context manager on AsyncLocalStorage (what an application's
 * Node SDK registers): a script run is the `tools/call run_script` span, and each
 * call the script makes is a child span of it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type Context, type ContextManager, context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, expect, test } from 'vitest';
import { createGateway } from '../../src/gateway/index.js';

/** The smallest context manager that carries the active context across awaits. */
class StorageContextManager implements ContextManager {
  readonly #storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.#storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.#storage.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.#storage.disable();
    return this;
  }
}

const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
  trace.disable();
  context.disable();
});

test('a script run is one span with a child span per call it makes', async () => {
  const exporter = new InMemorySpanExporter();
  context.setGlobalContextManager(new StorageContextManager());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  const gateway = await createGateway({
    servers: {
      notes: {
        command: process.execPath,
        args: [join(import.meta.dirname, '../fixtures/gateway/upstream.mjs')],
        stderr: 'ignore',
        trust: 'trusted',
      },
    },
    profiles: { code: { toolList: 'code' } },
    logger: { error() {}, warn() {}, info() {}, debug() {} },
  });
  const listener = await gateway.listen({ port: 0, handleSignals: false });
  closers.push(
    () => gateway.close(),
    () => listener.close(),
  );
  const client = new Client({ name: 'tracing', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${listener.url}/code`)));
  closers.push(() => client.close());
  const result = await client.callTool({
    name: 'run_script',
    arguments: { code: 'await tools.notes__read_notes({}); await tools.notes__read_notes({}); return 1;' },
  });
  expect(result.isError).toBeFalsy();
  const spans = exporter.getFinishedSpans();
  const run = spans.find((s) => s.name === 'tools/call run_script')!;
  expect(run).toBeDefined();
  const calls = spans.filter((s) => s.name === 'script call notes__read_notes');
  expect(calls).toHaveLength(2);
  for (const call of calls) {
    expect(call.parentSpanContext?.spanId).toBe(run.spanContext().spanId);
    expect(call.attributes['candor.tool.read_only']).toBe(true);
  }
});
