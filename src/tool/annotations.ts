/**
 * Normalising what a server says about a tool. Whatever arrives on the wire —
 * hints missing, hints in snake case, hints that contradict each other — the
 * host works from one explicit shape. Missing hints fail closed (the spec's
 * worst-case defaults: 2025-11-25 server/tools, ToolAnnotations).
 */
import { isRecord } from '../util/is-record.js';
import { SPEC_DEFAULT_HINTS } from './effects.js';
import type { HintName, JsonSchema, ResolvedHints } from './types.js';
import { CANDOR_META_KEY } from './wire.js';

/** The `_meta` key with which a server says a tool must always be confirmed by a person. */
export const REQUIRES_USER_INTERACTION_KEY = 'anthropic/requiresUserInteraction';

/** A tool as `tools/list` returned it (kept structural: servers send all sorts). */
export interface WireToolLike {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** Who may see and call an MCP Apps tool (MCP Apps 2026-01-26, `_meta.ui.visibility`). */
export type Visibility = 'model' | 'app';

/** Where a normalised hint came from: the server said it, or the spec default filled it in. */
export type NormalisedHintSource = 'server' | 'default';

/** One tool's description, normalised. Everything the host reads about a tool is here. */
export interface NormalisedTool {
  name: string;
  /** Display title: `title`, then `annotations.title`, then `name` (spec precedence). */
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  /** All four hints, explicit: what the server claims, with spec defaults where it said nothing. */
  hints: ResolvedHints;
  hintSources: Record<HintName, NormalisedHintSource>;
  /** `_meta["anthropic/requiresUserInteraction"]`: a person must confirm every call. */
  requiresUserInteraction: boolean;
  /** `_meta.ui.visibility`, defaulting to both. */
  visibility: Visibility[];
  /** `_meta.ui` as sent (resource URI and visibility), if any. */
  ui?: { resourceUri?: string; visibility?: Visibility[] };
  /** Tags published under `_meta["dev.candor/tool"]`. */
  tags: string[];
  /** Problems found while normalising (non-boolean hints, contradictions). */
  warnings: string[];
  /** The tool exactly as the server sent it. */
  wire: WireToolLike;
}

const HINTS: ReadonlyArray<readonly [HintName, string]> = [
  ['readOnlyHint', 'read_only_hint'],
  ['destructiveHint', 'destructive_hint'],
  ['idempotentHint', 'idempotent_hint'],
  ['openWorldHint', 'open_world_hint'],
];

/** The value of a hint that is the stricter of two (fails closed when a server says both). */
const STRICTER: Record<HintName, boolean> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

const EMPTY_OBJECT_SCHEMA: JsonSchema = Object.freeze({ type: 'object' }) as JsonSchema;

/**
 * Normalise one `tools/list` entry.
 *
 * @example
 * ```ts
 * const tool = normaliseTool({ name: 'search', inputSchema: { type: 'object' }, annotations: { read_only_hint: true } });
 * tool.hints; // { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true }
 * tool.hintSources.openWorldHint; // 'default'
 * ```
 */
export function normaliseTool(wire: WireToolLike): NormalisedTool {
  const warnings: string[] = [];
  const annotations = isRecord(wire.annotations) ? wire.annotations : {};
  const meta = isRecord(wire._meta) ? wire._meta : {};

  const hints = { ...SPEC_DEFAULT_HINTS };
  const hintSources = {} as Record<HintName, NormalisedHintSource>;
  for (const [camel, snake] of HINTS) {
    const value = pickHint(annotations, camel, snake, warnings);
    if (value === undefined) {
      hintSources[camel] = 'default';
    } else {
      hints[camel] = value;
      hintSources[camel] = 'server';
    }
  }
  if (hints.readOnlyHint) {
    if (hintSources.destructiveHint === 'server' && hints.destructiveHint) {
      // A tool that says it is read-only and destructive is confused; believe the worse half.
      warnings.push('readOnlyHint and destructiveHint are both true; treated as not read-only.');
      hints.readOnlyHint = false;
    } else {
      // Spec: destructive/idempotent are meaningful only when readOnlyHint is false.
      hints.destructiveHint = false;
      hints.idempotentHint = true;
    }
  }

  const annotationTitle = typeof annotations.title === 'string' ? annotations.title : undefined;
  const title = nonEmpty(wire.title) ?? nonEmpty(annotationTitle) ?? wire.name;
  const ui = readUi(meta.ui, warnings);
  const candor = isRecord(meta[CANDOR_META_KEY]) ? (meta[CANDOR_META_KEY] as Record<string, unknown>) : {};
  const tags = Array.isArray(candor.tags) ? candor.tags.filter((t): t is string => typeof t === 'string') : [];

  const tool: NormalisedTool = {
    name: wire.name,
    title,
    description: typeof wire.description === 'string' ? wire.description : '',
    inputSchema: isRecord(wire.inputSchema) ? (wire.inputSchema as JsonSchema) : EMPTY_OBJECT_SCHEMA,
    hints,
    hintSources,
    requiresUserInteraction: meta[REQUIRES_USER_INTERACTION_KEY] === true,
    visibility: ui?.visibility ?? ['model', 'app'],
    tags,
    warnings,
    wire,
  };
  if (isRecord(wire.outputSchema)) tool.outputSchema = wire.outputSchema as JsonSchema;
  if (ui) tool.ui = ui;
  return tool;
}

function pickHint(
  annotations: Record<string, unknown>,
  camel: HintName,
  snake: string,
  warnings: string[],
): boolean | undefined {
  const a = booleanOrWarn(annotations[camel], camel, warnings);
  const b = booleanOrWarn(annotations[snake], snake, warnings);
  if (a !== undefined && b !== undefined && a !== b) {
    warnings.push(`${camel} and ${snake} disagree; the stricter value (${STRICTER[camel]}) applies.`);
    return STRICTER[camel];
  }
  return a ?? b;
}

function booleanOrWarn(value: unknown, key: string, warnings: string[]): boolean | undefined {
  if (value === undefined || typeof value === 'boolean') return value;
  warnings.push(`annotations.${key} is ${JSON.stringify(value)}, not a boolean; the spec default applies.`);
  return undefined;
}

function readUi(value: unknown, warnings: string[]): NormalisedTool['ui'] {
  if (!isRecord(value)) return undefined;
  const ui: NonNullable<NormalisedTool['ui']> = {};
  if (typeof value.resourceUri === 'string') ui.resourceUri = value.resourceUri;
  if (value.visibility !== undefined) {
    if (Array.isArray(value.visibility)) {
      ui.visibility = value.visibility.filter((v): v is Visibility => v === 'model' || v === 'app');
    } else {
      warnings.push('_meta.ui.visibility is not an array; the default (model and app) applies.');
    }
  }
  return ui;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
