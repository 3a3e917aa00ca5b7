/**
 * What a pin covers and how it is hashed. A pin is a hash over
 * `{name, title, description, inputSchema, outputSchema, annotations, _meta.ui}`
 * in canonical JSON: everything that
 * changes what a model or a policy believes about the tool, and nothing else
 * (other `_meta` keys, icons and execution hints may change freely).
 */
import { createHash } from 'node:crypto';
import type { WireToolLike } from '../../tool/annotations.js';
import { isRecord } from '../../util/is-record.js';
import { canonicalJson } from './canonical-json.js';

/** The part of a tool definition that a pin covers, exactly as the server sent it. */
export interface PinnedDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
  /** `_meta.ui` (MCP Apps): visibility and the UI resource. */
  ui?: unknown;
}

/**
 * Take the pinned fields out of a `tools/list` entry.
 *
 * @example
 * ```ts
 * pinnedDefinition({ name: 'ls', inputSchema: { type: 'object' }, _meta: { ui: { visibility: ['app'] }, other: 1 } });
 * // { name: 'ls', inputSchema: { type: 'object' }, ui: { visibility: ['app'] } }
 * ```
 */
export function pinnedDefinition(tool: WireToolLike): PinnedDefinition {
  const definition: PinnedDefinition = { name: tool.name };
  if (tool.title !== undefined) definition.title = tool.title;
  if (tool.description !== undefined) definition.description = tool.description;
  if (tool.inputSchema !== undefined) definition.inputSchema = tool.inputSchema;
  if (tool.outputSchema !== undefined) definition.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) definition.annotations = tool.annotations;
  const meta = isRecord(tool._meta) ? tool._meta : undefined;
  if (meta?.ui !== undefined) definition.ui = meta.ui;
  return definition;
}

/**
 * The pin hash of a definition: `sha256:` and the hex digest of its canonical JSON.
 *
 * @example
 * ```ts
 * hashDefinition(pinnedDefinition(tool)); // 'sha256:3f1c…'
 * ```
 */
export function hashDefinition(definition: PinnedDefinition): string {
  return `sha256:${createHash('sha256').update(canonicalJson(definition)).digest('hex')}`;
}

/**
 * The pin hash of a `tools/list` entry.
 *
 * @example
 * ```ts
 * const hash = pinHash({ name: 'read_file', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } });
 * ```
 */
export function pinHash(tool: WireToolLike): string {
  return hashDefinition(pinnedDefinition(tool));
}

/** The hash of everything but the name: equal for a tool that was only renamed. */
export function contentHash(definition: PinnedDefinition): string {
  const { name: _name, ...rest } = definition;
  return `sha256:${createHash('sha256').update(canonicalJson(rest)).digest('hex')}`;
}

/** The hash of description and input schema: a weaker "same tool, new name" signal. */
export function shapeHash(definition: PinnedDefinition): string {
  return `sha256:${createHash('sha256')
    .update(canonicalJson({ description: definition.description, inputSchema: definition.inputSchema }))
    .digest('hex')}`;
}
