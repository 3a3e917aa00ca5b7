/**
 * An HTTP front that records what a client sends (method, headers, JSON-RPC body) and
 * passes every request on to a server, streaming the answer back (SSE included), so a
 * test can check the request headers a real client put on the wire.
 *
 * @example
 * ```ts
 * const front = await startRecordingFront(listener.url);
 * // … connect a client to front.url …
 * front.requests.filter((r) => r.rpcMethod === 'tools/call');
 * await front.close();
 * ```
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline, Readable } from 'node:stream';

/** One request as the client sent it, with the status the server answered. */
export interface RecordedRequest {
  method: string;
  headers: Record<string, string>;
  /** The JSON-RPC method of a POST body, when it has one. */
  rpcMethod?: string;
  body?: unknown;
  status?: number;
}

/** A running front. */
export interface RecordingFront {
  /** The front's URL: the target's path on the front's own port. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Start a front on a free loopback port that forwards to `target` (a URL). */
export async function startRecordingFront(target: string): Promise<RecordingFront> {
  const upstream = new URL(target);
  const requests: RecordedRequest[] = [];
  // Aborts what is still streaming from the server (a GET or listen stream) when the front closes.
  const closing = new AbortController();
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers[name] = value;
    }
    const entry: RecordedRequest = { method: req.method ?? 'GET', headers };
    if (body.length > 0) {
      try {
        entry.body = JSON.parse(body.toString('utf8'));
        const method = (entry.body as { method?: unknown }).method;
        if (typeof method === 'string') entry.rpcMethod = method;
      } catch {
        // Not JSON: the server judges it.
      }
    }
    requests.push(entry);
    const { host: _host, connection: _connection, 'content-length': _length, ...forwarded } = headers;
    try {
      const answer = await fetch(new URL(req.url ?? '/', upstream), {
        method: entry.method,
        headers: forwarded,
        signal: closing.signal,
        ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
      });
      entry.status = answer.status;
      const out: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (name !== 'content-length' && name !== 'content-encoding' && name !== 'transfer-encoding') out[name] = value;
      });
      res.writeHead(answer.status, out);
      // pipeline, not pipe: a stream the server (or the front's close) cuts must not become an uncaught error.
      if (answer.body)
        pipeline(Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream), res, () => {});
      else res.end();
    } catch (error) {
      if (!res.headersSent) res.writeHead(502);
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = new URL(target);
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString(),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        closing.abort();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
