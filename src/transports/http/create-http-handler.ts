/**
 * `createHttpHandler`: candor's Streamable HTTP endpoint as a node:http
 * handler (also usable as Express/Connect middleware) and as a fetch-style
 * `(Request) => Promise<Response>` handler, both over one core, so sessions
 * and rules are shared.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '../../tool/types.js';
import type { HttpAuthorizer, WellKnownDocument } from './authorizer.js';
import { FetchExchange } from './fetch-exchange.js';
import type { HttpCloseOptions, HttpHandlerOptions } from './handler-options.js';
import { HttpTransport } from './http-transport.js';
import { NodeExchange } from './node-exchange.js';
import { errorBody, JSON_HEADERS, TRANSPORT_ERROR } from './responses.js';

/** Extra facts for one fetch request. */
export interface FetchHandlerExtra {
  /** Authentication your middleware established (becomes `ctx.auth`). */
  auth?: AuthInfo;
}

/** A Streamable HTTP endpoint. */
export interface HttpHandler {
  /**
   * node:http handler: `http.createServer(handler.nodeHandler)`, or Express
   * `app.all('/mcp', handler.nodeHandler)`. Requests to other paths go to
   * `next` when given, else get 404. Never rejects.
   */
  nodeHandler(req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): Promise<void>;
  /** Fetch-style handler (Hono, Bun, Deno, workers). Never rejects. */
  fetchHandler(request: Request, extra?: FetchHandlerExtra): Promise<Response>;
  /** Stop taking requests, drain those in flight, end sessions and streams. */
  close(options?: HttpCloseOptions): Promise<void>;
  /** Live sessions (stateful mode). */
  readonly sessionCount: number;
}

/**
 * Create the Streamable HTTP endpoint for a dispatcher.
 *
 * @example
 * ```ts
 * const handler = createHttpHandler({ dispatcher: server.dispatcher });
 * http.createServer(handler.nodeHandler).listen(3000, '127.0.0.1');
 * // or, with Hono: app.all('/mcp', (c) => handler.fetchHandler(c.req.raw));
 * ```
 */
export function createHttpHandler(options: HttpHandlerOptions): HttpHandler {
  const transport = new HttpTransport(options);
  const path = options.path ?? '/mcp';
  const unreadable = errorBody(TRANSPORT_ERROR, 'Bad request: the body could not be read.');
  const notFound = errorBody(TRANSPORT_ERROR, `Not found: the MCP endpoint is ${path === false ? '' : path}.`);

  const { authorizer } = options;

  function nodeHandler(req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): Promise<void> {
    if (path !== false || authorizer !== undefined) {
      // Express keeps the mounted path in originalUrl; plain node:http has only url.
      const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
      const query = url.indexOf('?');
      const requested = query < 0 ? url : url.slice(0, query);
      const document = wellKnown(authorizer, req.method, requested);
      if (document !== undefined) {
        res.writeHead(document.status, document.headers as string[]);
        res.end(document.body);
        return Promise.resolve();
      }
      if (path !== false && requested !== path) {
        if (next !== undefined) next();
        else {
          res.writeHead(404, JSON_HEADERS as string[]);
          res.end(notFound);
        }
        return Promise.resolve();
      }
    }
    return transport.handle(new NodeExchange(req, res));
  }

  function fetchHandler(request: Request, extra?: FetchHandlerExtra): Promise<Response> {
    if (authorizer !== undefined) {
      const document = wellKnown(authorizer, request.method, pathOf(request.url));
      if (document !== undefined) return Promise.resolve(documentResponse(document));
    }
    if (path !== false && pathOf(request.url) !== path) {
      return Promise.resolve(new Response(notFound, { status: 404, headers: { 'content-type': 'application/json' } }));
    }
    const exchange = new FetchExchange(request, extra?.auth);
    void transport.handle(exchange).then(() => {
      // Only a body that could not be read leaves nothing said; a fetch caller still needs a Response.
      if (!exchange.responded) exchange.reply(400, JSON_HEADERS, unreadable);
    });
    return exchange.response;
  }

  return {
    nodeHandler,
    fetchHandler,
    close: (closeOptions) => transport.close(closeOptions),
    get sessionCount() {
      return transport.sessionCount;
    },
  };
}

/** The authorizer's document for a GET of a `/.well-known/` path (RFC 9728 metadata), if any. */
function wellKnown(
  authorizer: HttpAuthorizer | undefined,
  method: string | undefined,
  path: string,
): WellKnownDocument | undefined {
  if (authorizer === undefined || (method !== 'GET' && method !== 'HEAD') || !path.startsWith('/.well-known/')) {
    return undefined;
  }
  return authorizer.wellKnown(path);
}

function documentResponse(document: WellKnownDocument): Response {
  const headers = new Headers();
  for (let i = 0; i < document.headers.length; i += 2) headers.append(document.headers[i]!, document.headers[i + 1]!);
  return new Response(document.body, { status: document.status, headers });
}

/** The path of an absolute URL without parsing all of it (this runs on every request). */
function pathOf(url: string): string {
  const scheme = url.indexOf('://');
  const start = url.indexOf('/', scheme < 0 ? 0 : scheme + 3);
  if (start < 0) return '/';
  let end = url.length;
  const query = url.indexOf('?', start);
  if (query >= 0) end = query;
  const hash = url.indexOf('#', start);
  if (hash >= 0 && hash < end) end = hash;
  return url.slice(start, end);
}
