/**
 * Tasks in the 2025-11-25 era (basic/utilities/tasks, experimental): a
 * `tools/call` carrying `task` answers a `CreateTaskResult` at once and runs
 * in the background; `tasks/get`, `tasks/result` (blocks until the task is
 * terminal), `tasks/list` and `tasks/cancel`; `notifications/tasks/status`
 * when a task ends. State lives in the server's TaskStore (src/stores).
 *
 * Tasks are bound to the caller's authorization context (subject and client
 * id) when the request is authenticated; without authorization every caller
 * shares one context and task ids (random UUIDs) are the only protection, as
 * the spec's "Security Considerations" allow when documented.
 */
import { ProtocolError } from '../../errors.js';
import type { AuthInfo, ToolDefinition } from '../../tool/types.js';
import type { MethodHandler, Params, RequestScope, Result } from '../engine.js';
import { INVALID_PARAMS, METHOD_NOT_FOUND } from '../jsonrpc.js';
import { TaskCallContext } from '../tasks/task-call-context.js';
import type { TaskRuntime } from '../tasks/task-runtime.js';
import { InvalidTaskCursorError, type TaskRecord } from '../tasks/task-store.js';
import { RELATED_TASK, taskWire2025 } from '../tasks/task-wire.js';
import { invalidParams, optionalCursor, requireString } from './params.js';

/** The authorization context a task is bound to. */
export function owningContextOf(auth: AuthInfo | undefined): string {
  if (auth === undefined) return 'anonymous';
  return `auth:${auth.subject ?? ''}|${auth.clientId ?? ''}`;
}

/** -32602 for a task id the caller cannot see (2025-11-25 tasks, "Protocol Errors"). */
export function taskNotFound(taskId: string): ProtocolError {
  return new ProtocolError(INVALID_PARAMS, `Failed to retrieve task: Task not found (${taskId}); it may have expired.`);
}

/**
 * `tools/call` with `task` (or on a tool that requires one): create the task,
 * start the call in the background, answer `{ task }`. Only reached when a
 * call carries `task` or its tool requires one; the plain call path never
 * comes here.
 */
export async function callToolAsTask(
  params: Params,
  scope: RequestScope,
  tool: ToolDefinition,
  args: unknown,
): Promise<Result> {
  const { engine, peer, info } = scope;
  const runtime = engine.tasks!;
  const task = params.task;
  // 2025-11-25 tasks, "Tool-Level Negotiation": -32601 either way.
  if (tool.task === undefined) {
    throw new ProtocolError(
      METHOD_NOT_FOUND,
      `The tool "${tool.name}" does not run as a task (execution.taskSupport is "forbidden"); call it without "task".`,
    );
  }
  if (task === undefined) {
    throw new ProtocolError(
      METHOD_NOT_FOUND,
      `The tool "${tool.name}" runs only as a task (execution.taskSupport is "required"); add "task": {} to the params and poll tasks/get.`,
    );
  }
  if (typeof task !== 'object' || task === null || Array.isArray(task)) {
    throw invalidParams('"task" must be an object: { "ttl"?: milliseconds }.');
  }
  // The progress token stays valid for the task's lifetime (2025-11-25 tasks, "Task Progress Notifications").
  const token = (params._meta as { progressToken?: unknown } | undefined)?.progressToken;
  const ctx = new TaskCallContext(
    tool,
    args,
    scope,
    typeof token === 'string' || typeof token === 'number' ? token : undefined,
    runtime,
  );
  const { task: created, done } = await runtime.start({
    name: tool.name,
    owningContext: owningContextOf(info?.auth),
    requestedTtlMs: (task as { ttl?: unknown }).ttl,
    isErrorStatus: 'failed',
    ctx,
    run: () => engine.runTool(ctx),
    onSettled: (settled) =>
      peer.notify({ jsonrpc: '2.0', method: 'notifications/tasks/status', params: taskWire2025(settled) }),
    onDone: () => ctx.finish(),
  });
  engine.track(done);
  return {
    task: taskWire2025(created),
    // What a host may hand the model while the task runs (2025-11-25 tasks, "Creating Tasks": non-binding).
    _meta: {
      [IMMEDIATE_RESPONSE]: `The tool "${tool.name}" is running in the background as task ${created.taskId}; its result comes when the task completes.`,
    },
  };
}

/** The `_meta` key of the text a host may give the model at once (provisional in 2025-11-25). */
const IMMEDIATE_RESPONSE = 'io.modelcontextprotocol/model-immediate-response';

function runtimeOf(scope: RequestScope, method: string): TaskRuntime {
  const runtime = scope.engine.tasks;
  if (runtime === undefined) throw new ProtocolError(METHOD_NOT_FOUND, `Method not found: ${method}`);
  return runtime;
}

/** `tasks/get`: the task's current state. */
export const getTask: MethodHandler = async (params, scope) => {
  const runtime = runtimeOf(scope, 'tasks/get');
  const taskId = requireString(params, 'taskId');
  const task = await runtime.read(taskId, owningContextOf(scope.info?.auth));
  if (task === undefined) throw taskNotFound(taskId);
  return taskWire2025(task);
};

/**
 * `tasks/result`: blocks until the task is terminal, then answers exactly what
 * the `tools/call` would have: its result (with the related-task `_meta`) or
 * its JSON-RPC error.
 */
export const getTaskResult: MethodHandler = async (params, scope) => {
  const runtime = runtimeOf(scope, 'tasks/result');
  const taskId = requireString(params, 'taskId');
  const task = await runtime.waitTerminal(taskId, owningContextOf(scope.info?.auth), scope.info?.signal);
  if (task === undefined) throw taskNotFound(taskId);
  return finalAnswer(task);
};

/** What `tasks/result` answers for a terminal task (shared with nothing else: the 2026 extension inlines it). */
function finalAnswer(task: TaskRecord): Result {
  const outcome = task.outcome;
  if (outcome !== undefined && 'result' in outcome) {
    const meta = outcome.result._meta as { [key: string]: unknown } | undefined;
    return { ...outcome.result, _meta: { ...meta, [RELATED_TASK]: { taskId: task.taskId } } };
  }
  if (outcome !== undefined && 'error' in outcome) {
    throw new ProtocolError(outcome.error.code, outcome.error.message, outcome.error.data);
  }
  throw new ProtocolError(
    INVALID_PARAMS,
    `The task ${task.taskId} was ${task.status} before it finished, so it has no result.`,
  );
}

/** `tasks/list`: the caller's tasks, oldest first, paginated. */
export const listTasks: MethodHandler = async (params, scope) => {
  const runtime = runtimeOf(scope, 'tasks/list');
  const cursor = optionalCursor(params);
  try {
    const page = await runtime.list(owningContextOf(scope.info?.auth), cursor);
    const result: Result = { tasks: page.tasks.map(taskWire2025) };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return result;
  } catch (error) {
    if (error instanceof InvalidTaskCursorError) throw new ProtocolError(INVALID_PARAMS, error.message);
    throw error;
  }
};

/** `tasks/cancel`: `cancelled` before the answer; -32602 for a terminal or unknown task. */
export const cancelTask: MethodHandler = async (params, scope) => {
  const runtime = runtimeOf(scope, 'tasks/cancel');
  const taskId = requireString(params, 'taskId');
  const outcome = await runtime.cancel(taskId, owningContextOf(scope.info?.auth));
  if (outcome === undefined) throw taskNotFound(taskId);
  if ('terminal' in outcome) {
    throw new ProtocolError(
      INVALID_PARAMS,
      `Cannot cancel task: already in terminal status '${outcome.terminal.status}'.`,
    );
  }
  return taskWire2025(outcome.cancelled);
};
