/**
 * A tiny typed event emitter for the resource and prompt registries (works
 * outside Node; listeners that throw are isolated from each other).
 */

/**
 * @example
 * ```ts
 * const events = new Emitter<{ changed: [{ names: string[] }] }>();
 * events.on('changed', ({ names }) => console.error(names));
 * events.emit('changed', { names: ['a'] });
 * ```
 */
export class Emitter<Events extends { [event: string]: unknown[] }> {
  readonly #listeners = new Map<keyof Events, Set<(...args: any[]) => void>>();
  readonly #onError: (error: unknown) => void;

  /** `onError` receives what a listener threw (default: printed to stderr). */
  constructor(onError: (error: unknown) => void = (error) => console.error('candor: an event listener threw', error)) {
    this.#onError = onError;
  }

  on<E extends keyof Events>(event: E, listener: (...args: Events[E]) => void): this {
    let set = this.#listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener);
    return this;
  }

  off<E extends keyof Events>(event: E, listener: (...args: Events[E]) => void): this {
    this.#listeners.get(event)?.delete(listener);
    return this;
  }

  emit<E extends keyof Events>(event: E, ...args: Events[E]): void {
    const set = this.#listeners.get(event);
    if (set === undefined) return;
    for (const listener of [...set]) {
      try {
        listener(...args);
      } catch (error) {
        // One broken listener must not stop the others (or the registry change).
        this.#onError(error);
      }
    }
  }
}
