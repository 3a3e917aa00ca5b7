/** The `tools/list` entry of a tool, computed once at definition. */
import type {
  Declaration,
  HintName,
  HintSource,
  Inference,
  JsonSchema,
  ResolvedHints,
  TaskSupport,
  ToolUi,
  WireTool,
} from './types.js';

/**
 * The namespaced `_meta` key under which candor publishes tags, category and how
 * the hints were declared. Never inside `annotations`, which the spec owns.
 */
export const CANDOR_META_KEY = 'dev.candor/tool';

/** What candor puts under `_meta["dev.candor/tool"]`. */
export interface CandorToolMeta {
  tags?: string[];
  category?: string;
  declaration: Declaration;
  /** Hints that came from the spec defaults rather than a declaration. */
  defaulted?: HintName[];
  inferred?: { confidence: Inference['confidence']; reasons: string[] };
}

export interface WireParts {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  hints: ResolvedHints;
  hintSources: Record<HintName, HintSource>;
  declaration: Declaration;
  inference?: Inference;
  tags: readonly string[];
  category?: string;
  ui?: ToolUi;
  meta?: Record<string, unknown>;
  task?: TaskSupport;
}

export function buildWireTool(parts: WireParts): WireTool {
  const candor: CandorToolMeta = { declaration: parts.declaration };
  if (parts.tags.length > 0) candor.tags = [...parts.tags];
  if (parts.category !== undefined) candor.category = parts.category;
  const defaulted = (Object.keys(parts.hintSources) as HintName[]).filter((h) => parts.hintSources[h] === 'default');
  if (defaulted.length > 0) candor.defaulted = defaulted;
  if (parts.inference)
    candor.inferred = { confidence: parts.inference.confidence, reasons: [...parts.inference.reasons] };

  const meta: Record<string, unknown> = { ...parts.meta, [CANDOR_META_KEY]: candor };
  if (parts.ui) {
    const ui: Record<string, unknown> = {};
    if (parts.ui.resourceUri !== undefined) ui.resourceUri = parts.ui.resourceUri;
    if (parts.ui.visibility !== undefined) ui.visibility = [...parts.ui.visibility];
    meta.ui = ui;
  }

  const wire: WireTool = {
    name: parts.name,
    title: parts.title,
    description: parts.description,
    inputSchema: parts.inputSchema,
    annotations: {
      title: parts.title,
      readOnlyHint: parts.hints.readOnlyHint,
      destructiveHint: parts.hints.destructiveHint,
      idempotentHint: parts.hints.idempotentHint,
      openWorldHint: parts.hints.openWorldHint,
    },
    _meta: meta,
  };
  if (parts.outputSchema) wire.outputSchema = parts.outputSchema;
  // 2025-11-25 tools, "Tool-Level Negotiation": absent means forbidden.
  if (parts.task !== undefined) wire.execution = { taskSupport: parts.task };
  return wire;
}
