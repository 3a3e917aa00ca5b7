import { describe, expect, test } from 'vitest';
import { defineTool } from '../../tool/define.js';
import { decodeHeaderValue } from './header-value.js';
import { checkParamHeaders, paramHeadersOf } from './param-headers.js';

const tool = defineTool({
  name: 'execute_sql',
  description: 'Execute SQL in a region.',
  effect: 'destructive',
  world: 'open',
  input: {
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      shard: { type: 'integer', 'x-mcp-header': 'Shard' },
      dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
      target: { type: 'object', properties: { tenant: { type: 'string', 'x-mcp-header': 'Tenant' } } },
      rows: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Nope' } },
      query: { type: 'string' },
    },
    required: ['region', 'query'],
  },
  handler: () => 'ok',
});

describe('header values', () => {
  test('values are decoded as the spec table shows', () => {
    expect(decodeHeaderValue('us-west1')).toBe('us-west1');
    expect(decodeHeaderValue('=?base64?SGVsbG8sIOS4lueVjA==?=')).toBe('Hello, 世界');
    expect(decodeHeaderValue('=?base64?IHBhZGRlZCA=?=')).toBe(' padded ');
    expect(decodeHeaderValue('=?base64?bGluZTEKbGluZTI=?=')).toBe('line1\nline2');
    expect(decodeHeaderValue('=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=')).toBe('=?base64?literal?=');
  });

  test('a malformed sentinel or a control character is rejected', () => {
    expect(decodeHeaderValue('=?base64?not base64?=')).toBeUndefined();
    expect(decodeHeaderValue('=?base64?/w==?=')).toBeUndefined(); // 0xFF is not UTF-8
    expect(decodeHeaderValue('a\u0001b')).toBeUndefined();
  });
});

describe('x-mcp-header', () => {
  test('declarations reachable through properties are found, others are not', () => {
    expect(paramHeadersOf(tool).map((d) => [d.path.join('.'), d.name])).toEqual([
      ['region', 'Region'],
      ['shard', 'Shard'],
      ['dry', 'Dry-Run'],
      ['target.tenant', 'Tenant'],
    ]);
    expect(paramHeadersOf(tool)).toBe(paramHeadersOf(tool)); // scanned once per definition
  });

  test('headers matching the arguments pass, integers compared as numbers', () => {
    const args = { region: 'us-west1', shard: 42, dry: false, target: { tenant: 'Zürich' }, query: 'SELECT 1' };
    const headers = {
      'mcp-param-region': 'us-west1',
      'mcp-param-shard': '42.0',
      'mcp-param-dry-run': 'false',
      'mcp-param-tenant': `=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode('Zürich')))}?=`,
    };
    expect(checkParamHeaders(paramHeadersOf(tool), args, headers)).toBeUndefined();
  });

  test('a missing header for a present argument is a mismatch', () => {
    expect(checkParamHeaders(paramHeadersOf(tool), { region: 'eu', query: 'q' }, {})).toContain(
      'Mcp-Param-Region header is missing',
    );
  });

  test('a header that differs from the argument is a mismatch', () => {
    const problem = checkParamHeaders(paramHeadersOf(tool), { region: 'eu', query: 'q' }, { 'mcp-param-region': 'us' });
    expect(problem).toContain("'us'");
    expect(
      checkParamHeaders(
        paramHeadersOf(tool),
        { region: 'eu', shard: 7, query: 'q' },
        { 'mcp-param-region': 'eu', 'mcp-param-shard': '8' },
      ),
    ).toContain('Shard');
  });

  test('an absent or null argument expects no header', () => {
    expect(checkParamHeaders(paramHeadersOf(tool), { region: null, query: 'q' }, {})).toBeUndefined();
    expect(checkParamHeaders(paramHeadersOf(tool), { query: 'q' }, { 'mcp-param-region': 'anything' })).toBeUndefined();
  });

  test('a malformed Base64 header is refused', () => {
    expect(
      checkParamHeaders(paramHeadersOf(tool), { region: 'eu' }, { 'mcp-param-region': '=?base64?%%?=' }),
    ).toContain('invalid value');
  });
});
