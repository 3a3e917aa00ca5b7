/**
 * A call's cancellation given as a hook instead of an AbortSignal. Making an
 * AbortSignal (and listening on it) for every proxied call showed as about 5% of
 * the gateway's CPU per call; the engine's call context offers `onAbort`, which
 * costs an array push. This reads like a signal where the call runner checks
 * `aborted`, hands the hook to the connection, and makes a real AbortSignal only
 * for the rare paths that need one (a confirmation being asked, a retry's back-off).
 */
import type { AbortHook } from './types.js';

/** Cancellation from an {@link AbortHook}; see the file comment. */
export class HookedAbort {
  readonly hook: AbortHook;
  #aborted = false;
  #reason: unknown;
  #controller: AbortController | undefined;

  constructor(hook: AbortHook) {
    this.hook = hook;
    hook((reason) => {
      this.#aborted = true;
      this.#reason = reason;
      this.#controller?.abort(reason);
    });
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  /** An AbortSignal that follows the hook, made on first use. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }
}
