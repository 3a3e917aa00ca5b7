import { describe, expect, test } from 'vitest';
import { classify, errorResponse, parseError, RawJson, serializeMessage } from './jsonrpc.js';

describe('classify', () => {
  test('tells requests, notifications, responses and invalid messages apart', () => {
    expect(classify({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBe('request');
    expect(classify({ jsonrpc: '2.0', id: 'a', method: 'x', params: [1] })).toBe('request');
    expect(classify({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBe('notification');
    expect(classify({ jsonrpc: '2.0', id: 1, result: {} })).toBe('response');
    expect(classify({ jsonrpc: '2.0', error: { code: -1, message: 'x' } })).toBe('response');
    expect(classify({ jsonrpc: '2.0', id: 1.5, method: 'ping' })).toBe('invalid');
    expect(classify({ jsonrpc: '2.0', id: null, method: 'ping' })).toBe('invalid');
    expect(classify({ jsonrpc: '1.0', id: 1, method: 'ping' })).toBe('invalid');
    expect(classify({ jsonrpc: '2.0', id: 1, result: {}, error: {} })).toBe('invalid');
    expect(classify([])).toBe('invalid');
    expect(classify('ping')).toBe('invalid');
  });
});

describe('serializeMessage', () => {
  test('splices a RawJson result without re-serialising, and equals JSON.stringify otherwise', () => {
    const raw = { jsonrpc: '2.0' as const, id: 7, result: new RawJson('{"tools":[]}') as never };
    expect(serializeMessage(raw)).toBe('{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}');
    expect(JSON.parse(JSON.stringify(raw))).toEqual(JSON.parse(serializeMessage(raw)));
    expect(serializeMessage([raw, errorResponse(1, -32601, 'no')])).toBe(
      '[{"jsonrpc":"2.0","id":7,"result":{"tools":[]}},{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}]',
    );
  });

  test('an error without a readable id carries no id (MCP 2025-11-25)', () => {
    expect(parseError()).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: expect.any(String) } });
  });
});
