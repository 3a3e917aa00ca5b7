/**
 * The fetch-API side of an {@link Exchange}, for runtimes and frameworks that
 * speak `(Request) => Promise<Response>` (Hono, Bun, Deno, workers). SSE goes
 * out through a `ReadableStream`. Only web-standard globals are used.
 */

import type { SerializedMessage } from '../../engine/jsonrpc.js';
import type { ToolSource } from '../../pipeline/types.js';
import type { AuthInfo } from '../../tool/types.js';
import { ABORTED, type Body, type Exchange, type HttpRequestInfo, type StreamCloser, TOO_LARGE } from './exchange.js';
import type { SseConnection } from './sse-stream.js';

const encoder = new TextEncoder();

/** `ctx.http` for fetch requests. */
class FetchHttpInfo implements HttpRequestInfo {
  readonly #exchange: FetchExchange;
  #headers: Record<string, string> | undefined;

  constructor(exchange: FetchExchange) {
    this.#exchange = exchange;
  }

  get method(): string {
    return this.#exchange.request.method;
  }

  get url(): string {
    return this.#exchange.request.url;
  }

  get headers(): Readonly<Record<string, string>> {
    if (this.#headers === undefined) {
      const headers: Record<string, string> = {};
      this.#exchange.request.headers.forEach((value, name) => {
        headers[name] = value;
      });
      this.#headers = headers;
    }
    return this.#headers;
  }

  get remoteAddress(): string | undefined {
    return undefined;
  }

  closeStream(): boolean {
    return this.#exchange.closer?.closeStream() ?? false;
  }

  toJSON(): { method: string; url: string; headers: Record<string, string> } {
    return { method: this.method, url: this.url, headers: { ...this.headers } };
  }
}

/** An SSE response body as a ReadableStream. */
class StreamSseConnection implements SseConnection {
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #closed = false;
  #listeners: Array<() => void> = [];
  readonly readable: ReadableStream<Uint8Array>;

  constructor() {
    this.readable = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => this.#close(),
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  write(chunk: string): void {
    if (this.#closed) return;
    try {
      this.#controller?.enqueue(encoder.encode(chunk));
    } catch {
      this.#close();
    }
  }

  end(): void {
    if (this.#closed) return;
    try {
      this.#controller?.close();
    } catch {
      // already closed by the consumer
    }
    this.#close();
  }

  onClose(listener: () => void): void {
    if (this.#closed) listener();
    else this.#listeners.push(listener);
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const listener of this.#listeners.splice(0)) listener();
  }
}

function headerPairs(headers: readonly string[], extra: readonly string[] | undefined): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < headers.length; i += 2) pairs.push([headers[i]!, headers[i + 1]!]);
  if (extra !== undefined) for (let i = 0; i + 1 < extra.length; i += 2) pairs.push([extra[i]!, extra[i + 1]!]);
  return pairs;
}

/**
 * A fetch `Request` and the `Response` it will get (`response` resolves as
 * soon as the core answers or starts a stream).
 *
 * @example
 * ```ts
 * const exchange = new FetchExchange(request, undefined);
 * void transport.handle(exchange);
 * return exchange.response;
 * ```
 */
export class FetchExchange implements Exchange {
  readonly request: Request;
  auth: AuthInfo | undefined;
  tools: ToolSource | undefined = undefined;
  readonly response: Promise<Response>;
  extraHeaders: readonly string[] | undefined = undefined;
  closer: StreamCloser | undefined = undefined;
  #resolve!: (response: Response) => void;
  #responded = false;
  #http: FetchHttpInfo | undefined;

  constructor(request: Request, auth: AuthInfo | undefined) {
    this.request = request;
    this.auth = auth;
    this.response = new Promise((resolve) => {
      this.#resolve = resolve;
    });
  }

  get method(): string {
    return this.request.method;
  }

  header(name: string): string | undefined {
    const value = this.request.headers.get(name);
    if (value !== null) return value;
    // A Request made in code has no Host header (fetch forbids setting it); servers derive
    // request.url from Host, so the URL's authority stands for it.
    return name === 'host' ? authorityOf(this.request.url) : undefined;
  }

  get localAddress(): string | undefined {
    return undefined;
  }

  get http(): HttpRequestInfo {
    this.#http ??= new FetchHttpInfo(this);
    return this.#http;
  }

  get gone(): boolean {
    return this.request.signal?.aborted === true;
  }

  onGone(listener: () => void): () => void {
    const signal = this.request.signal;
    if (signal === undefined || signal === null) return () => {};
    signal.addEventListener('abort', listener, { once: true });
    return () => signal.removeEventListener('abort', listener);
  }

  get responded(): boolean {
    return this.#responded;
  }

  async readBody(limit: number): Promise<Body> {
    const declared = this.request.headers.get('content-length');
    if (declared !== null && Number(declared) > limit) return TOO_LARGE;
    const body = this.request.body;
    if (body === null) return '';
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limit) {
          void reader.cancel().catch(() => {});
          return TOO_LARGE;
        }
        chunks.push(value);
      }
    } catch {
      return ABORTED;
    }
    const whole = chunks.length === 1 ? chunks[0]! : concat(chunks, size);
    return new TextDecoder().decode(whole);
  }

  reply(status: number, headers: readonly string[], body: SerializedMessage | undefined): void {
    if (this.#responded) return;
    this.#responded = true;
    // A large cached result arrives as parts around its bytes: a Blob joins them without re-encoding.
    const content = body === undefined ? null : typeof body === 'string' ? body : new Blob([...body] as BlobPart[]);
    this.#resolve(new Response(content, { status, headers: headerPairs(headers, this.extraHeaders) }));
  }

  stream(headers: readonly string[]): SseConnection {
    const connection = new StreamSseConnection();
    this.#responded = true;
    this.#resolve(new Response(connection.readable, { status: 200, headers: headerPairs(headers, this.extraHeaders) }));
    return connection;
  }
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const whole = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return whole;
}

function authorityOf(url: string): string | undefined {
  const start = url.indexOf('://');
  if (start < 0) return undefined;
  const rest = url.slice(start + 3);
  const end = rest.search(/[/?#]/);
  const authority = end < 0 ? rest : rest.slice(0, end);
  const at = authority.lastIndexOf('@');
  return at < 0 ? authority : authority.slice(at + 1);
}
