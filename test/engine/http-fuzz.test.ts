/**
 * Property test: arbitrary and malformed requests thrown at the
 * HTTP handler over a real socket always get a well-formed HTTP answer (a
 * known status; a JSON body that is a JSON-RPC message when it says JSON),
 * never crash the server, and the server still serves a valid client after.
 */
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { createHttpHandler } from '../../src/transports/http/create-http-handler.js';
import { silentLogger } from '../../src/util/logger.js';
import { buildTestServer } from '../support/engine-server.js';
import { closeAll, INITIALIZE, openSession, post, startHttp, track } from '../support/http-support.js';

afterEach(closeAll);

interface Answer {
  status: number;
  contentType: string | undefined;
  body: string;
}

/** One raw request; an SSE answer is read no further than its head. */
function send(
  url: string,
  spec: { method: string; path: string; headers: Record<string, string>; body: Uint8Array | string | undefined },
): Promise<Answer> {
  const target = new URL(url);
  // An explicit length: node's client sends GET/DELETE bodies unframed otherwise, which breaks keep-alive.
  const headers =
    spec.body === undefined
      ? spec.headers
      : { ...spec.headers, 'content-length': String(Buffer.byteLength(spec.body)) };
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: target.hostname, port: target.port, method: spec.method, path: spec.path, headers },
      (res) => {
        const contentType = res.headers['content-type'];
        if (contentType === 'text/event-stream') {
          res.destroy();
          resolve({ status: res.statusCode ?? 0, contentType, body: '' });
          return;
        }
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(spec.body);
  });
}

const STATUSES = new Set([200, 202, 204, 400, 403, 404, 405, 406, 409, 413, 415, 429, 503]);

function assertWellFormed(answer: Answer): void {
  expect(STATUSES, `status ${answer.status}`).toContain(answer.status);
  if (answer.contentType === 'application/json') {
    const parsed = JSON.parse(answer.body) as unknown;
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
      expect(message).toMatchObject({ jsonrpc: '2.0' });
      expect('result' in message || 'error' in message).toBe(true);
    }
  } else if (answer.contentType !== 'text/event-stream') {
    // Everything else is a bodiless answer (202, 204, DELETE's 200).
    expect(answer.body).toBe('');
  }
}

const printable = fc.string({
  unit: fc.constantFrom(...' !"#$%&\'()*+,-./0123456789:;<=>?@ABCXYZabcxyz[]{}_~'.split('')),
  maxLength: 40,
});
const oneOf = <T>(...values: T[]) => fc.constantFrom(...values);

const headerArb = (session: string) =>
  fc.record(
    {
      'content-type': fc.oneof(oneOf('application/json', 'application/json; charset=utf-8', 'text/plain'), printable),
      accept: fc.oneof(
        oneOf('application/json, text/event-stream', 'text/event-stream', 'application/json', '*/*'),
        printable,
      ),
      'mcp-session-id': fc.oneof(oneOf(session), printable),
      'mcp-protocol-version': fc.oneof(oneOf('2025-11-25', '2025-06-18', '2025-03-26', '2026-07-28'), printable),
      origin: fc.oneof(oneOf('http://localhost:1234', 'https://evil.example', 'null'), printable),
      'last-event-id': printable,
      host: oneOf('localhost', '127.0.0.1:9', 'evil.example'),
    },
    { requiredKeys: [] },
  );

const messageArb = fc.oneof(
  fc.record(
    {
      jsonrpc: fc.oneof(oneOf('2.0'), fc.jsonValue()),
      id: fc.oneof(fc.integer(), fc.string(), fc.constant(null), fc.jsonValue()),
      method: fc.oneof(
        oneOf('initialize', 'ping', 'tools/list', 'tools/call', 'resources/read', 'logging/setLevel', 'nope'),
        fc.string(),
      ),
      params: fc.oneof(
        fc.record(
          { name: oneOf('echo', 'add', 'count_up', 'fail', 'nope'), arguments: fc.jsonValue() },
          { requiredKeys: [] },
        ),
        fc.jsonValue(),
      ),
      result: fc.jsonValue(),
      error: fc.jsonValue(),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
);

const bodyArb = fc.oneof(
  messageArb.map((m) => JSON.stringify(m)),
  fc.array(messageArb, { maxLength: 5 }).map((m) => JSON.stringify(m)),
  fc.string({ maxLength: 200 }),
  fc.uint8Array({ maxLength: 200 }),
);

describe.each(['stateful', 'stateless'] as const)('%s handler under arbitrary input', (mode) => {
  test('every request gets a well-formed answer and the server keeps serving', async () => {
    const { url } = await startHttp({ sessions: mode, bodyLimit: 600 });
    const session = mode === 'stateful' ? await openSession(url) : 'none';
    await fc.assert(
      fc.asyncProperty(
        oneOf('POST', 'POST', 'POST', 'GET', 'DELETE', 'PUT', 'OPTIONS', 'PATCH'),
        oneOf('/mcp', '/mcp?x=1', '/other', '/mcp/'),
        headerArb(session),
        fc.option(bodyArb, { nil: undefined }),
        async (method, path, headers, body) => {
          const answer = await send(url, { method, path, headers, body: method === 'GET' ? undefined : body });
          assertWellFormed(answer);
        },
      ),
      { numRuns: 250 },
    );
    // Still alive and correct for a well-behaved client.
    const fresh = mode === 'stateful' ? await openSession(url) : undefined;
    const response = await post(
      url,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'alive' } } },
      fresh === undefined ? {} : { 'mcp-session-id': fresh },
    );
    expect(await response.json()).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: 'alive' }] },
    });
    expect((await post(url, INITIALIZE)).status).toBe(200);
  });
});

test('the fetch handler answers arbitrary Requests with well-formed Responses and keeps serving', async () => {
  const { server } = buildTestServer({ logger: silentLogger });
  track({ close: () => server.close() });
  const handler = createHttpHandler({ dispatcher: server.dispatcher, env: {}, bodyLimit: 600 });
  track(handler);
  await fc.assert(
    fc.asyncProperty(
      oneOf('POST', 'POST', 'GET', 'DELETE', 'PUT', 'OPTIONS'),
      oneOf('http://localhost/mcp', 'http://127.0.0.1:9/mcp?x', 'http://evil.example/mcp', 'http://localhost/else'),
      headerArb('none'),
      fc.option(bodyArb, { nil: undefined }),
      async (method, url, headers, body) => {
        const { host: _host, ...rest } = headers;
        let request: Request;
        try {
          request = new Request(url, { method, headers: rest, body: method === 'GET' ? undefined : body });
        } catch {
          return; // not a Request fetch lets anyone build
        }
        const response = await handler.fetchHandler(request);
        const contentType = response.headers.get('content-type') ?? undefined;
        const text = contentType === 'text/event-stream' ? '' : await response.text();
        if (contentType === 'text/event-stream') await response.body?.cancel();
        assertWellFormed({ status: response.status, contentType, body: text });
      },
    ),
    { numRuns: 250 },
  );
  const alive = await handler.fetchHandler(
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(INITIALIZE),
    }),
  );
  expect(alive.status).toBe(200);
  expect(await alive.json()).toMatchObject({ id: 'init', result: { protocolVersion: '2025-11-25' } });
});
