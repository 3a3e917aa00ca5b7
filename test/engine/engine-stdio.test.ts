/**
 * The engine over stdio: the official SDK v1 client spawning a candor server
 * process, and raw line-level checks (malformed input, batches, shutdown).
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, test } from 'vitest';
import { startLineProcess } from '../support/line-process.js';
import { createWireCheck } from '../support/wire-check.js';

const fixture = fileURLToPath(new URL('../fixtures/stdio-server.ts', import.meta.url));
const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) await c();
});

async function connectV1(capabilities: Record<string, object> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', fixture],
    stderr: 'pipe',
  });
  const wire = createWireCheck();
  const client = new Client({ name: 'sdk-v1-test', version: '0.0.1' }, { capabilities });
  await client.connect(wire.wrap(transport));
  cleanup.push(async () => {
    await client.close();
    wire.assertClean(); // every message the server sent, checked against @modelcontextprotocol/core
  });
  return { client, wire, transport };
}

describe('SDK v1 client over stdio', () => {
  test('initialize, tools/list with resolved annotations, and tools/call', async () => {
    const { client, wire } = await connectV1();
    expect(client.getServerVersion()).toMatchObject({ name: 'engine-test', version: '1.2.3' });
    const { tools } = await client.listTools();
    const echo = tools.find((t) => t.name === 'echo');
    expect(echo?.annotations).toEqual({
      title: 'Echo',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(await client.callTool({ name: 'echo', arguments: { text: 'over stdio' } })).toEqual({
      content: [{ type: 'text', text: 'over stdio' }],
    });
    wire.assertClean();
  });

  test('progress and logs reach the client while the call runs', async () => {
    const { client, wire } = await connectV1();
    const progress: number[] = [];
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.level));
    await client.callTool({ name: 'count_up', arguments: { n: 3 } }, undefined, {
      onprogress: (p) => void progress.push(p.progress),
    });
    await client.callTool({ name: 'log_levels', arguments: {} });
    // On the wire: every step, strictly increasing, all before the result. (The v1 client
    // handles notifications a microtask after responses, so it may drop the last ones.)
    const sent = wire.serverMessages.filter((m: any) => m.method === 'notifications/progress' || m.id === 1);
    expect(sent.map((m: any) => m.params?.progress ?? 'result')).toEqual([1, 2, 3, 'result']);
    expect(new Set(sent.slice(0, 3).map((m: any) => m.params.progressToken)).size).toBe(1);
    expect(progress[0]).toBe(1);
    expect(logs).toEqual(['debug', 'info', 'warning', 'error']);
    wire.assertClean();
  });

  test('an elicitation round trip over stdio', async () => {
    const { client, wire } = await connectV1({ elicitation: {} });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Grace' } }));
    const result = await client.callTool({ name: 'ask_name', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'hello Grace' }]);
    wire.assertClean();
  });

  test('a stray rejection in a handler does not kill the server; it is logged on stderr', async () => {
    const { client, transport } = await connectV1();
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    expect((await client.callTool({ name: 'stray_rejection', arguments: {} })).content).toEqual([
      { type: 'text', text: 'started' },
    ]);
    // The rejection is logged; only then is the server asked again.
    await expect.poll(() => stderr, { timeout: 10_000 }).toContain('unhandled promise rejection');
    expect(await client.callTool({ name: 'echo', arguments: { text: 'still alive' } })).toMatchObject({
      content: [{ text: 'still alive' }],
    });
  });
});

describe('raw stdio', () => {
  function start() {
    const p = startLineProcess(['--import', 'tsx', fixture]);
    const wire = createWireCheck();
    const send = p.send;
    p.send = (line) => {
      if (typeof line === 'object') wire.client(line);
      send(line);
    };
    cleanup.push(() => {
      if (p.child.exitCode === null) p.child.kill('SIGKILL');
      // Every line the server wrote is a well-formed MCP message, results checked per method.
      for (const m of p.messages) wire.server(m);
      wire.assertClean();
    });
    return p;
  }

  test('a malformed line is answered with a parse error and the server keeps serving', async () => {
    const p = start();
    p.send('{"jsonrpc": "2.0", "id": 1, "method": ');
    p.send('not json at all');
    p.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    const parseErrors = await waitForCount(p, (m) => m.error?.code === -32700, 2);
    expect(parseErrors.every((m) => !('id' in m))).toBe(true);
    expect(await p.waitFor((m) => m.id === 2)).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
    p.send({ jsonrpc: '1.0', id: 3, method: 'ping' });
    expect(await p.waitFor((m) => m.id === 3)).toMatchObject({ error: { code: -32600 } });
    p.send({ jsonrpc: '2.0', id: 4, method: 'no/such/method' });
    expect(await p.waitFor((m) => m.id === 4)).toMatchObject({ error: { code: -32601 } });
    expect(p.nonJson).toEqual([]);
  });

  test('a 2025-03-26 client may batch; a 2025-06-18 client is told batches were removed', async () => {
    const p = start();
    p.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(await p.waitFor((m) => m.id === 1)).toMatchObject({ result: { protocolVersion: '2025-03-26' } });
    p.send([
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'echo', arguments: { text: 'batched' } } },
    ]);
    const batch = await p.waitFor((m) => Array.isArray(m));
    expect(batch).toEqual([
      { jsonrpc: '2.0', id: 'a', result: {} },
      { jsonrpc: '2.0', id: 'b', result: { content: [{ type: 'text', text: 'batched' }] } },
    ]);
    p.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(await p.waitFor((m) => m.id === 2)).toMatchObject({ result: { protocolVersion: '2025-06-18' } });
    p.send([{ jsonrpc: '2.0', id: 'c', method: 'ping' }]);
    const refused = await p.waitFor((m) => !('id' in m) && m.error?.code === -32600);
    expect(refused.error.message).toContain('batches were removed in protocol version 2025-06-18');
  });

  test('an unsupported protocol version is answered with the latest supported one', async () => {
    const p = start();
    p.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2099-01-01', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(await p.waitFor((m) => m.id === 1)).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
  });

  test('the end of stdin lets the running call answer, then the process exits cleanly', async () => {
    const p = start();
    p.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hang', arguments: { key: 'k' } } });
    p.child.stdin.end();
    const { code } = await p.exited;
    expect(code).toBe(0);
    expect(p.messages).toEqual([
      expect.objectContaining({ id: 1, result: expect.objectContaining({ isError: true }) }),
    ]);
  });

  test('SIGTERM drains the running call before exiting', async () => {
    const p = start();
    p.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hang', arguments: { key: 'k' } } });
    p.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    await p.waitFor((m) => m.id === 2);
    p.child.kill('SIGTERM');
    const { code } = await p.exited;
    expect(code).toBe(0);
    expect(p.messages.find((m: any) => m.id === 1)).toMatchObject({ result: { isError: true } });
    expect(p.stderr()).toContain('SIGTERM received');
  });
});

async function waitForCount(p: ReturnType<typeof startLineProcess>, match: (m: any) => boolean, count: number) {
  const deadline = Date.now() + 15_000;
  while (p.messages.filter(match).length < count) {
    if (Date.now() > deadline)
      throw new Error(`only ${p.messages.filter(match).length} of ${count}: ${JSON.stringify(p.messages)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return p.messages.filter(match) as any[];
}
