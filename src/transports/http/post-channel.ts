/**
 * The `Channel` of one POST (spec 2025-03-26+, transports, "Sending Messages
 * to the Server"): the response is plain JSON unless the dispatcher sends
 * something about the request before answering it (progress, logs,
 * elicitation/sampling/roots requests); the first such message upgrades the
 * response to `text/event-stream`, and the answer then ends the stream.
 */
import type { Channel, JsonRpcNotification, JsonRpcRequest, JsonRpcResponse } from '../../engine/channel.js';
import { serializeMessage, serializeMessageParts } from '../../engine/jsonrpc.js';
import { httpStatusOf } from '../../engine/modern/protocol.js';
import type { Exchange, StreamCloser } from './exchange.js';
import { JSON_HEADERS, sseHeaders } from './responses.js';
import type { Session } from './sessions.js';
import { SseStream, type SseStreamOptions } from './sse-stream.js';

const NO_HEADERS: readonly string[] = Object.freeze([]);

/** What every POST channel of a handler shares. */
export interface PostChannelConfig {
  /** Stream options inside a session (with the event store, if any). */
  readonly sessionStreams: SseStreamOptions;
  /** Stream options without a session: no store, since nobody could resume. */
  readonly plainStreams: SseStreamOptions;
}

/**
 * Priming events (an id with empty data) arrived with SEP-1699 in 2025-11-25;
 * older clients may try to parse the empty data as JSON, so they get none.
 */
function primes(version: string): boolean {
  return version >= '2025-11-25';
}

/**
 * The channel of one POST.
 *
 * @example
 * ```ts
 * const channel = new PostChannel(config, exchange, session, accepts.sse);
 * const answer = await dispatcher.handle(message, { peer, channel, info });
 * channel.finish(answer);
 * ```
 */
export class PostChannel implements Channel, StreamCloser {
  readonly #config: PostChannelConfig;
  readonly #exchange: Exchange;
  readonly #session: Session | undefined;
  /** The client accepts `text/event-stream` on this POST. */
  readonly #canStream: boolean;
  #stream: SseStream | undefined;
  #answered = false;

  constructor(config: PostChannelConfig, exchange: Exchange, session: Session | undefined, canStream: boolean) {
    this.#config = config;
    this.#exchange = exchange;
    this.#session = session;
    this.#canStream = canStream;
  }

  /**
   * Whether a message sent now can reach the client: before the answer, while
   * the connection lasts or (with an event store) while the client could
   * resume the stream. When false, the engine falls back to the session's GET
   * stream.
   */
  get open(): boolean {
    if (this.#answered) return false;
    const stream = this.#stream;
    if (stream !== undefined) return stream.connected || stream.resumable;
    return this.#canStream && !this.#exchange.gone;
  }

  send(message: JsonRpcNotification | JsonRpcRequest): void {
    if (!this.open) return;
    (this.#stream ?? this.#upgrade()).send(serializeMessage(message));
  }

  /** SEP-1699: end the connection now, keep the stream; see `HttpRequestInfo.closeStream`. */
  closeStream(): boolean {
    const session = this.#session;
    if (this.#answered || session === undefined || !this.#canStream || this.#exchange.gone) return false;
    if (this.#config.sessionStreams.store === undefined) return false;
    if (this.#stream === undefined && !primes(session.peer.protocolVersion)) return false;
    return (this.#stream ?? this.#upgrade()).disconnect();
  }

  /**
   * Deliver the dispatcher's answer: as the last event of the stream, or as
   * the JSON response (202 with no body when there is nothing to answer;
   * 400 when the answer is an error about the whole message, without id).
   * `newSessionId` is set when this POST created the session (initialize).
   */
  finish(answer: JsonRpcResponse | JsonRpcResponse[] | undefined, newSessionId?: string): void {
    const stream = this.#stream;
    if (stream !== undefined) {
      if (answer !== undefined) stream.send(serializeMessage(answer));
      this.#answered = true;
      stream.end();
      return;
    }
    this.#answered = true;
    if (answer === undefined) {
      this.#exchange.reply(202, newSessionId === undefined ? NO_HEADERS : ['mcp-session-id', newSessionId], undefined);
      return;
    }
    // An error without an id is about the whole body (not JSON-RPC at all): a client error.
    const whole = !Array.isArray(answer) && 'error' in answer && (answer.id === undefined || answer.id === null);
    const headers = newSessionId === undefined ? JSON_HEADERS : JSON_HEADERS.concat('mcp-session-id', newSessionId);
    // 2026-07-28 refusals carry their status (400 header/envelope/version, 404 unknown method).
    this.#exchange.reply(whole ? 400 : httpStatusOf(answer), headers, serializeMessageParts(answer));
  }

  #upgrade(): SseStream {
    const session = this.#session;
    if (session === undefined) {
      const stream = new SseStream('post', this.#config.plainStreams);
      stream.attach(this.#exchange.stream(sseHeaders(undefined)));
      this.#stream = stream;
      return stream;
    }
    const id = session.nextStreamId();
    const stream = new SseStream(id, this.#config.sessionStreams);
    stream.attach(this.#exchange.stream(sseHeaders(session.id)));
    // Known to the session until it ends, so a client can resume it with Last-Event-ID.
    session.streams.set(id, stream);
    stream.onEnd = () => session.streams.delete(id);
    if (primes(session.peer.protocolVersion)) stream.prime();
    this.#stream = stream;
    return stream;
  }
}
