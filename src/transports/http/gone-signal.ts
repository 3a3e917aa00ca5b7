/**
 * The `RequestInfo` of one 2026-07-28 POST. In this era closing the response
 * stream cancels the request (Streamable HTTP, "Cancellation"), so the
 * dispatcher needs to hear about the client leaving; listening costs one
 * `close` listener, and an AbortSignal is built only if something reads
 * `signal` (tools/call, the hot path, uses `onGone`).
 */
import type { RequestInfo } from '../../engine/channel.js';
import type { ToolSource } from '../../pipeline/types.js';
import type { AuthInfo } from '../../tool/types.js';
import type { Exchange, HttpRequestInfo } from './exchange.js';

const NOTHING = () => {};

/**
 * @example
 * ```ts
 * const info = new GoneSignal(exchange);
 * try { await dispatcher.handle(message, { peer, channel, info }); } finally { info.release(); }
 * ```
 */
export class GoneSignal implements RequestInfo {
  readonly auth: AuthInfo | undefined;
  readonly tools: ToolSource | undefined;
  readonly #exchange: Exchange;
  #listeners: Array<() => void> = [];
  #stopExchange: (() => void) | undefined;
  #controller: AbortController | undefined;
  #gone = false;
  #reason: unknown;
  #deferred = false;
  #released = false;

  constructor(exchange: Exchange) {
    this.#exchange = exchange;
    this.auth = exchange.auth;
    this.tools = exchange.tools;
  }

  get http(): HttpRequestInfo {
    return this.#exchange.http;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#gone) this.#controller.abort(this.#reason);
      else this.#hook();
    }
    return this.#controller.signal;
  }

  onGone(listener: () => void): () => void {
    if (this.#gone) {
      listener();
      return NOTHING;
    }
    this.#hook();
    this.#listeners.push(listener);
    return () => {
      const index = this.#listeners.indexOf(listener);
      if (index >= 0) this.#listeners.splice(index, 1);
    };
  }

  /** The request is over for the server (client gone, or shutdown): tell every listener once. */
  end(reason: unknown = new Error('The client closed the request.')): void {
    if (this.#gone) return;
    this.#gone = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    for (const listener of this.#listeners.splice(0)) listener();
  }

  /** Stop listening to the connection (the request was answered). */
  release(): void {
    this.#released = true;
    this.#stopExchange?.();
    this.#listeners.length = 0;
  }

  #hook(): void {
    if (this.#stopExchange !== undefined || this.#deferred) return;
    // Most calls are answered within the turn they started in; listening to the connection costs
    // a 'close' listener added and removed per request. So the listener is attached
    // at the end of the turn, for the requests still running then; a client that left meanwhile
    // is noticed at that point (exchange.gone).
    this.#deferred = true;
    deferHook(this);
  }

  /** Called at the end of the turn (see #hook). */
  attachNow(): void {
    this.#deferred = false;
    if (this.#released || this.#gone || this.#stopExchange !== undefined) return;
    if (this.#exchange.gone) {
      this.end();
      return;
    }
    this.#stopExchange = this.#exchange.onGone(() => this.end());
  }
}

/** setImmediate on Node; a zero timer where there is none (workerd, Deno without Node compatibility). */
const endOfTurn: (run: () => void) => unknown =
  typeof globalThis.setImmediate === 'function' ? globalThis.setImmediate : (run) => setTimeout(run, 0);

/** Signals waiting for the end of the turn to listen to their connection. */
let waiting: GoneSignal[] = [];

function deferHook(signal: GoneSignal): void {
  waiting.push(signal);
  if (waiting.length === 1) endOfTurn(attachWaiting);
}

function attachWaiting(): void {
  const now = waiting;
  waiting = [];
  for (const signal of now) signal.attachNow();
}
