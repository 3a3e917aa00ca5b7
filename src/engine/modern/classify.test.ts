import { describe, expect, test } from 'vitest';
import { classifyEra, type EraRoute } from './classify.js';
import { httpStatusOf } from './protocol.js';

const V = '2026-07-28';
const envelope = (extra: Record<string, unknown> = {}) => ({
  'io.modelcontextprotocol/protocolVersion': V,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
  ...extra,
});
const call = (meta: Record<string, unknown> = envelope(), name = 'echo') => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name, arguments: {}, _meta: meta },
});
const headers = (extra: Record<string, string> = {}) => ({
  'mcp-protocol-version': V,
  'mcp-method': 'tools/call',
  'mcp-name': 'echo',
  ...extra,
});

function refusal(route: EraRoute) {
  if (route.era !== 'refused') throw new Error(`expected a refusal, got ${route.era}`);
  return { status: httpStatusOf(route.response), code: route.response.error.code, response: route.response };
}

describe('era classification', () => {
  test('2025-era messages without an envelope are legacy, on HTTP and stdio alike', () => {
    const init = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {} },
    };
    expect(classifyEra(init).era).toBe('legacy');
    expect(classifyEra(init, { headers: {} }).era).toBe('legacy');
    expect(
      classifyEra(
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { headers: { 'mcp-protocol-version': '2025-11-25' } },
      ).era,
    ).toBe('legacy');
    expect(classifyEra({ jsonrpc: '2.0', method: 'notifications/initialized' }).era).toBe('legacy');
    expect(classifyEra({ jsonrpc: '2.0', id: 's-1', result: {} }).era).toBe('legacy');
    expect(classifyEra([{ jsonrpc: '2.0', id: 1, method: 'ping' }]).era).toBe('legacy');
    // A progress token alone is not a claim.
    expect(
      classifyEra({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'x', _meta: { progressToken: 1 } } })
        .era,
    ).toBe('legacy');
  });

  test('a request with the envelope is modern over stdio, where there are no headers', () => {
    const route = classifyEra(call());
    expect(route).toMatchObject({ era: 'modern', kind: 'request', id: 1, method: 'tools/call' });
    if (route.era === 'modern' && route.kind === 'request') {
      expect(route.envelope.protocolVersion).toBe(V);
      expect(route.envelope.clientInfo).toEqual({ name: 'test', version: '1.0.0' });
    }
  });

  test('a request with the envelope and matching headers is modern over HTTP', () => {
    expect(classifyEra(call(), { headers: headers() }).era).toBe('modern');
  });

  test('a version header that disagrees with the body is refused with 400 and -32020', () => {
    const r = refusal(classifyEra(call(), { headers: headers({ 'mcp-protocol-version': '2025-11-25' }) }));
    expect(r).toMatchObject({ status: 400, code: -32020 });
    expect(r.response.error.message).toContain("'2025-11-25'");
    expect(r.response.id).toBe(1);
  });

  test('an Mcp-Method header that disagrees with the body is refused with 400 and -32020', () => {
    const r = refusal(classifyEra(call(), { headers: headers({ 'mcp-method': 'tools/list' }) }));
    expect(r).toMatchObject({ status: 400, code: -32020 });
    expect(r.response.error.message).toContain('Mcp-Method');
  });

  test('missing MCP-Protocol-Version, Mcp-Method or Mcp-Name headers are refused with 400 and -32020', () => {
    const { 'mcp-protocol-version': _v, ...noVersion } = headers();
    const { 'mcp-method': _m, ...noMethod } = headers();
    const { 'mcp-name': _n, ...noName } = headers();
    for (const h of [noVersion, noMethod, noName]) {
      expect(refusal(classifyEra(call(), { headers: h }))).toMatchObject({ status: 400, code: -32020 });
    }
  });

  test('an Mcp-Name header that names another tool is refused with 400 and -32020', () => {
    const r = refusal(classifyEra(call(envelope(), 'delete_everything'), { headers: headers({ 'mcp-name': 'echo' }) }));
    expect(r).toMatchObject({ status: 400, code: -32020 });
    expect(r.response.error.message).toContain("'echo'");
  });

  test('a Base64-encoded Mcp-Name is decoded before the comparison; a broken sentinel is refused', () => {
    const encoded = `=?base64?${btoa('echo')}?=`;
    expect(classifyEra(call(), { headers: headers({ 'mcp-name': encoded }) }).era).toBe('modern');
    expect(refusal(classifyEra(call(), { headers: headers({ 'mcp-name': '=?base64?***?=' }) }))).toMatchObject({
      status: 400,
      code: -32020,
    });
  });

  test('Mcp-Name is checked against params.uri for resources/read', () => {
    const read = {
      jsonrpc: '2.0',
      id: 4,
      method: 'resources/read',
      params: { uri: 'file:///a.txt', _meta: envelope() },
    };
    const ok = { 'mcp-protocol-version': V, 'mcp-method': 'resources/read', 'mcp-name': 'file:///a.txt' };
    expect(classifyEra(read, { headers: ok }).era).toBe('modern');
    expect(refusal(classifyEra(read, { headers: { ...ok, 'mcp-name': 'file:///b.txt' } })).code).toBe(-32020);
  });

  test('an unsupported version is refused with 400 and -32022 listing the supported versions', () => {
    const meta = envelope({ 'io.modelcontextprotocol/protocolVersion': '2099-01-01' });
    const r = refusal(classifyEra(call(meta), { headers: headers({ 'mcp-protocol-version': '2099-01-01' }) }));
    expect(r).toMatchObject({ status: 400, code: -32022 });
    expect(r.response.error.data).toEqual({
      supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'],
      requested: '2099-01-01',
    });
  });

  test('an envelope naming a 2025 version is refused with -32022 (2025 versions use initialize)', () => {
    const meta = envelope({ 'io.modelcontextprotocol/protocolVersion': '2025-06-18' });
    expect(refusal(classifyEra(call(meta)))).toMatchObject({ status: 400, code: -32022 });
  });

  test('an envelope without clientCapabilities is refused with 400 and -32602 naming the key', () => {
    const { 'io.modelcontextprotocol/clientCapabilities': _c, ...meta } = envelope();
    const r = refusal(classifyEra(call(meta), { headers: headers() }));
    expect(r).toMatchObject({ status: 400, code: -32602 });
    expect(r.response.error.message).toContain('io.modelcontextprotocol/clientCapabilities');
  });

  test('malformed clientInfo or logLevel is refused with 400 and -32602', () => {
    expect(refusal(classifyEra(call(envelope({ 'io.modelcontextprotocol/clientInfo': 'me' }))))).toMatchObject({
      status: 400,
      code: -32602,
    });
    expect(refusal(classifyEra(call(envelope({ 'io.modelcontextprotocol/logLevel': 'loud' }))))).toMatchObject({
      status: 400,
      code: -32602,
    });
  });

  test('a modern version header on a request without the envelope is refused with 400 and -32602', () => {
    const r = refusal(classifyEra({ jsonrpc: '2.0', id: 5, method: 'tools/list', params: {} }, { headers: headers() }));
    expect(r).toMatchObject({ status: 400, code: -32602 });
  });

  test('initialize sent with a modern version header is refused with -32020', () => {
    const init = {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {} },
    };
    expect(refusal(classifyEra(init, { headers: { 'mcp-protocol-version': V } })).code).toBe(-32020);
  });

  test('a batch carrying a modern request is refused whole with 400 and -32600', () => {
    expect(refusal(classifyEra([{ jsonrpc: '2.0', id: 1, method: 'ping' }, call()]))).toMatchObject({
      status: 400,
      code: -32600,
    });
  });

  test('a notification with a modern version header is modern; its Mcp-Method is checked', () => {
    const note = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };
    expect(classifyEra(note, { headers: { 'mcp-protocol-version': V } })).toMatchObject({
      era: 'modern',
      kind: 'notification',
    });
    expect(refusal(classifyEra(note, { headers: { 'mcp-protocol-version': V, 'mcp-method': 'ping' } })).code).toBe(
      -32020,
    );
  });
});

describe('era classification for a server that speaks only 2026-07-28', () => {
  const only = { modernOnly: true };

  test('initialize is refused with -32022 naming 2026-07-28 and the version it asked for, on stdio and HTTP', () => {
    const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18' } };
    for (const route of [classifyEra(init, only), classifyEra(init, { ...only, headers: {} })]) {
      const { status, code, response } = refusal(route);
      expect({ status, code }).toEqual({ status: 400, code: -32022 });
      expect(response.id).toBe(0);
      expect(response.error.data).toEqual({ supported: [V], requested: '2025-06-18' });
      expect(response.error.message).toContain('speaks only 2026-07-28');
    }
  });

  test('a request without the envelope is refused the same way, naming no version when it gives none', () => {
    const { code, response } = refusal(classifyEra({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, only));
    expect(code).toBe(-32022);
    expect(response.error.data).toEqual({ supported: [V] });
  });

  test('a notification without the envelope is read as modern (stdio cancels this way), a response stays legacy', () => {
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } };
    expect(classifyEra(cancel, only)).toMatchObject({ era: 'modern', kind: 'notification' });
    expect(classifyEra({ jsonrpc: '2.0', id: 4, result: {} }, only).era).toBe('legacy');
  });

  test('a batch is refused, and a modern request is served as usual', () => {
    expect(refusal(classifyEra([{ jsonrpc: '2.0', method: 'notifications/initialized' }], only)).code).toBe(-32600);
    expect(classifyEra(call(), { ...only, headers: headers() })).toMatchObject({ era: 'modern', kind: 'request' });
  });
});
