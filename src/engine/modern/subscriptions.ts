/**
 * `subscriptions/listen` (basic/patterns/subscriptions): a long-lived request
 * whose response stream carries the change notifications the client opted
 * in to. The hub acknowledges first (`notifications/subscriptions/acknowledged`,
 * with the subset the server honours), then forwards matching events from the
 * {@link ChangeSource}, every message stamped with
 * `io.modelcontextprotocol/subscriptionId` (the listen request's id).
 *
 * A subscription ends when the client leaves (HTTP: the stream closes, which
 * aborts the request's signal; stdio: `notifications/cancelled`), which gets
 * no response, or when the server shuts down, which answers the listen
 * request with a complete result (graceful closure). Open subscriptions are
 * capped; over HTTP an SSE comment is sent every `keepAliveMs` so idle
 * intermediaries do not cut the stream.
 */
import { ProtocolError } from '../../errors.js';
import type { Channel, JsonRpcId } from '../channel.js';
import type { Result, ServerCapabilities } from '../engine.js';
import { INTERNAL_ERROR } from '../jsonrpc.js';
import { invalidParams } from '../methods/params.js';
import type { ChangeEvent, ChangeSource } from './change-source.js';
import { META } from './protocol.js';

/** A channel that can also send an SSE keep-alive comment (HTTP only). */
export type KeepAliveChannel = Channel & { keepAlive?(): void };

/** Options of {@link SubscriptionHub} (the server's `subscriptions` option, minus what the engine fills in). */
export interface SubscriptionOptions {
  /** Most subscriptions open at once, across clients. Default 1024. */
  maxSubscriptions?: number;
  /** Interval of SSE keep-alive comments on listen streams, in ms. Default 15 000; 0 turns them off. */
  keepAliveMs?: number;
  /** Where changes come from. Default: an in-process source fed by the registries. */
  source?: ChangeSource;
}

/** The notification types a client can opt in to. */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
}

interface Open {
  end(graceful: boolean): void;
}

/**
 * The open `subscriptions/listen` requests of one dispatcher.
 *
 * @example
 * ```ts
 * const hub = new SubscriptionHub({ source, capabilities, serverInfoMeta: {} });
 * const result = await hub.listen(7, params, { channel, signal }); // resolves when it ends
 * ```
 */
export class SubscriptionHub {
  readonly #source: ChangeSource;
  readonly #capabilities: ServerCapabilities;
  readonly #resultMeta: { [key: string]: unknown };
  readonly #max: number;
  readonly #keepAliveMs: number;
  readonly #open = new Set<Open>();

  constructor(
    options: SubscriptionOptions & {
      source: ChangeSource;
      capabilities: ServerCapabilities;
      /** `_meta` every result carries (server info), merged into the closing result. */
      resultMeta: { [key: string]: unknown };
    },
  ) {
    this.#source = options.source;
    this.#capabilities = options.capabilities;
    this.#resultMeta = options.resultMeta;
    this.#max = options.maxSubscriptions ?? 1024;
    this.#keepAliveMs = options.keepAliveMs ?? 15_000;
  }

  /** Subscriptions open now. */
  get size(): number {
    return this.#open.size;
  }

  /**
   * Serve one listen request. Resolves with the closing result when the server
   * ends the subscription, or with undefined when the client left (no response).
   */
  listen(
    id: JsonRpcId,
    params: { [key: string]: unknown },
    io: { channel: KeepAliveChannel; signal?: AbortSignal },
  ): Promise<Result | undefined> {
    const requested = readFilter(params.notifications);
    if (this.#open.size >= this.#max) {
      throw new ProtocolError(
        INTERNAL_ERROR,
        `Subscription limit reached: this server keeps at most ${this.#max} subscriptions open; close one and retry.`,
      );
    }
    const honoured = this.#honoured(requested);
    const { channel, signal } = io;
    const stamp = { [META.subscriptionId]: id };
    channel.send({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: honoured, _meta: stamp },
    });
    const closing: Result = { resultType: 'complete', _meta: { ...this.#resultMeta, ...stamp } };
    // Nothing to deliver: end at once, gracefully (the ack told the client what is honoured).
    if (Object.keys(honoured).length === 0) return Promise.resolve(closing);
    if (signal?.aborted) return Promise.resolve(undefined);

    return new Promise((resolve) => {
      const uris = new Set(honoured.resourceSubscriptions ?? []);
      const stop = this.#source.subscribe((event) => {
        if (!channel.open || !accepts(honoured, uris, event)) return;
        channel.send({ jsonrpc: '2.0', method: methodOf(event), params: paramsOf(event, stamp) });
      });
      const timer =
        this.#keepAliveMs > 0 && channel.keepAlive
          ? setInterval(() => {
              if (channel.open) channel.keepAlive!();
            }, this.#keepAliveMs)
          : undefined;
      timer?.unref?.();
      const entry: Open = {
        end: (graceful) => {
          if (!this.#open.delete(entry)) return;
          stop();
          clearInterval(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(graceful ? closing : undefined);
        },
      };
      const onAbort = () => entry.end(false);
      this.#open.add(entry);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** End every subscription gracefully (server shutdown): each listen request gets its closing result. */
  closeAll(): void {
    for (const entry of [...this.#open]) entry.end(true);
  }

  /** What of the request the server can deliver (omitted: unsupported types). */
  #honoured(requested: SubscriptionFilter): SubscriptionFilter {
    const caps = this.#capabilities;
    const out: SubscriptionFilter = {};
    if (requested.toolsListChanged && caps.tools?.listChanged) out.toolsListChanged = true;
    if (requested.promptsListChanged && caps.prompts?.listChanged) out.promptsListChanged = true;
    if (requested.resourcesListChanged && caps.resources?.listChanged) out.resourcesListChanged = true;
    if (requested.resourceSubscriptions && requested.resourceSubscriptions.length > 0 && caps.resources?.subscribe) {
      out.resourceSubscriptions = [...new Set(requested.resourceSubscriptions)];
    }
    return out;
  }
}

function readFilter(value: unknown): SubscriptionFilter {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidParams(
      '"notifications" must be an object saying which notifications to send, e.g. { "toolsListChanged": true }.',
    );
  }
  const v = value as Record<string, unknown>;
  const filter: SubscriptionFilter = {};
  for (const key of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const) {
    if (v[key] === undefined) continue;
    if (typeof v[key] !== 'boolean') throw invalidParams(`"notifications.${key}" must be a boolean.`);
    filter[key] = v[key] as boolean;
  }
  const uris = v.resourceSubscriptions;
  if (uris !== undefined) {
    if (!Array.isArray(uris) || !uris.every((u) => typeof u === 'string')) {
      throw invalidParams('"notifications.resourceSubscriptions" must be a list of resource URIs.');
    }
    filter.resourceSubscriptions = uris as string[];
  }
  return filter;
}

function accepts(filter: SubscriptionFilter, uris: ReadonlySet<string>, event: ChangeEvent): boolean {
  switch (event.type) {
    case 'tools_list_changed':
      return filter.toolsListChanged === true;
    case 'prompts_list_changed':
      return filter.promptsListChanged === true;
    case 'resources_list_changed':
      return filter.resourcesListChanged === true;
    case 'resource_updated':
      return uris.has(event.uri);
  }
}

function methodOf(event: ChangeEvent): string {
  switch (event.type) {
    case 'tools_list_changed':
      return 'notifications/tools/list_changed';
    case 'prompts_list_changed':
      return 'notifications/prompts/list_changed';
    case 'resources_list_changed':
      return 'notifications/resources/list_changed';
    case 'resource_updated':
      return 'notifications/resources/updated';
  }
}

function paramsOf(event: ChangeEvent, stamp: { [key: string]: unknown }): { [key: string]: unknown } {
  return event.type === 'resource_updated' ? { uri: event.uri, _meta: stamp } : { _meta: stamp };
}
