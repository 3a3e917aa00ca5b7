/**
 * What the CLI shows about a tool from `tools/list`, for any server: the four
 * hints with where each came from (on the wire, or the spec's worst-case default
 * because the server left it out), tags from candor's `_meta`, and the MCP Apps
 * UI link.
 */
import { SPEC_DEFAULT_HINTS } from '../tool/effects.js';
import type { HintName } from '../tool/types.js';
import { CANDOR_META_KEY } from '../tool/wire.js';

/** The parts of a listed tool the CLI reads (structural: SDK and candor wire tools both fit). */
export interface ListedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: object;
  annotations?: object;
  _meta?: object;
}

export const HINT_NAMES: readonly HintName[] = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];

/** One hint as shown: its value and whether the server sent it. */
export interface ShownHint {
  value: boolean;
  source: 'wire' | 'default';
}

export interface ToolSummary {
  name: string;
  /** Display title (spec precedence: `title`, `annotations.title`, none). */
  title?: string;
  hints: Record<HintName, ShownHint>;
  tags: string[];
  /** `_meta.ui.resourceUri` (MCP Apps), or the older flat `_meta["ui/resourceUri"]`. */
  ui?: string;
}

/**
 * Summarise a listed tool.
 *
 * @example
 * ```ts
 * summarizeTool({ name: 'rm', annotations: { readOnlyHint: false } }).hints.destructiveHint;
 * // { value: true, source: 'default' }
 * ```
 */
export function summarizeTool(tool: ListedTool): ToolSummary {
  const annotations = (tool.annotations ?? {}) as Record<string, unknown>;
  const hints = {} as Record<HintName, ShownHint>;
  for (const name of HINT_NAMES) {
    const value = annotations[name];
    hints[name] =
      typeof value === 'boolean' ? { value, source: 'wire' } : { value: SPEC_DEFAULT_HINTS[name], source: 'default' };
  }
  const meta = (tool._meta ?? {}) as Record<string, unknown>;
  const candor = meta[CANDOR_META_KEY] as { tags?: unknown } | undefined;
  const tags = Array.isArray(candor?.tags) ? candor.tags.filter((t): t is string => typeof t === 'string') : [];
  const ui = (meta.ui as { resourceUri?: unknown } | undefined)?.resourceUri ?? meta['ui/resourceUri'];
  const title = typeof tool.title === 'string' ? tool.title : annotations.title;
  return {
    name: tool.name,
    ...(typeof title === 'string' ? { title } : {}),
    hints,
    tags,
    ...(typeof ui === 'string' ? { ui } : {}),
  };
}

/**
 * Whether a host should treat the tool as destructive: `destructiveHint` true,
 * or absent on a tool that is not read-only (the spec's default is the worst case).
 *
 * @example
 * ```ts
 * isDestructive({ name: 'x' }); // true: nothing declared
 * isDestructive({ name: 'x', annotations: { readOnlyHint: true } }); // false
 * ```
 */
export function isDestructive(tool: ListedTool): boolean {
  const { hints } = summarizeTool(tool);
  return !hints.readOnlyHint.value && hints.destructiveHint.value;
}
