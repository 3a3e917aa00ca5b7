/**
 * Reading a `tools/list` manifest defensively: a third-party server may send anything,
 * and lint must report it rather than crash on it.
 */

import { CANDOR_META_KEY } from '../tool/wire.js';
import { isRecord } from '../util/is-record.js';
import type { LintTool } from './types.js';

/**
 * Normalise wire tools into {@link LintTool}s. Never throws: a non-object entry becomes a
 * tool with an empty name, which the naming rules report.
 *
 * @example
 * ```ts
 * const [tool] = normaliseTools([{ name: 'read_file', inputSchema: { type: 'object' } }]);
 * tool.hasAnnotations; // false
 * ```
 */
export function normaliseTools(tools: readonly unknown[]): LintTool[] {
  return tools.map((entry, index) => {
    const raw = isRecord(entry) ? entry : {};
    const annotations = isRecord(raw.annotations) ? raw.annotations : {};
    const meta = isRecord(raw._meta) ? raw._meta : {};
    const candor = isRecord(meta[CANDOR_META_KEY]) ? (meta[CANDOR_META_KEY] as Record<string, unknown>) : undefined;
    const defaulted = Array.isArray(candor?.defaulted) ? candor.defaulted.filter((h) => typeof h === 'string') : [];
    const tool: LintTool = {
      index,
      name: typeof raw.name === 'string' ? raw.name : '',
      raw,
      annotations,
      hasAnnotations: isRecord(raw.annotations),
      meta,
      defaulted: new Set(defaulted),
    };
    if (typeof raw.title === 'string') tool.title = raw.title;
    if (typeof raw.description === 'string') tool.description = raw.description;
    if (isRecord(raw.inputSchema)) tool.inputSchema = raw.inputSchema;
    if (isRecord(raw.outputSchema)) tool.outputSchema = raw.outputSchema;
    if (typeof candor?.declaration === 'string') tool.declaration = candor.declaration;
    // MCP Apps: `_meta.ui`; early drafts used a flat `_meta["ui/resourceUri"]` key.
    const ui = isRecord(meta.ui) ? { ...meta.ui } : undefined;
    if (meta['ui/resourceUri'] !== undefined && ui?.resourceUri === undefined) {
      tool.ui = { ...ui, resourceUri: meta['ui/resourceUri'] };
    } else if (ui) {
      tool.ui = ui;
    }
    return tool;
  });
}

/** A label for a tool in messages: its name, or its position when it has none. */
export function toolLabel(tool: LintTool): string {
  return tool.name !== '' ? tool.name : `#${tool.index}`;
}

/**
 * The value of a hint as a host sees it: the explicit boolean, or `undefined` when absent
 * (or when a candor server filled it from the spec default, which is not a declaration).
 */
export function declaredHint(tool: LintTool, hint: string): boolean | undefined {
  const value = tool.annotations[hint];
  if (typeof value !== 'boolean' || tool.defaulted.has(hint)) return undefined;
  return value;
}

export { isRecord };
