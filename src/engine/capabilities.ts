/** The capabilities a dispatcher advertises, derived from what it serves. */
import type { ServerCapabilities } from './engine.js';
import { TASKS_EXTENSION } from './tasks/task-wire.js';

/** What the derivation looks at (a subset of the dispatcher's options). */
export interface CapabilitySources {
  resources?: unknown;
  prompts?: unknown;
  tasks?: unknown;
  /** Extra capabilities merged over the derived ones (`extensions` are merged key by key). */
  capabilities?: ServerCapabilities;
}

/**
 * The `initialize` (and, without `tasks`, `server/discover`) capabilities.
 *
 * @example
 * ```ts
 * capabilitiesOf({ tasks: {} }).tasks; // { list: {}, cancel: {}, requests: { tools: { call: {} } } }
 * ```
 */
export function capabilitiesOf(options: CapabilitySources): ServerCapabilities {
  const caps: ServerCapabilities = { tools: { listChanged: true }, logging: {} };
  if (options.resources) caps.resources = { subscribe: true, listChanged: true };
  if (options.prompts) caps.prompts = { listChanged: true };
  // Completion serves prompt arguments and resource template variables.
  if (options.resources || options.prompts) caps.completions = {};
  if (options.tasks !== undefined) {
    // 2025-11-25 capability, and the 2026-07-28 extension (advertised in server/discover).
    caps.tasks = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
    caps.extensions = { [TASKS_EXTENSION]: {} };
  }
  const merged = { ...caps, ...options.capabilities };
  if (caps.extensions !== undefined && options.capabilities?.extensions !== undefined) {
    merged.extensions = { ...caps.extensions, ...options.capabilities.extensions };
  }
  return merged;
}
