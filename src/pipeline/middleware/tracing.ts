/**
 * OpenTelemetry spans for tool calls, following the semantic
 * conventions for MCP (`mcp.method.name`, `mcp.session.id`,
 * `jsonrpc.request.id`) and GenAI tools (`gen_ai.tool.name`,
 * `gen_ai.operation.name = execute_tool`), plus the tool's declared hints, so
 * a trace shows which calls were read-only. `@opentelemetry/api` is an
 * optional peer: loaded on demand, and only when the application registered a
 * tracer provider (see {@link otelRegistered}); without one nothing is loaded
 * and calls take the fast path untouched.
 */
import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import type { CallToolResult } from '../../tool/types.js';
import type { CallContext, Middleware } from '../types.js';

type Api = typeof import('@opentelemetry/api');

/**
 * The `ctx.state` key under which a handler leaves attributes for its call's span
 * (strings, numbers, booleans): the gateway names the upstream's audience and where
 * its token came from. Never a token or an argument.
 */
export const SPAN_ATTRIBUTES = 'candor.span-attributes';

/** Whether an OpenTelemetry SDK registered a global tracer provider (the API keeps it under this symbol). */
export function otelRegistered(): boolean {
  const global = (globalThis as Record<symbol, { trace?: unknown } | undefined>)[Symbol.for('opentelemetry.js.api.1')];
  return global?.trace !== undefined;
}

/** Options of {@link tracing}. */
export interface TracingOptions {
  /** The tracer's name. Default `candor`. */
  name?: string;
  /** Told once when `@opentelemetry/api` cannot be loaded. */
  onUnavailable?: (error: unknown) => void;
}

/**
 * Wrap each call in a span named `tools/call <tool>`; an `isError` result or a
 * thrown error marks it failed.
 *
 * @example
 * ```ts
 * createServer({ name: 'x', version: '1', tools, tracing: true });
 * ```
 */
export function tracing(options: TracingOptions = {}): Middleware {
  const { name = 'candor' } = options;
  let api: Api | undefined;
  let tracer: Tracer | undefined;
  import('@opentelemetry/api').then(
    (loaded) => {
      api = loaded;
      tracer = loaded.trace.getTracer(name);
    },
    (error: unknown) => options.onUnavailable?.(error),
  );
  return async function tracingMiddleware(ctx, next) {
    // Calls before the API has loaded (the first milliseconds) are not traced.
    if (tracer === undefined || api === undefined) return next();
    const loaded = api;
    return tracer.startActiveSpan(
      `tools/call ${ctx.tool.name}`,
      { kind: loaded.SpanKind.SERVER, attributes: attributesOf(ctx) },
      async (span: Span) => {
        try {
          const result = await next();
          const extra = ctx.state.get(SPAN_ATTRIBUTES) as Attributes | undefined;
          if (extra !== undefined) span.setAttributes(extra);
          if (result.isError === true) {
            span.setStatus({ code: loaded.SpanStatusCode.ERROR, message: firstText(result) });
            span.setAttribute('error.type', 'tool_error');
          }
          return result;
        } catch (error) {
          span.recordException(error as Error);
          span.setStatus({ code: loaded.SpanStatusCode.ERROR, message: (error as Error)?.message });
          span.setAttribute('error.type', (error as Error)?.name ?? 'Error');
          throw error;
        } finally {
          span.end();
        }
      },
    );
  };
}

function attributesOf(ctx: CallContext): Attributes {
  const { hints } = ctx.tool;
  const attributes: Attributes = {
    'mcp.method.name': 'tools/call',
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': ctx.tool.name,
    'jsonrpc.request.id': String(ctx.requestId),
    'candor.tool.read_only': hints.readOnlyHint,
    'candor.tool.destructive': hints.destructiveHint,
    'candor.tool.idempotent': hints.idempotentHint,
    'candor.tool.open_world': hints.openWorldHint,
    'candor.era': ctx.era,
  };
  if (ctx.session !== undefined) attributes['mcp.session.id'] = ctx.session.id;
  // Who called, never with what: arguments may hold secrets.
  if (ctx.auth?.clientId !== undefined) attributes['candor.auth.client_id'] = ctx.auth.clientId;
  if (ctx.auth?.subject !== undefined) attributes['enduser.id'] = ctx.auth.subject;
  return attributes;
}

function firstText(result: CallToolResult): string | undefined {
  const first = result.content?.[0];
  return first !== undefined && first.type === 'text' ? String(first.text).slice(0, 200) : undefined;
}
