/**
 * Tasks in the 2026-07-28 era: the `io.modelcontextprotocol/tasks` extension
 * (SEP-2663; experimental-ext-tasks, specification/draft/tasks.md).
 *
 * - Negotiation is per request: the client lists the extension under
 *   `_meta["io.modelcontextprotocol/clientCapabilities"].extensions`; the
 *   server advertises it in `server/discover`.
 * - The server decides when a call becomes a task; candor's rule: a tool
 *   declared `task: 'optional' | 'required'` becomes a task whenever the
 *   request declares the extension. A `required` tool called without it is
 *   refused with -32021 naming the extension.
 * - `CreateTaskResult` is the task itself with `resultType: "task"`;
 *   `tasks/get` returns the DetailedTask (result or JSON-RPC error inline);
 *   `tasks/update` is acknowledged; `tasks/cancel` is acknowledged and
 *   cooperative. A tool result with `isError: true` is `completed` (failed
 *   means a JSON-RPC error in this extension).
 * - `input_required`: a handler that asks the client (elicitation, sampling,
 *   roots) puts the task in `input_required` with its `inputRequests` on
 *   `tasks/get`; `tasks/update` answers them and the handler runs again with
 *   every answer so far (src/engine/tasks/task-input.ts), on any instance.
 * - Not supported yet: `notifications/tasks` over `subscriptions/listen`.
 */
import { ProtocolError } from '../../errors.js';
import { MISSING_REQUIRED_CLIENT_CAPABILITY } from '../../pipeline/missing-capability.js';
import type { CallToolResult, ToolDefinition } from '../../tool/types.js';
import { INVALID_PARAMS } from '../jsonrpc.js';
import { requireString } from '../methods/params.js';
import { owningContextOf, taskNotFound } from '../methods/tasks.js';
import { inputRequestsOf } from '../tasks/task-input.js';
import type { Abortable, TaskRuntime } from '../tasks/task-runtime.js';
import { detailedTask2026, TASKS_EXTENSION, taskWire2026 } from '../tasks/task-wire.js';
import { ModernCallContext } from './call-context.js';
import type { Envelope } from './envelope.js';
import { shapeProblem } from './input-responses.js';
import type { InputRequest } from './interactions.js';
import { type ModernHandler, type ModernScope, refuseWith } from './scope.js';

const NO_ANSWERS: ReadonlyMap<string, unknown> = new Map();

/** Whether the request declared the tasks extension. */
export function declaresTasks(envelope: Envelope): boolean {
  const extensions = envelope.clientCapabilities.extensions as { [key: string]: unknown } | undefined;
  return typeof extensions === 'object' && extensions !== null && extensions[TASKS_EXTENSION] !== undefined;
}

/** -32021 naming the extension (HTTP 400, like the other missing-capability refusals). */
function missingExtension(what: string): ProtocolError {
  return refuseWith(400, MISSING_REQUIRED_CLIENT_CAPABILITY, `Missing required client capability: ${what}`, {
    requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
  });
}

/**
 * Whether a modern `tools/call` becomes a task: true to run it as one, false
 * for a plain call. Throws -32021 for a `required` tool without the extension.
 */
export function wantsTask(tool: ToolDefinition, envelope: Envelope): boolean {
  if (declaresTasks(envelope)) return true;
  if (tool.task === 'required') {
    throw missingExtension(
      `the tool "${tool.name}" runs only as a task; declare the ${TASKS_EXTENSION} extension in the request's client capabilities.`,
    );
  }
  return false;
}

/**
 * Start the call as a task and answer the `CreateTaskResult` (`resultType: "task"`).
 * `answered`: what the questions asked before the task (an `asksBeforeTask` tool's
 * plain rounds) were answered with; the task's run starts from them.
 */
export async function callToolAsTaskModern(
  scope: ModernScope,
  tool: ToolDefinition,
  args: unknown,
  answered: ReadonlyMap<string, unknown> = NO_ANSWERS,
): Promise<{ [key: string]: unknown }> {
  const { engine, envelope, info, id } = scope;
  const runtime = engine.tasks!;
  // The request is answered at once: progress and logs have no stream to go to (the extension: not supported on tasks).
  const round = (answers: ReadonlyMap<string, unknown>) =>
    new ModernCallContext(tool, args, {
      id,
      envelope,
      channel: scope.channel,
      answers,
      ...(info?.auth ? { auth: info.auth } : {}),
      ...(info?.http ? { http: info.http } : {}),
    });
  // A handler that asks the client runs once per round of answers; cancelling reaches whichever round runs.
  let current = round(answered);
  const cancelled = new AbortController();
  const handle: Abortable = {
    abort(reason) {
      cancelled.abort(reason);
      current.abort(reason);
    },
    task: undefined,
  };
  const { task, done } = await runtime.start({
    name: tool.name,
    owningContext: owningContextOf(info?.auth),
    requestedTtlMs: undefined,
    isErrorStatus: 'completed',
    ctx: handle,
    run: async (): Promise<CallToolResult> => {
      let answers: ReadonlyMap<string, unknown> = answered;
      for (;;) {
        current.task = handle.task;
        const result = await engine.runTool(current);
        if (current.inputRequests.size === 0) return result;
        // input_required: show the questions on the task, wait for tasks/update, run again with every answer.
        const requests = Object.fromEntries(current.inputRequests);
        current.finish();
        const given = await runtime.inputs.wait(handle.task!.taskId, requests, cancelled.signal);
        answers = new Map([...answers, ...Object.entries(given)]);
        current = round(answers);
      }
    },
    onDone: () => current.finish(),
  });
  engine.track(done);
  return { resultType: 'task', ...taskWire2026(task) };
}

function runtimeFor(scope: ModernScope): TaskRuntime {
  const runtime = scope.engine.tasks;
  if (runtime === undefined) {
    throw refuseWith(404, -32601, `Method not found: ${scope.method} (this server does not serve tasks).`);
  }
  if (!declaresTasks(scope.envelope)) {
    throw missingExtension(
      `${scope.method} belongs to the ${TASKS_EXTENSION} extension; declare it in the request's client capabilities.`,
    );
  }
  return runtime;
}

/** `tasks/get`: the DetailedTask. */
const getTask: ModernHandler = async (params, scope) => {
  const runtime = runtimeFor(scope);
  const taskId = requireString(params, 'taskId');
  const task = await runtime.read(taskId, owningContextOf(scope.info?.auth));
  if (task === undefined) throw taskNotFound(taskId);
  const wire = detailedTask2026(task);
  const inputRequests = inputRequestsOf(task);
  if (inputRequests !== undefined) wire.inputRequests = inputRequests;
  return wire;
};

/**
 * `tasks/update`: record the client's `inputResponses` for a task waiting in
 * `input_required` (keys that are not outstanding are ignored, as the
 * extension says); an empty acknowledgement.
 */
const updateTask: ModernHandler = async (params, scope) => {
  const runtime = runtimeFor(scope);
  const taskId = requireString(params, 'taskId');
  const responses = params.inputResponses;
  if (responses !== undefined && (typeof responses !== 'object' || responses === null || Array.isArray(responses))) {
    throw new ProtocolError(INVALID_PARAMS, 'Invalid params: "inputResponses" must be an object.');
  }
  const task = await runtime.read(taskId, owningContextOf(scope.info?.auth));
  if (task === undefined) throw taskNotFound(taskId);
  if (responses !== undefined) {
    const problem = await runtime.inputs.answer(task, responses as { [key: string]: unknown }, (request, answer) =>
      shapeProblem((request as Partial<InputRequest> | undefined)?.method, answer),
    );
    if (problem !== undefined) throw new ProtocolError(INVALID_PARAMS, `Invalid params: ${problem}`);
  }
  return {};
};

/** `tasks/cancel`: an empty acknowledgement; the task becomes `cancelled` unless it already ended. */
const cancelTask: ModernHandler = async (params, scope) => {
  const runtime = runtimeFor(scope);
  const taskId = requireString(params, 'taskId');
  const outcome = await runtime.cancel(taskId, owningContextOf(scope.info?.auth));
  if (outcome === undefined) throw taskNotFound(taskId);
  return {};
};

/** The extension's methods, for the modern method table. */
export const modernTaskMethods: ReadonlyArray<[string, ModernHandler]> = [
  ['tasks/get', getTask],
  ['tasks/update', updateTask],
  ['tasks/cancel', cancelTask],
];
