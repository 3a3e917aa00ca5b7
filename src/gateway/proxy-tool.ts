/**
 * One upstream tool as the gateway serves it downstream: the host catalog's
 * entry (overrides > server hints > spec defaults, tightened by evidence for
 * untrusted servers) with all four hints explicit and a title, and under
 * `_meta["dev.candor/gateway"]` what the server claimed, what was corrected and why.
 */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import type { CatalogTool } from '../host/types.js';
import { defineTool } from '../tool/define.js';
import type { JsonSchema, RateLimit, ToolDefinition, ToolHandler } from '../tool/types.js';

/** The `_meta` key under which the gateway explains a tool's hints. */
export const GATEWAY_META_KEY = 'dev.candor/gateway';

/** What `_meta["dev.candor/gateway"]` holds. */
export interface GatewayToolMeta {
  server: string;
  /** The tool's name on its server. */
  tool: string;
  trust: 'trusted' | 'untrusted';
  /** The hints exactly as the server sent them (absent keys are absent). */
  original: Record<string, unknown>;
  /** Where each hint on the wire came from: `server`, `default` (spec), `override` (your file), `evidence` (tightened). */
  sources: Record<string, string>;
  corrections: Array<{ hint: string; from: boolean; to: boolean; rule: string; reason: string }>;
  pin: string;
}

/**
 * A schema that puts a JSON Schema on the wire verbatim and accepts any value:
 * the upstream validates its own arguments, and a gateway must not refuse what
 * the server would take (nor fail on a dialect Ajv lacks).
 */
function passThrough(schema: JsonSchema): StandardSchemaV1 & StandardJSONSchemaV1 {
  return {
    '~standard': {
      version: 1,
      vendor: 'candor-gateway',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => schema, output: () => schema },
    },
  } as StandardSchemaV1 & StandardJSONSchemaV1;
}

/**
 * Build the downstream definition of a catalog tool.
 *
 * @example
 * ```ts
 * const def = proxyTool(host.tool('memory__read_graph')!, { handler: forward });
 * def.wire.annotations; // all four hints and a title
 * ```
 */
export function proxyTool(
  tool: CatalogTool,
  options: {
    handler: ToolHandler<Record<string, unknown>>;
    rateLimit?: RateLimit;
    timeoutMs: number;
    /** The name listed downstream (default the catalog's `server__tool`; see tool-names.ts). */
    name?: string;
  },
): ToolDefinition<Record<string, unknown>> {
  const wire = tool.wire as Record<string, unknown>;
  const wireMeta = (typeof wire._meta === 'object' && wire._meta !== null ? wire._meta : {}) as Record<string, unknown>;
  const { ui: _ui, ...meta } = wireMeta;
  const original =
    typeof wire.annotations === 'object' && wire.annotations !== null
      ? { ...(wire.annotations as Record<string, unknown>) }
      : {};
  const gateway: GatewayToolMeta = {
    server: tool.server,
    tool: tool.toolName,
    trust: tool.trust,
    original,
    sources: { ...tool.hintSources },
    corrections: tool.corrections.map((c) => ({ ...c })),
    pin: tool.pin.status,
  };
  const ui =
    tool.ui && (tool.ui.resourceUri === undefined || tool.ui.resourceUri.startsWith('ui://'))
      ? {
          ...(tool.ui.resourceUri !== undefined ? { resourceUri: tool.ui.resourceUri } : {}),
          ...(tool.ui.visibility !== undefined ? { visibility: tool.ui.visibility } : {}),
        }
      : undefined;
  return defineTool({
    name: options.name ?? tool.name,
    title: tool.title,
    description: tool.description,
    input: passThrough(tool.inputSchema),
    ...(tool.outputSchema ? { output: passThrough(tool.outputSchema) } : {}),
    annotations: { title: tool.title, ...tool.hints },
    ...(ui ? { ui } : {}),
    meta: { ...meta, [GATEWAY_META_KEY]: gateway },
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
    // Any call can be a task at the gateway, whatever either side's era: the gateway holds the
    // task and calls upstream as the upstream needs (plainly, or as its own task: host/task-calls.ts).
    // 2026-07-28 lists no longer say which upstream tools take tasks, so this cannot follow them.
    task: 'optional',
    timeoutMs: options.timeoutMs,
    handler: options.handler as ToolHandler<unknown>,
  }) as unknown as ToolDefinition<Record<string, unknown>>;
}
