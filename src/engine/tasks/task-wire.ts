/**
 * A stored task as each protocol era shows it.
 *
 * - 2025-11-25 (basic/utilities/tasks): `Task` with ISO times, `ttl` and
 *   `pollInterval`; results come from `tasks/result`.
 * - 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663):
 *   `ttlMs` / `pollIntervalMs`, and the `DetailedTask` of `tasks/get` carries
 *   the result (completed) or the JSON-RPC error (failed) inline.
 */
import type { TaskRecord } from './task-store.js';

/** The `_meta` key tying a message to its task (2025-11-25 tasks, "Associating Task-Related Messages"). */
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';
/** The 2026-07-28 extension's identifier. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The 2025-11-25 `Task` object. */
export function taskWire2025(task: TaskRecord): { [key: string]: unknown } {
  const wire: { [key: string]: unknown } = {
    taskId: task.taskId,
    status: task.status,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttl: task.ttlMs,
    pollInterval: task.pollIntervalMs,
  };
  if (task.statusMessage !== undefined) wire.statusMessage = task.statusMessage;
  return wire;
}

/** The 2026-07-28 `Task` (the `CreateTaskResult` body, without `resultType`). */
export function taskWire2026(task: TaskRecord): { [key: string]: unknown } {
  const wire: { [key: string]: unknown } = {
    taskId: task.taskId,
    status: task.status,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
  if (task.statusMessage !== undefined) wire.statusMessage = task.statusMessage;
  return wire;
}

/**
 * The 2026-07-28 `DetailedTask`: `result` on a completed task, `error` on a
 * failed one (a failed task always has one: the extension says failed means a
 * JSON-RPC error).
 */
export function detailedTask2026(task: TaskRecord): { [key: string]: unknown } {
  const wire = taskWire2026(task);
  const outcome = task.outcome;
  if (task.status === 'completed' && outcome !== undefined && 'result' in outcome) wire.result = outcome.result;
  if (task.status === 'failed') {
    wire.error =
      outcome !== undefined && 'error' in outcome
        ? outcome.error
        : { code: -32603, message: task.statusMessage ?? 'The task failed.' };
  }
  return wire;
}
