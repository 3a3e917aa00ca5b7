import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { createServer } from '../server/create-server.js';
import { defineTool } from '../tool/define.js';
import { silentLogger } from '../util/logger.js';
import { serveStdio } from './stdio.js';

function setup(maxLineBytes?: number) {
  const server = createServer({
    name: 'stdio-unit',
    version: '1.0.0',
    logger: silentLogger,
    tools: [
      defineTool({
        name: 'echo',
        description: 'Echo.',
        effect: 'read',
        world: 'closed',
        input: { type: 'object', properties: { text: { type: 'string' } } },
        handler: (a: any) => a.text,
      }),
    ],
  });
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: any[] = [];
  let pending = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    let nl = pending.indexOf('\n');
    while (nl >= 0) {
      lines.push(JSON.parse(pending.slice(0, nl)));
      pending = pending.slice(nl + 1);
      nl = pending.indexOf('\n');
    }
  });
  const connection = serveStdio(server.dispatcher, { stdin, stdout, ...(maxLineBytes ? { maxLineBytes } : {}) });
  return { stdin, lines, connection };
}

describe('serveStdio', () => {
  test('a multi-byte character split across chunks arrives intact', async () => {
    const { stdin, lines, connection } = setup();
    const line = Buffer.from(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'héllo ✓' } } })}\n`,
    );
    const cut = line.indexOf(Buffer.from('é')) + 1; // between the two bytes of é
    stdin.write(line.subarray(0, cut));
    stdin.write(line.subarray(cut));
    stdin.end();
    await connection.closed;
    expect(lines).toEqual([{ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'héllo ✓' }] } }]);
  });

  test('CRLF line ends, blank lines and a final line without a newline are handled', async () => {
    const { stdin, lines, connection } = setup();
    stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\r\n\n\n');
    stdin.end('{"jsonrpc":"2.0","id":2,"method":"ping"}');
    await connection.closed;
    expect(lines.map((l) => l.id)).toEqual([1, 2]);
  });

  test('a line over the limit is refused once and the next line is served', async () => {
    const { stdin, lines, connection } = setup(64);
    stdin.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(200)}"}}\n`);
    stdin.write('{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    stdin.end();
    await connection.closed;
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ error: { code: -32600, message: expect.stringContaining('longer than 64') } });
    expect(lines[1]).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });
});
