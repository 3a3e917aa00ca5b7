/**
 * OpenTelemetry spans for the calls a script makes: one child span per call
 * (`script call <tool>`) under the span of the `run_script` call itself (the
 * pipeline's tracing middleware makes that one). `@opentelemetry/api` is an
 * optional peer: loaded only when the application registered a tracer provider.
 */
import type { Tracer } from '@opentelemetry/api';
import { otelRegistered } from '../../pipeline/middleware/tracing.js';
import type { CallToolResult, ToolDefinition } from '../../tool/types.js';

/** Runs one call of a script inside its span. */
export type CallTracer = (tool: ToolDefinition, run: () => Promise<CallToolResult>) => Promise<CallToolResult>;

/**
 * The tracer of script calls, or undefined when no tracer provider is registered
 * or `@opentelemetry/api` is not installed.
 *
 * @example
 * ```ts
 * const trace = await scriptCallTracer();
 * const result = trace ? await trace(tool, run) : await run();
 * ```
 */
export async function scriptCallTracer(): Promise<CallTracer | undefined> {
  if (!otelRegistered()) return undefined;
  let api: typeof import('@opentelemetry/api');
  try {
    api = await import('@opentelemetry/api');
  } catch {
    return undefined;
  }
  const tracer: Tracer = api.trace.getTracer('candor-gateway');
  return (tool, run) =>
    tracer.startActiveSpan(
      `script call ${tool.name}`,
      {
        kind: api.SpanKind.INTERNAL,
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': tool.name,
          'candor.tool.read_only': tool.hints.readOnlyHint,
          'candor.tool.destructive': tool.hints.destructiveHint,
          'candor.tool.open_world': tool.hints.openWorldHint,
        },
      },
      async (span) => {
        try {
          const result = await run();
          if (result.isError === true) span.setStatus({ code: api.SpanStatusCode.ERROR, message: 'tool error' });
          return result;
        } catch (error) {
          span.recordException(error as Error);
          span.setStatus({ code: api.SpanStatusCode.ERROR, message: (error as Error)?.message });
          throw error;
        } finally {
          span.end();
        }
      },
    );
}
