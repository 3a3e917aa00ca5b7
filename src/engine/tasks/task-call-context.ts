/**
 * The `ctx` of a tool call running as a 2025-11-25 task. Like any 2025 call
 * context, but when the handler asks the client something (elicitation,
 * sampling, roots) the task shows `input_required` until the answer comes
 * (tasks, "Input Required Status"), and the request carries
 * `_meta["io.modelcontextprotocol/related-task"]` ("Associating Task-Related
 * Messages"). The original request is already answered, so the question goes
 * on the session's own stream (HTTP: the GET stream; stdio: stdout).
 */
import type { ElicitParams, ElicitResult, SampleParams, SampleResult, ToolDefinition } from '../../tool/types.js';
import { EngineCallContext } from '../call-context.js';
import type { RequestScope } from '../engine.js';
import type { TaskRuntime } from './task-runtime.js';
import { RELATED_TASK } from './task-wire.js';

/** A 2025-era call context that knows its task. */
export class TaskCallContext extends EngineCallContext {
  readonly #runtime: TaskRuntime;

  constructor(
    tool: ToolDefinition,
    args: unknown,
    scope: RequestScope,
    progressToken: string | number | undefined,
    runtime: TaskRuntime,
  ) {
    super(tool, args, scope, progressToken);
    this.#runtime = runtime;
  }

  override elicit(params: ElicitParams): Promise<ElicitResult> {
    return this.#asking(() => super.elicit(params));
  }

  override sample(params: SampleParams): Promise<SampleResult> {
    return this.#asking(() => super.sample(params));
  }

  override listRoots(): Promise<Array<{ uri: string; name?: string }>> {
    return this.#asking(() => super.listRoots());
  }

  async #asking<T>(ask: () => Promise<T>): Promise<T> {
    const taskId = this.task?.taskId;
    if (taskId === undefined) return ask();
    this.requestMeta = { [RELATED_TASK]: { taskId } };
    await this.#runtime.markWaiting(taskId, true);
    try {
      return await ask();
    } finally {
      await this.#runtime.markWaiting(taskId, false);
    }
  }
}
