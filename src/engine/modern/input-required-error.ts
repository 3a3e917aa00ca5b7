/** The error that ends a 2026-07-28 round when a handler asks what the client has not answered yet. */
import { ToolError } from '../../errors.js';

/** The reason on `ctx.signal` and the rejection of an unanswered interaction. */
export class InputRequiredError extends ToolError {
  constructor() {
    // A ToolError, so the pipeline neither masks nor logs it; the engine answers input_required instead.
    super('This call needs input from the client; it is answered with an input_required result.', {
      code: 'input_required',
    });
  }
}

/**
 * The reason on `ctx.signal` and the rejection of `ctx.becomeTask()` when a
 * plain 2026-07-28 call of an `asksBeforeTask` tool turns into a task: the
 * engine answers the request with the task and runs the handler again as its work.
 */
export class BecameTaskError extends ToolError {
  constructor() {
    super('This call continues as a task; it is answered with a CreateTaskResult.', { code: 'became_task' });
  }
}

/** True for an {@link InputRequiredError}, also across module copies. */
export function isInputRequiredError(error: unknown): error is InputRequiredError {
  return (
    error instanceof InputRequiredError ||
    (typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'input_required')
  );
}
