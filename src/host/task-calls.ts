/**
 * Calling a tool that runs only as an MCP task, and waiting for its result, so
 * that whoever called through the host (an agent, the gateway's clients of
 * either era) gets a plain result.
 *
 * - 2025-11-25 (basic/utilities/tasks): the tool lists `execution.taskSupport:
 *   "required"`. `tools/call` carries `task: {}` and answers a `CreateTaskResult`;
 *   `tasks/result` blocks until the task ends and returns the `CallToolResult`
 *   (requests the server sends meanwhile come on that request's stream and reach
 *   the client's handlers as usual); `tasks/cancel` stops it.
 * - 2026-07-28 (the `io.modelcontextprotocol/tasks` extension): tools/list no
 *   longer says which tools need a task; a call without the extension is refused
 *   with -32021 naming it. The call is then made again with the extension declared
 *   in the request's client capabilities, answers `resultType: "task"`, and
 *   `tasks/get` is polled until the `DetailedTask` carries the result or error.
 *   A task that stops for input (`input_required`) has its questions answered by
 *   the client's own handlers (input-answerers.ts) and sent back with `tasks/update`.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type Client,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
} from '@modelcontextprotocol/client';
import { z } from 'zod';
import { TASKS_EXTENSION } from '../engine/tasks/task-wire.js';
import { CandorError } from '../errors.js';
import type { CallToolResult } from '../tool/types.js';
import { sleep } from './call-failure.js';
import { answererOf } from './input-answerers.js';
import { rawRequest } from './raw-request.js';
import type { ConnectionCallOptions } from './types.js';

const LOOSE = z.looseObject({});
/** Polling bounds (ms): the server's `pollIntervalMs`, kept sane. */
const MIN_POLL = 25;
const MAX_POLL = 5_000;
/** The spec's "Missing required client capability" (2026-07-28). */
const MISSING_CAPABILITY = -32021;
/** Rounds of questions one task may ask before the call gives up (a server that never stops asking). */
const MAX_INPUT_ROUNDS = 32;

type Loose = Record<string, unknown>;

/** Whether a tool list entry says the tool runs only as a task (2025-11-25 wire). */
export function requiresTask(tool: unknown): boolean {
  const execution = (tool as { execution?: { taskSupport?: unknown } } | null)?.execution;
  return execution?.taskSupport === 'required';
}

/** Whether an error is a 2026-07-28 refusal asking for the tasks extension. */
export function asksForTasks(error: unknown): boolean {
  if (!(error instanceof ProtocolError) || error.code !== MISSING_CAPABILITY) return false;
  const data = error.data as { requiredCapabilities?: { extensions?: Loose } } | undefined;
  return data?.requiredCapabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
}

/**
 * Call `name` as a task and wait for its result.
 *
 * `declared`: the client's capabilities and info, for the 2026-07-28 envelope
 * (the tasks extension is added to the capabilities).
 *
 * @example
 * ```ts
 * const result = await callAsTask(client, 'render', { page: 1 }, { timeoutMs: 60_000 }, { capabilities: {}, clientInfo });
 * ```
 */
export async function callAsTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  options: ConnectionCallOptions,
  declared: { capabilities: Loose; clientInfo: Loose },
): Promise<CallToolResult> {
  const controller = new AbortController();
  if (options.signal) {
    if (options.signal.aborted) controller.abort(options.signal.reason);
    else options.signal.addEventListener('abort', () => controller.abort(options.signal?.reason), { once: true });
  } else options.onAbort?.((reason) => controller.abort(reason));
  const deadline = options.timeoutMs === undefined ? undefined : Date.now() + options.timeoutMs;
  const remaining = () => (deadline === undefined ? undefined : Math.max(1, deadline - Date.now()));
  const modern = client.getProtocolEra() === 'modern';
  // 2026-07-28: every request carries the envelope; this one also declares the extension.
  const envelope: Loose = {};
  if (modern) {
    const { capabilities, clientInfo } = declared;
    envelope[PROTOCOL_VERSION_META_KEY] = client.getNegotiatedProtocolVersion();
    envelope[CLIENT_INFO_META_KEY] = clientInfo;
    envelope[CLIENT_CAPABILITIES_META_KEY] = {
      ...capabilities,
      extensions: { ...(capabilities.extensions as Loose | undefined), [TASKS_EXTENSION]: {} },
    };
  }
  const request = (method: string, params: Loose) => {
    const timeoutMs = remaining();
    if (modern) {
      const withEnvelope = { ...params, _meta: { ...envelope, ...(params._meta as Loose | undefined) } };
      return rawRequest(client, method, withEnvelope, {
        signal: controller.signal,
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      });
    }
    return client.request({ method, params } as never, LOOSE, {
      signal: controller.signal,
      ...(timeoutMs !== undefined ? { timeout: timeoutMs } : {}),
    }) as Promise<Loose>;
  };
  const created = await request('tools/call', {
    name,
    arguments: args,
    ...(modern ? {} : { task: {} }),
    ...(options.meta ? { _meta: options.meta } : {}),
  });
  // A server may run a call at once even when asked for a task: that is the result.
  const task = (modern ? created : created.task) as Loose | undefined;
  if (modern ? created.resultType !== 'task' : task === undefined) return created as unknown as CallToolResult;
  const taskId = task?.taskId;
  if (typeof taskId !== 'string') {
    throw new CandorError(`The server answered tools/call ${name} with a task that has no taskId.`, {
      code: 'protocol_error',
    });
  }
  const cancel = () => void request('tasks/cancel', { taskId }).catch(() => {});
  controller.signal.addEventListener('abort', cancel, { once: true });
  try {
    if (!modern) return (await request('tasks/result', { taskId })) as unknown as CallToolResult;
    return await pollUntilDone(client, name, taskId, task as Loose, request, controller.signal);
  } finally {
    controller.signal.removeEventListener('abort', cancel);
  }
}

/** 2026-07-28: poll `tasks/get` until the task ends. */
async function pollUntilDone(
  client: Client,
  name: string,
  taskId: string,
  first: Loose,
  request: (method: string, params: Loose) => Promise<Loose>,
  signal: AbortSignal,
): Promise<CallToolResult> {
  let task = first;
  let rounds = 0;
  for (;;) {
    switch (task.status) {
      case 'completed':
        return (task.result ?? { content: [] }) as CallToolResult;
      case 'failed': {
        const error = (task.error ?? {}) as { code?: number; message?: string; data?: unknown };
        throw new ProtocolError(error.code ?? -32603, error.message ?? `The task of ${name} failed.`, error.data);
      }
      case 'cancelled':
        throw new CandorError(`The server cancelled the task of ${name}.`, { code: 'task_cancelled' });
      case 'input_required': {
        if (++rounds > MAX_INPUT_ROUNDS) {
          throw new CandorError(`The task of ${name} asked for input ${MAX_INPUT_ROUNDS} times; giving up.`, {
            code: 'client_request_failed',
          });
        }
        const inputResponses = await answersTo(client, name, task.inputRequests);
        await request('tasks/update', { taskId, inputResponses });
        task = await request('tasks/get', { taskId });
        continue;
      }
    }
    const interval = typeof task.pollIntervalMs === 'number' ? task.pollIntervalMs : 250;
    await sleep(Math.min(MAX_POLL, Math.max(MIN_POLL, interval)), signal);
    task = await request('tasks/get', { taskId });
  }
}

/** Answer each of a task's questions with the client's own handler for that kind of question. */
async function answersTo(client: Client, name: string, requests: unknown): Promise<Loose> {
  const entries = Object.entries((requests ?? {}) as Record<string, { method?: unknown; params?: unknown }>);
  const answers: Loose = {};
  for (const [key, question] of entries) {
    const method = typeof question?.method === 'string' ? question.method : '';
    const answer = answererOf(client, method);
    if (!answer) {
      throw new CandorError(`The task of ${name} asks for ${method || 'something'}, which this client cannot answer.`, {
        code: 'client_request_failed',
      });
    }
    answers[key] = await answer({ method, params: question.params });
  }
  return answers;
}
