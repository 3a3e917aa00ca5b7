/**
 * The prompts a server offers, with the `changed` event behind
 * `notifications/prompts/list_changed`.
 */

import { DefinitionError } from '../errors.js';
import { decodeCursor, encodeCursor } from '../registry/cursor.js';
import { Emitter } from '../util/emitter.js';
import type { PromptDefinition, WirePrompt } from './types.js';

type Events = { changed: [] };

/**
 * The server's prompts.
 *
 * @example
 * ```ts
 * const prompts = new PromptRegistry().add(review);
 * prompts.remove('code_review'); // clients get notifications/prompts/list_changed
 * ```
 */
export class PromptRegistry {
  readonly #prompts = new Map<string, PromptDefinition>();
  readonly #events = new Emitter<Events>();
  readonly #pageSize: number;

  constructor(options: { pageSize?: number } = {}) {
    this.#pageSize = options.pageSize ?? 100;
  }

  add(...prompts: PromptDefinition[]): this {
    for (const p of prompts) {
      if (p?.kind !== 'prompt') throw new DefinitionError('PromptRegistry.add takes definitions from definePrompt.');
      if (this.#prompts.has(p.name)) throw new DefinitionError(`A prompt named "${p.name}" is already registered.`);
    }
    for (const p of prompts) this.#prompts.set(p.name, p);
    if (prompts.length > 0) this.#events.emit('changed');
    return this;
  }

  remove(...names: string[]): this {
    let changed = false;
    for (const name of names) changed = this.#prompts.delete(name) || changed;
    if (changed) this.#events.emit('changed');
    return this;
  }

  get(name: string): PromptDefinition | undefined {
    return this.#prompts.get(name);
  }

  get size(): number {
    return this.#prompts.size;
  }

  /** Listen for an event; returns a function that stops listening. */
  on<E extends keyof Events>(event: E, listener: (...args: Events[E]) => void): () => void {
    this.#events.on(event, listener);
    return () => this.#events.off(event, listener);
  }

  /** One page of `prompts/list`. */
  list(options: { cursor?: string } = {}): { prompts: WirePrompt[]; nextCursor?: string } {
    const all = [...this.#prompts.values()].map((p) => p.wire);
    let offset = 0;
    if (options.cursor !== undefined) {
      offset = decodeCursor<{ o: number }>(options.cursor, (v) => Number.isInteger(v.o) && v.o >= 0).o;
    }
    const prompts = all.slice(offset, offset + this.#pageSize);
    const next = offset + prompts.length;
    return next < all.length ? { prompts, nextCursor: encodeCursor({ o: next }) } : { prompts };
  }
}
