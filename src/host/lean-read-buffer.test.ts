import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { FIRST_ID } from './lean-calls.js';
import { LeanReadBuffer, useLeanReader } from './lean-read-buffer.js';

const line = (value: unknown) => Buffer.from(`${JSON.stringify(value)}\n`);

describe('LeanReadBuffer', () => {
  it('is installed on the SDK stdio transport (an SDK that moves its reader fails here, not silently)', () => {
    const transport = new StdioClientTransport({ command: process.execPath });
    expect(useLeanReader(transport)).toBe(true);
    expect((transport as unknown as { _readBuffer: unknown })._readBuffer).toBeInstanceOf(LeanReadBuffer);
  });

  it('frames lines that span chunks, several lines in one chunk, and CRLF endings', () => {
    const reader = new LeanReadBuffer();
    const a = { jsonrpc: '2.0', id: 1, result: { tools: [] } };
    const b = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
    const bytes = Buffer.concat([line(a), Buffer.from(`${JSON.stringify(b)}\r\n`)]);
    reader.append(bytes.subarray(0, 10));
    expect(reader.readMessage()).toBeNull();
    reader.append(bytes.subarray(10));
    expect(reader.readMessage()).toEqual(a);
    expect(reader.readMessage()).toEqual(b);
    expect(reader.readMessage()).toBeNull();
  });

  it('skips lines that are not JSON, as the SDK reader does', () => {
    const reader = new LeanReadBuffer();
    const a = { jsonrpc: '2.0', id: 2, result: {} };
    reader.append(Buffer.concat([Buffer.from('starting up...\n'), line(a)]));
    expect(reader.readMessage()).toEqual(a);
  });

  it("hands a lean call's answer over as parsed, and still schema-checks every other message", () => {
    const reader = new LeanReadBuffer();
    // A shape the SDK schema refuses (result is not an object): the lean path checks results itself.
    const lean = { jsonrpc: '2.0', id: FIRST_ID + 7, result: 'not an object' };
    reader.append(line(lean));
    expect(reader.readMessage()).toEqual(lean);
    reader.append(line({ jsonrpc: '2.0', id: 3, result: 'not an object' }));
    expect(() => reader.readMessage()).toThrow();
  });

  it('refuses to buffer more than its limit', () => {
    const reader = new LeanReadBuffer({ maxBufferSize: 8 });
    expect(() => reader.append(Buffer.from('0123456789'))).toThrow(/maximum size of 8 bytes/);
  });
});
