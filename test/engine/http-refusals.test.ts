/**
 * Streamable HTTP refusals over a real socket with plain fetch: every status
 * code the transport answers with, and the JSON-RPC error body it carries.
 * (Spec 2025-11-25, transports: security and bad input.)
 */
import { request as rawRequest } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { closeAll, INITIALIZE, openSession, POST_HEADERS, post, startHttp, waitFor } from '../support/http-support.js';

afterEach(closeAll);

const call = (id: number | string, name = 'echo', args: object = { text: 'hi' }) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** A request with headers fetch will not let us set (Host): node:http directly. */
function rawPost(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = rawRequest(
      { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function errorOf(response: Response): Promise<{ code: number; message: string }> {
  expect(response.headers.get('content-type')).toBe('application/json');
  const body = (await response.json()) as { jsonrpc: string; id?: unknown; error: { code: number; message: string } };
  expect(body.jsonrpc).toBe('2.0');
  expect(body).not.toHaveProperty('result');
  return body.error;
}

describe('Origin and Host (DNS rebinding protection)', () => {
  test('a foreign Origin is refused with 403 on a server bound to 127.0.0.1', async () => {
    const { url } = await startHttp();
    const response = await post(url, INITIALIZE, { origin: 'https://evil.example' });
    expect(response.status).toBe(403);
    expect(await errorOf(response)).toMatchObject({ code: -32000, message: expect.stringContaining('evil.example') });
  });

  test('localhost origins on any port, and requests without Origin, are accepted', async () => {
    const { url } = await startHttp();
    for (const origin of ['http://localhost:5173', 'https://127.0.0.1', 'http://[::1]:8080', undefined]) {
      const response = await post(url, INITIALIZE, origin === undefined ? {} : { origin });
      expect(response.status, String(origin)).toBe(200);
      await response.text();
    }
  });

  test('an allowed cross-origin request gets CORS headers that expose the session id', async () => {
    const { url } = await startHttp();
    const response = await post(url, INITIALIZE, { origin: 'http://localhost:5173' });
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('access-control-expose-headers')).toContain('mcp-session-id');
    await response.text();
    const preflight = await fetch(url, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('mcp-session-id');
  });

  test('with allowedOrigins only those origins pass', async () => {
    const { url } = await startHttp({ allowedOrigins: ['https://app.example.com'] });
    expect((await post(url, INITIALIZE, { origin: 'https://app.example.com' })).status).toBe(200);
    const refused = await post(url, INITIALIZE, { origin: 'http://localhost:3000' });
    expect(refused.status).toBe(403);
    await refused.text();
  });

  test('a foreign Host header is refused with 403 when bound to loopback; localhost names pass', async () => {
    const { url } = await startHttp();
    const body = JSON.stringify(INITIALIZE);
    const evil = await rawPost(url, { ...POST_HEADERS, host: 'evil.example.com' }, body);
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body)).toMatchObject({ error: { code: -32000, message: expect.stringContaining('Host') } });
    const port = new URL(url).port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
      expect((await rawPost(url, { ...POST_HEADERS, host }, body)).status, host).toBe(200);
    }
  });

  test('allowedHosts replaces the localhost rule', async () => {
    const { url } = await startHttp({ allowedHosts: ['mcp.example.com'] });
    const body = JSON.stringify(INITIALIZE);
    expect((await rawPost(url, { ...POST_HEADERS, host: 'mcp.example.com:8443' }, body)).status).toBe(200);
    expect((await rawPost(url, { ...POST_HEADERS, host: `localhost:${new URL(url).port}` }, body)).status).toBe(403);
  });
});

describe('bodies, media types and methods', () => {
  test('a body over the limit is refused with 413 (declared length and chunked)', async () => {
    const { url } = await startHttp({ bodyLimit: 1024 });
    const big = JSON.stringify({ ...INITIALIZE, params: { ...INITIALIZE.params, padding: 'x'.repeat(4096) } });
    const declared = await post(url, big);
    expect(declared.status).toBe(413);
    expect((await errorOf(declared)).message).toContain('1024');
    const chunked = await fetch(url, {
      method: 'POST',
      headers: POST_HEADERS,
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    await chunked.text();
  });

  test('the default body limit is 4 MiB', async () => {
    const { url } = await startHttp();
    const response = await post(url, 'x'.repeat(4 * 1024 * 1024 + 1));
    expect(response.status).toBe(413);
    await response.text();
  });

  test('a wrong Content-Type is refused with 415', async () => {
    const { url } = await startHttp();
    const response = await post(url, INITIALIZE, { 'content-type': 'text/plain' });
    expect(response.status).toBe(415);
    expect((await errorOf(response)).code).toBe(-32000);
  });

  test('malformed JSON is a JSON-RPC parse error (-32700) with HTTP 400', async () => {
    const { url } = await startHttp();
    const response = await post(url, '{"jsonrpc": "2.0", "id": 1,');
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe(-32700);
  });

  test('JSON that is not a JSON-RPC message is -32600 with HTTP 400', async () => {
    const { url } = await startHttp({ sessions: 'stateless' });
    const response = await post(url, { hello: 'world' });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).code).toBe(-32600);
  });

  test('a batch over maxBatch is refused with 400 before anything runs', async () => {
    const { url } = await startHttp({ sessions: 'stateless', maxBatch: 2 });
    const response = await post(url, [call(1), call(2), call(3)]);
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: -32600, message: expect.stringContaining('limit is 2') });
  });

  test('an Accept header that allows neither JSON nor SSE is refused with 406', async () => {
    const { url } = await startHttp();
    const response = await post(url, INITIALIZE, { accept: 'text/html' });
    expect(response.status).toBe(406);
    await response.text();
  });

  test('a client that accepts only JSON still gets answers (never upgraded to SSE)', async () => {
    const { url } = await startHttp({ sessions: 'stateless' });
    const response = await post(
      url,
      {
        ...call(1, 'count_up', { n: 3 }),
        params: { name: 'count_up', arguments: { n: 3 }, _meta: { progressToken: 1 } },
      },
      { accept: 'application/json' },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toMatchObject({ id: 1, result: { content: [{ text: 'counted to 3' }] } });
  });

  test('other HTTP methods get 405 with an Allow header', async () => {
    const { url } = await startHttp();
    const response = await fetch(url, { method: 'PUT', body: '{}' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST, DELETE, OPTIONS');
    await response.text();
  });

  test('another path gets 404', async () => {
    const { url } = await startHttp();
    const response = await post(url.replace('/mcp', '/other'), INITIALIZE);
    expect(response.status).toBe(404);
    await response.text();
  });

  test('notifications and responses alone are accepted with 202 and no body', async () => {
    const { url } = await startHttp();
    const session = await openSession(url);
    const response = await post(
      url,
      { jsonrpc: '2.0', method: 'notifications/whatever' },
      { 'mcp-session-id': session },
    );
    expect(response.status).toBe(202);
    expect(await response.text()).toBe('');
    const answer = await post(url, { jsonrpc: '2.0', id: 'nobody-asked', result: {} }, { 'mcp-session-id': session });
    expect(answer.status).toBe(202);
  });
});

describe('sessions and protocol version', () => {
  test('initialize mints a visible-ASCII session id; requests without it get 400', async () => {
    const { url } = await startHttp();
    const session = await openSession(url);
    expect(session).toMatch(/^[\x21-\x7e]{16,}$/);
    const missing = await post(url, call(1));
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).message).toContain('Mcp-Session-Id');
  });

  test('an unknown session id gets 404 with -32001', async () => {
    const { url } = await startHttp();
    const response = await post(url, call(1), { 'mcp-session-id': 'no-such-session' });
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe(-32001);
  });

  test('an unsupported MCP-Protocol-Version is refused with 400; a missing one is accepted', async () => {
    const { url } = await startHttp();
    const session = await openSession(url);
    const bad = await post(url, call(1), { 'mcp-session-id': session, 'mcp-protocol-version': '1999-01-01' });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toContain('2025-11-25');
    const good = await post(url, call(2), { 'mcp-session-id': session });
    expect(good.status).toBe(200);
    expect(await good.json()).toMatchObject({ id: 2, result: { content: [{ text: 'hi' }] } });
  });

  test('DELETE ends the session; afterwards it is 404', async () => {
    const { url, listener } = await startHttp();
    const session = await openSession(url);
    expect(listener.handler.sessionCount).toBe(1);
    const deleted = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session } });
    expect(deleted.status).toBe(200);
    expect(listener.handler.sessionCount).toBe(0);
    const after = await post(url, call(1), { 'mcp-session-id': session });
    expect(after.status).toBe(404);
    await after.text();
  });

  test('a failed initialize creates no session', async () => {
    const { url, listener } = await startHttp();
    const response = await post(url, { ...INITIALIZE, params: { capabilities: {} } });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(await response.json()).toMatchObject({ id: 'init', error: { code: -32602 } });
    expect(listener.handler.sessionCount).toBe(0);
  });

  test('initialize beyond maxSessions is refused with 503', async () => {
    const { url } = await startHttp({ maxSessions: 1 });
    await openSession(url);
    const response = await post(url, INITIALIZE);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('30');
    await response.text();
  });

  test('GET without Accept: text/event-stream is 406; a second GET stream on a session is 409', async () => {
    const { url } = await startHttp();
    const session = await openSession(url);
    const plain = await fetch(url, { headers: { 'mcp-session-id': session, accept: 'application/json' } });
    expect(plain.status).toBe(406);
    await plain.text();
    const first = await fetch(url, { headers: { 'mcp-session-id': session, accept: 'text/event-stream' } });
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/event-stream');
    const second = await fetch(url, { headers: { 'mcp-session-id': session, accept: 'text/event-stream' } });
    expect(second.status).toBe(409);
    await second.text();
    await first.body?.cancel();
  });

  test('with getStream: false, GET is 405 and the Allow header says what is left', async () => {
    const { url } = await startHttp({ getStream: false });
    const session = await openSession(url);
    const response = await fetch(url, { headers: { 'mcp-session-id': session, accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, DELETE, OPTIONS');
    await response.text();
  });

  test('stateless mode answers GET and DELETE with 405 and mints no session id', async () => {
    const { url } = await startHttp({ sessions: 'stateless' });
    const init = await post(url, INITIALIZE);
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    await init.text();
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(url, { method, headers: { accept: 'text/event-stream' } });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('POST, OPTIONS');
      await response.text();
    }
    const answer = await post(url, call(7));
    expect(await answer.json()).toMatchObject({ id: 7, result: { content: [{ text: 'hi' }] } });
  });
});

describe('rate limit and shutdown', () => {
  test('over the global rate limit the endpoint answers 429 with Retry-After', async () => {
    const { url } = await startHttp({ rateLimit: { max: 2, windowMs: 60_000 } });
    expect((await post(url, INITIALIZE)).status).toBe(200);
    expect((await post(url, INITIALIZE)).status).toBe(200);
    const limited = await post(url, INITIALIZE);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await errorOf(limited)).message).toContain('Too many requests');
  });

  test('RATE_LIMIT_MAX and RATE_LIMIT_WINDOW_MS configure the limit; invalid values are refused at startup', async () => {
    const { url } = await startHttp({ env: { RATE_LIMIT_MAX: '1', RATE_LIMIT_WINDOW_MS: '60000' } });
    expect((await post(url, INITIALIZE)).status).toBe(200);
    expect((await post(url, INITIALIZE)).status).toBe(429);
    await expect(startHttp({ env: { RATE_LIMIT_MAX: 'lots' } })).rejects.toThrow(/RATE_LIMIT_MAX/);
  });

  test('close() lets a running call finish, refuses new requests with 503, then ends', async () => {
    const { url, listener, server } = await startHttp({ sessions: 'stateless' });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { defineTool } = await import('../../src/tool/define.js');
    server.registry.add(
      defineTool({
        name: 'slow',
        description: 'Wait for the test to release it.',
        effect: 'read',
        world: 'closed',
        handler: async () => {
          await gate;
          return 'finished';
        },
      }),
    );
    const running = post(url, call(1, 'slow', {}));
    await waitFor(() => server.dispatcher.inFlight === 1, 'the call to start');
    const closing = listener.close();
    // The port stays open while draining (so a balancer's /readyz probe hears "draining");
    // a new request is refused with 503, and /readyz says why.
    const refused = await fetch(url, {
      method: 'POST',
      headers: POST_HEADERS,
      body: JSON.stringify(call(2, 'echo', { text: 'x' })),
    });
    expect(refused.status).toBe(503);
    const ready = await fetch(new URL('/readyz', url));
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'draining' });
    release();
    const answer = await running;
    expect(await answer.json()).toMatchObject({ id: 1, result: { content: [{ text: 'finished' }] } });
    await closing;
  });

  test('while draining, a running call can still get its elicitation answered and finish', async () => {
    const { url, listener } = await startHttp();
    const session = await openSession(url, { capabilities: { elicitation: {} } });
    const headers = { 'mcp-session-id': session };
    const call = await post(
      url,
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'ask_name' } },
      headers,
    );
    expect(call.headers.get('content-type')).toBe('text/event-stream');
    const reader = call.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('elicitation/create')) text += (await reader.read()).value ?? '';
    const question = JSON.parse(/data: (\{.*"elicitation\/create".*\})/.exec(text)![1]!) as { id: string };
    const closing = listener.handler.close();
    // New requests are refused…
    const refused = await post(url, { jsonrpc: '2.0', id: 6, method: 'ping' }, headers);
    expect(refused.status).toBe(503);
    await refused.text();
    // …but the answer to the server's question goes through, and the call completes.
    const answer = await post(
      url,
      { jsonrpc: '2.0', id: question.id, result: { action: 'accept', content: { name: 'Grace' } } },
      headers,
    );
    expect(answer.status).toBe(202);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
    }
    expect(text).toContain('"id":5,"result":{"content":[{"type":"text","text":"hello Grace"}]}');
    await closing;
  });

  test('the handler refuses requests with 503 while it drains', async () => {
    const { url, listener } = await startHttp();
    const session = await openSession(url);
    // Keep a GET stream open so the server has something to end.
    const stream = await fetch(url, { headers: { 'mcp-session-id': session, accept: 'text/event-stream' } });
    await listener.handler.close();
    const response = await post(url, call(1), { 'mcp-session-id': session });
    expect(response.status).toBe(503);
    expect(response.headers.get('connection')).toBe('close');
    await response.text();
    // close() ended the GET stream: it carried only its priming event (an id, the retry advice, no data).
    expect(await stream.text()).toMatch(/^id: [\x21-\x7e]+\nretry: 1000\ndata: \n\n$/);
  });
});
