/**
 * 2026-07-28 tasks that ask the client (the `io.modelcontextprotocol/tasks`
 * extension, SEP-2663 draft: a task in `input_required` shows its
 * `inputRequests` on `tasks/get`; the client answers with `tasks/update`
 * `inputResponses`). As for plain 2026 calls, the handler is run again from
 * the start with every answer so far, so nothing waits inside a handler.
 *
 * The questions and answers live in the task record (`input`), so the answer
 * may reach any instance: it is recorded in the store, and the instance
 * running the task (which polls its record while it waits, and is woken at
 * once when the answer arrives locally) picks it up.
 */
import type { TaskRecord, TaskStore } from './task-store.js';

const WAITING = "Waiting for the client to answer the task's input requests (tasks/update).";

interface Input {
  requests?: { [key: string]: unknown };
  responses?: { [key: string]: unknown };
}

/** The outstanding input requests of a task waiting for the client, for `tasks/get`. */
export function inputRequestsOf(task: TaskRecord): { [key: string]: unknown } | undefined {
  if (task.status !== 'input_required' || task.input === undefined) return undefined;
  const { requests = {}, responses = {} } = parse(task.input);
  return Object.fromEntries(Object.entries(requests).filter(([key]) => !Object.hasOwn(responses, key)));
}

/** Questions and answers of waiting tasks, over one store. */
export class TaskInputs {
  readonly #store: TaskStore;
  readonly #pollMs: number;
  readonly #wake = new Map<string, () => void>();

  constructor(store: TaskStore, pollMs: number) {
    this.#store = store;
    this.#pollMs = pollMs;
  }

  /**
   * The owner's side: show the task waiting for `requests`, and resolve with
   * the answers once each is answered. Rejects with `signal`'s reason when the
   * task is cancelled, and when the task ends or expires meanwhile.
   */
  async wait(
    taskId: string,
    requests: { [key: string]: unknown },
    signal: AbortSignal,
  ): Promise<{ [key: string]: unknown }> {
    const shown = await this.#store.transition(taskId, {
      status: 'input_required',
      statusMessage: WAITING,
      at: Date.now(),
      input: JSON.stringify({ requests, responses: {} } satisfies Input),
    });
    if (shown === undefined)
      throw signal.aborted ? signal.reason : new Error('The task ended while it waited for input.');
    try {
      for (;;) {
        if (signal.aborted) throw signal.reason;
        const task = await this.#store.get(taskId);
        if (task === undefined || (task.status !== 'working' && task.status !== 'input_required')) {
          throw signal.aborted ? signal.reason : new Error('The task ended while it waited for input.');
        }
        if (task.status === 'working') {
          const { responses = {} } = task.input === undefined ? {} : parse(task.input);
          await this.#store.transition(taskId, { status: 'working', at: Date.now() });
          return responses;
        }
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            this.#wake.delete(taskId);
            resolve();
          };
          const timer = setTimeout(done, this.#pollMs);
          signal.addEventListener('abort', done, { once: true });
          this.#wake.set(taskId, done);
        });
      }
    } finally {
      this.#wake.delete(taskId);
    }
  }

  /**
   * Any instance: record the client's answers to the outstanding requests
   * (other keys are ignored, as the extension says). Returns a problem with
   * an answer's shape, or undefined.
   */
  async answer(
    task: TaskRecord,
    given: { [key: string]: unknown },
    check: (request: unknown, answer: unknown) => string | undefined,
  ): Promise<string | undefined> {
    if (task.status !== 'input_required' || task.input === undefined) return undefined;
    const { requests = {}, responses = {} } = parse(task.input);
    const merged = { ...responses };
    for (const key of Object.keys(requests)) {
      if (!Object.hasOwn(given, key) || Object.hasOwn(responses, key)) continue;
      const problem = check(requests[key], given[key]);
      if (problem !== undefined) return `inputResponses["${key}"] ${problem}`;
      merged[key] = given[key];
    }
    const complete = Object.keys(requests).every((key) => Object.hasOwn(merged, key));
    await this.#store.transition(task.taskId, {
      status: complete ? 'working' : 'input_required',
      ...(complete ? {} : { statusMessage: WAITING }),
      at: Date.now(),
      input: JSON.stringify((complete ? { responses: merged } : { requests, responses: merged }) satisfies Input),
    });
    if (complete) this.#wake.get(task.taskId)?.();
    return undefined;
  }
}

function parse(text: string): Input {
  try {
    const value = JSON.parse(text) as Input;
    return typeof value === 'object' && value !== null ? value : {};
  } catch {
    return {};
  }
}
