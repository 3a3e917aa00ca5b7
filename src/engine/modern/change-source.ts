/**
 * Where `subscriptions/listen` learns that something changed. An interface, so
 * the same hub runs on one process (the in-process source here) or across
 * instances (a source that publishes to and subscribes from Redis pub/sub:
 * `publish` sends to the channel, `subscribe` listens on it; every instance's
 * registries publish, every instance's listeners hear all of them).
 */

import type { ToolSource } from '../../pipeline/types.js';
import type { PromptRegistry } from '../../prompts/registry.js';
import type { ResourceRegistry } from '../../resources/registry.js';

/** One change a subscription may be told about. */
export type ChangeEvent =
  | { readonly type: 'tools_list_changed' }
  | { readonly type: 'prompts_list_changed' }
  | { readonly type: 'resources_list_changed' }
  | { readonly type: 'resource_updated'; readonly uri: string };

/** A stream of change events. */
export interface ChangeSource {
  /** Tell every subscriber (on every instance, for a shared source) about a change. */
  publish(event: ChangeEvent): void | Promise<void>;
  /** Listen for changes; returns a function that stops listening. */
  subscribe(listener: (event: ChangeEvent) => void): () => void;
}

/**
 * The default source: an in-process fan-out. A listener that throws is
 * isolated from the others.
 *
 * @example
 * ```ts
 * const source = new InProcessChangeSource();
 * const stop = source.subscribe((event) => console.error(event.type));
 * source.publish({ type: 'tools_list_changed' });
 * stop();
 * ```
 */
export class InProcessChangeSource implements ChangeSource {
  readonly #listeners = new Set<(event: ChangeEvent) => void>();
  readonly #onError: (error: unknown) => void;

  constructor(options: { onError?: (error: unknown) => void } = {}) {
    this.#onError = options.onError ?? ((error) => console.error('candor: a change listener threw', error));
  }

  /** Number of listeners (for tests and metrics). */
  get size(): number {
    return this.#listeners.size;
  }

  publish(event: ChangeEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.#onError(error);
      }
    }
  }

  subscribe(listener: (event: ChangeEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }
}

/**
 * Publish the registries' changes to a source (one event per registry change).
 * Returns a function that stops.
 *
 * @example
 * ```ts
 * const stop = publishRegistryChanges(source, { tools: registry, resources, prompts });
 * ```
 */
export function publishRegistryChanges(
  source: ChangeSource,
  registries: { tools?: ToolSource; resources?: ResourceRegistry; prompts?: PromptRegistry },
): () => void {
  const stops: Array<() => void> = [];
  const send = (event: ChangeEvent) => {
    void Promise.resolve(source.publish(event)).catch(() => {});
  };
  if (registries.tools) stops.push(registries.tools.on('changed', () => send({ type: 'tools_list_changed' })));
  if (registries.resources) {
    stops.push(
      registries.resources.on('changed', () => send({ type: 'resources_list_changed' })),
      registries.resources.on('updated', (uri) => send({ type: 'resource_updated', uri })),
    );
  }
  if (registries.prompts) stops.push(registries.prompts.on('changed', () => send({ type: 'prompts_list_changed' })));
  return () => {
    for (const stop of stops.splice(0)) stop();
  };
}
