/**
 * The node:http side of an {@link Exchange}: reads the body into one Buffer
 * with a limit, answers with a single `res.end`, and streams SSE with
 * `res.write`. Nothing here allocates more than the request needs.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { SerializedMessage } from '../../engine/jsonrpc.js';
import type { ToolSource } from '../../pipeline/types.js';
import type { AuthInfo } from '../../tool/types.js';
import {
  ABORTED,
  type Body,
  type Exchange,
  type HttpRequestInfo,
  ParsedBody,
  type StreamCloser,
  TOO_LARGE,
} from './exchange.js';
import { JSON_HEADERS } from './responses.js';
import type { SseConnection } from './sse-stream.js';

/**
 * An SSE client that stops reading would make the server buffer without end:
 * past this many unsent bytes the connection is dropped (it can resume).
 */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/** The body being read, kept on the request so the listeners below need no closure. */
interface BodyState {
  chunks: Buffer[];
  size: number;
  limit: number;
  done: boolean;
  resolve: (body: Body) => void;
}

const BODY = Symbol('candor.body');
type BodyCarrier = IncomingMessage & { [BODY]?: BodyState };

function settleBody(req: BodyCarrier, body: Body): void {
  const state = req[BODY];
  if (state === undefined || state.done) return;
  state.done = true;
  // The listeners stay (they find no state and return): removing four listeners per request cost
  // more than the request's last events reaching them.
  req[BODY] = undefined;
  state.resolve(body);
}

function onBodyData(this: BodyCarrier, chunk: Buffer): void {
  const state = this[BODY];
  if (state === undefined) return;
  state.size += chunk.length;
  if (state.size > state.limit) {
    settleBody(this, TOO_LARGE);
    // Let the rest drain unread, so the client can finish sending and read the 413.
    this.resume();
    return;
  }
  state.chunks.push(chunk);
}

function onBodyEnd(this: BodyCarrier): void {
  const state = this[BODY];
  if (state === undefined) return;
  const { chunks, size } = state;
  settleBody(this, chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8'));
}

function onBodyAbort(this: BodyCarrier): void {
  settleBody(this, ABORTED);
}

/** `ctx.http` for node:http requests; fields are read from the request when asked for. */
class NodeHttpInfo implements HttpRequestInfo {
  readonly #exchange: NodeExchange;

  constructor(exchange: NodeExchange) {
    this.#exchange = exchange;
  }

  get method(): string {
    return this.#exchange.method;
  }

  /** The absolute URL, from the Host header and the request target. */
  get url(): string {
    const req = this.#exchange.req;
    const scheme = (req.socket as { encrypted?: boolean } | undefined)?.encrypted ? 'https' : 'http';
    return `${scheme}://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`;
  }

  get headers(): Readonly<IncomingHttpHeaders> {
    return this.#exchange.req.headers;
  }

  get remoteAddress(): string | undefined {
    return this.#exchange.req.socket?.remoteAddress;
  }

  closeStream(): boolean {
    return this.#exchange.closer?.closeStream() ?? false;
  }

  /** Plain data for loggers (the getters live on the prototype). */
  toJSON(): { method: string; url: string; headers: IncomingHttpHeaders; remoteAddress?: string } {
    return { method: this.method, url: this.url, headers: this.headers, remoteAddress: this.remoteAddress };
  }
}

/** An SSE response on node:http. */
class NodeSseConnection implements SseConnection {
  readonly #res: ServerResponse;

  constructor(res: ServerResponse) {
    this.#res = res;
  }

  get closed(): boolean {
    return this.#res.writableEnded || this.#res.destroyed;
  }

  write(chunk: string): void {
    const res = this.#res;
    if (res.writableEnded || res.destroyed) return;
    res.write(chunk);
    if (res.writableLength > MAX_BUFFERED_BYTES) res.destroy();
  }

  end(): void {
    if (!this.closed) this.#res.end();
  }

  onClose(listener: () => void): void {
    this.#res.once('close', listener);
  }
}

/**
 * A node:http request/response pair.
 *
 * @example
 * ```ts
 * http.createServer((req, res) => transport.handle(new NodeExchange(req, res)));
 * ```
 */
export class NodeExchange implements Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  extraHeaders: readonly string[] | undefined = undefined;
  closer: StreamCloser | undefined = undefined;
  #http: NodeHttpInfo | undefined;
  #auth: AuthInfo | undefined;
  tools: ToolSource | undefined = undefined;

  constructor(req: IncomingMessage, res: ServerResponse) {
    this.req = req;
    this.res = res;
  }

  get method(): string {
    return this.req.method ?? 'GET';
  }

  header(name: string): string | undefined {
    // node:http builds req.headers for every HTTP/1.1 request anyway (its Host check reads it,
    // requireHostHeader), so a lookup there is the cheapest read; scanning rawHeaders was extra work.
    // Repeated headers come joined with ", " as node joins them.
    const value = this.req.headers[name];
    return typeof value === 'string' || value === undefined ? value : value.join(', ');
  }

  get localAddress(): string | undefined {
    return this.req.socket?.localAddress;
  }

  get http(): HttpRequestInfo {
    this.#http ??= new NodeHttpInfo(this);
    return this.#http;
  }

  get auth(): AuthInfo | undefined {
    // The convention of the MCP SDK's bearer-auth middleware (and most Express auth middleware).
    return this.#auth ?? (this.req as { auth?: AuthInfo }).auth;
  }

  set auth(value: AuthInfo | undefined) {
    this.#auth = value;
  }

  get gone(): boolean {
    return this.res.destroyed || this.req.socket?.destroyed === true;
  }

  onGone(listener: () => void): () => void {
    const res = this.res;
    // 'close' also follows a complete response; only a close before the end is the client leaving.
    const onClose = () => {
      if (!res.writableFinished) listener();
    };
    res.once('close', onClose);
    return () => res.off('close', onClose);
  }

  get responded(): boolean {
    return this.res.headersSent;
  }

  readBody(limit: number): Promise<Body> {
    const req = this.req;
    const parsed = (req as { body?: unknown }).body;
    // A framework (express.json()) already read and parsed the stream.
    if (parsed !== undefined && req.readableEnded) {
      if (typeof parsed === 'string') return Promise.resolve(parsed);
      if (Buffer.isBuffer(parsed)) return Promise.resolve(parsed.toString('utf8'));
      return Promise.resolve(new ParsedBody(parsed));
    }
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > limit) return Promise.resolve(TOO_LARGE);
    // Module-level listeners and one state object: no closures per request (this is the hot path).
    const state: BodyState = { chunks: [], size: 0, limit, done: false, resolve: undefined! };
    const body = new Promise<Body>((resolve) => {
      state.resolve = resolve;
    });
    (req as BodyCarrier)[BODY] = state;
    req.on('data', onBodyData);
    req.on('end', onBodyEnd);
    req.on('error', onBodyAbort);
    req.on('close', onBodyAbort);
    return body;
  }

  reply(status: number, headers: readonly string[], body: SerializedMessage | undefined): void {
    const res = this.res;
    if (res.headersSent || res.destroyed) return;
    const all = this.extraHeaders === undefined ? (headers as string[]) : headers.concat(this.extraHeaders);
    if (body === undefined) {
      res.writeHead(status, all);
      res.end();
      return;
    }
    if (typeof body !== 'string') {
      // A large cached result: its bytes go out as they are, around the envelope's text.
      const [prefix, bytes, suffix] = body;
      const length = Buffer.byteLength(prefix) + bytes.byteLength + Buffer.byteLength(suffix);
      res.writeHead(status, all.concat('content-length', String(length)));
      res.write(prefix);
      res.write(bytes);
      res.end(suffix);
      return;
    }
    // An explicit length lets node skip chunked encoding: one write for head and body.
    const length = String(Buffer.byteLength(body));
    res.writeHead(
      status,
      all === JSON_HEADERS
        ? ['content-type', 'application/json', 'content-length', length]
        : all.concat('content-length', length),
    );
    res.end(body);
  }

  stream(headers: readonly string[]): SseConnection {
    const res = this.res;
    const all = this.extraHeaders === undefined ? (headers as string[]) : headers.concat(this.extraHeaders);
    res.writeHead(200, all);
    // Send the head now: the client learns it is a stream before the first event.
    res.flushHeaders();
    return new NodeSseConnection(res);
  }
}
