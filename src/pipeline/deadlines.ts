/**
 * Deadlines for running tool calls, on one timer per time limit instead of one
 * `setTimeout` per call (a timer per call was ~10% of the engine's
 * CPU on tools/call). Calls with the same limit expire in the order they
 * started, so each limit keeps its calls in an insertion-ordered Set and one
 * timer aimed at the oldest; finishing a call is a `Set.delete`.
 *
 * The timer is unref'd while no call waits on it, so an idle server (or a CLI
 * that served one call) is never kept alive by it; while calls run it is ref'd,
 * as a per-call timer was.
 */

/** A registered deadline; pass it back to {@link Deadlines.clear}. */
export interface Deadline {
  /** When it expires, in `performance.now()` milliseconds. */
  readonly at: number;
  readonly expire: () => void;
  /** The queue of its time limit. */
  readonly queue: Queue;
}

/** The calls waiting under one time limit. */
export interface Queue {
  readonly ms: number;
  readonly waiting: Set<Deadline>;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires (performance.now() ms). */
  firesAt: number;
}

/**
 * @example
 * ```ts
 * const deadlines = new Deadlines();
 * const d = deadlines.add(30_000, () => controller.abort());
 * try { await work(); } finally { deadlines.clear(d); }
 * ```
 */
export class Deadlines {
  readonly #queues = new Map<number, Queue>();

  /** Call `expire` `ms` after `startedAt` (default: now), unless cleared first. */
  add(ms: number, expire: () => void, startedAt: number = performance.now()): Deadline {
    let queue = this.#queues.get(ms);
    if (queue === undefined) {
      queue = { ms, waiting: new Set(), timer: undefined, firesAt: Number.POSITIVE_INFINITY };
      this.#queues.set(ms, queue);
    }
    const deadline: Deadline = { at: startedAt + ms, expire, queue };
    queue.waiting.add(deadline);
    if (queue.timer === undefined || deadline.at < queue.firesAt) this.#arm(queue, deadline.at);
    // ref/unref exist on Node's timers only (workerd's and browsers' timers are numbers).
    else if (queue.waiting.size === 1) queue.timer.ref?.();
    return deadline;
  }

  /** Forget a deadline (the call finished). */
  clear(deadline: Deadline): void {
    const { queue } = deadline;
    if (!queue.waiting.delete(deadline)) return;
    // Nothing waits: let the process exit while the (harmless) timer is pending.
    if (queue.waiting.size === 0) queue.timer?.unref?.();
  }

  #arm(queue: Queue, at: number): void {
    if (queue.timer !== undefined) clearTimeout(queue.timer);
    queue.firesAt = at;
    queue.timer = setTimeout(() => this.#fire(queue), Math.max(0, at - performance.now()));
  }

  #fire(queue: Queue): void {
    queue.timer = undefined;
    queue.firesAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    for (const deadline of queue.waiting) {
      // Timers may fire a little early (they round to whole ms): 1 ms of slack.
      if (deadline.at > now + 1) {
        this.#arm(queue, deadline.at);
        return;
      }
      queue.waiting.delete(deadline);
      deadline.expire();
    }
  }
}
