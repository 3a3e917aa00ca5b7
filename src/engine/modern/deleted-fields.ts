/**
 * Fields the 2026-07-28 revision deleted from core: `Tool.execution`
 * (`taskSupport`) and `capabilities.tasks` — tasks became the
 * `io.modelcontextprotocol/tasks` extension (SEP-2663), which negotiates per
 * request instead. The registry's cached `tools/list` JSON is shared by both
 * eras, so the modern era drops `execution` from it here, once per list
 * version (the registry hands out the same string until the list changes).
 */
import type { Result } from '../engine.js';

const memo = new Map<string, string>();
const MARK = '"execution":';

/**
 * The tools/list JSON without `execution` on any tool; the same string when no
 * tool has one (a server without task tools pays one `includes` per list version).
 *
 * @example
 * ```ts
 * withoutExecution('{"tools":[{"name":"a","execution":{"taskSupport":"optional"}}]}'); // '{"tools":[{"name":"a"}]}'
 * ```
 */
export function withoutExecution(json: string): string {
  const known = memo.get(json);
  if (known !== undefined) return known;
  let stripped = json;
  if (json.includes(MARK)) {
    const page = JSON.parse(json) as { tools?: Array<{ [key: string]: unknown }> };
    if (Array.isArray(page.tools)) page.tools = page.tools.map(dropExecution);
    stripped = JSON.stringify(page);
  }
  // A few versions are kept: with authorization each scope set has its own list (src/auth/tool-views.ts).
  if (memo.size >= 16) memo.clear();
  memo.set(json, stripped);
  return stripped;
}

/** The same for a manifest page as objects (sources without cached JSON). */
export function pageWithoutExecution(page: Result): Result {
  const tools = page.tools;
  if (!Array.isArray(tools) || !tools.some((t) => typeof t === 'object' && t !== null && 'execution' in t)) return page;
  return { ...page, tools: tools.map(dropExecution) };
}

function dropExecution(tool: { [key: string]: unknown }): { [key: string]: unknown } {
  if (!('execution' in tool)) return tool;
  const { execution: _deleted, ...rest } = tool;
  return rest;
}
