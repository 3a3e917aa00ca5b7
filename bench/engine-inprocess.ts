/**
 * Engine benchmark, the parts without HTTP, in one run:
 * - tools/list server time in process for 1,000 and 10,000 tools: candor's
 *   dispatcher (including serialising the answer to bytes) against SDK v1's
 *   McpServer over its InMemoryTransport (objects passed as they are, no
 *   serialisation: in the SDK's favour);
 * - tools/call over stdio, calls per second with 32 in flight: candor against
 *   SDK v1, each a child process driven with newline-delimited JSON;
 * - tools/call in process, one call at a time, both eras: straight
 *   into the dispatcher (a parsed message in, the serialised answer out), and
 *   through `connectMemory()` (JSON text both ways, as a test client sees it).
 * Run `npm run build` first (candor is loaded from dist/).
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { createServer, defineTool, silentLogger, type ToolLike } from '../dist/src/index.js';
import { serializeMessage } from '../dist/src/protocol.js';
import { HttpTransport } from '../dist/src/transports/http/http-transport.js';
import { processCpuMicros, record, table } from './_harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const INIT_PARAMS = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } };

function candorTools(count: number): ToolLike[] {
  const tools: ToolLike[] = [];
  for (let i = 0; i < count; i++) {
    tools.push(
      defineTool({
        name: `tool_${i}`,
        description: `Tool ${i}.`,
        effect: 'read',
        world: 'closed',
        input: z.object({ path: z.string(), limit: z.number().optional() }),
        handler: () => 'ok',
      }),
    );
  }
  return tools;
}

async function candorListTime(count: number, runs: number): Promise<number> {
  const server = createServer({ name: 'b', version: '1', tools: candorTools(count), logger: silentLogger });
  const { dispatcher } = server;
  const channel = { open: true, send() {} };
  const peer = dispatcher.createPeer({ channel });
  await dispatcher.handle(
    { jsonrpc: '2.0', id: 0, method: 'initialize', params: INIT_PARAMS },
    { peer, channel, info: {} },
  );
  await dispatcher.handle({ jsonrpc: '2.0', method: 'notifications/initialized' }, { peer, channel, info: {} });
  // The first tools/list builds the registry's cached JSON (the registry benchmark times that);
  // this measures what every later request costs on an unchanged registry.
  await dispatcher.handle({ jsonrpc: '2.0', id: 'warm-up', method: 'tools/list' }, { peer, channel, info: {} });
  let bytes = 0;
  const start = performance.now();
  for (let i = 0; i < runs; i++) {
    const answer = await dispatcher.handle(
      { jsonrpc: '2.0', id: i + 1, method: 'tools/list' },
      { peer, channel, info: {} },
    );
    bytes = serializeMessage(answer!).length;
  }
  const ms = (performance.now() - start) / runs;
  if (bytes < count * 50) throw new Error('candor tools/list answer is too small');
  await server.close();
  return ms;
}

async function sdkListTime(count: number, runs: number): Promise<number> {
  const server = new McpServer({ name: 'b', version: '1' });
  for (let i = 0; i < count; i++) {
    server.registerTool(
      `tool_${i}`,
      {
        description: `Tool ${i}.`,
        inputSchema: { path: z.string(), limit: z.number().optional() },
        annotations: { readOnlyHint: true },
      },
      async () => ({ content: [{ type: 'text', text: 'ok' }] }),
    );
  }
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const waiting = new Map<number, (m: any) => void>();
  client.onmessage = (m: any) => waiting.get(m.id)?.(m);
  await client.start();
  const request = (id: number, method: string, params?: object) =>
    new Promise<any>((resolve) => {
      waiting.set(id, resolve);
      void client.send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) } as never);
    });
  await request(0, 'initialize', INIT_PARAMS);
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' } as never);
  let tools = 0;
  const start = performance.now();
  for (let i = 0; i < runs; i++) tools = (await request(i + 1, 'tools/list')).result.tools.length;
  const ms = (performance.now() - start) / runs;
  if (tools !== count) throw new Error(`SDK v1 listed ${tools} tools`);
  await server.close();
  return ms;
}

/** Calls per second over stdio with `inFlight` requests outstanding, for `seconds`. */
async function stdioRate(
  file: string,
  seconds: number,
  inFlight = 32,
): Promise<{ rate: number; cpu: number | undefined }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'servers', file)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let buffer = '';
  let next = 1;
  let done = 0;
  let initialisedYet = false;
  let resolveInit!: () => void;
  const initialised = new Promise<void>((r) => {
    resolveInit = r;
  });
  let measuring = false;
  const send = (msg: object) => child.stdin.write(`${JSON.stringify(msg)}\n`);
  // The load generator must not be the bottleneck (it shares the machine): calls are written from a
  // template, the calls a chunk of answers frees go out in one write, and answers are checked cheaply
  // (every 64th one parsed in full). Both servers get exactly the same client.
  const callLine = (id: number) =>
    `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}\n`;
  const call = () => child.stdin.write(callLine(next++));
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    let from = 0;
    let out = '';
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n', from)) {
      const line = buffer.slice(from, nl);
      from = nl + 1;
      if (!initialisedYet) {
        if (JSON.parse(line).id === 0) {
          initialisedYet = true;
          resolveInit();
        }
        continue;
      }
      const ok =
        (done & 63) === 0 ? JSON.parse(line).result?.content?.[0]?.text === 'hi' : line.includes('"text":"hi"');
      if (!ok) throw new Error(`${file}: bad answer ${line}`);
      done++;
      if (measuring) out += callLine(next++);
    }
    buffer = buffer.slice(from);
    if (out !== '') child.stdin.write(out);
  });
  send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: INIT_PARAMS });
  await initialised;
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  measuring = true;
  for (let i = 0; i < inFlight; i++) call();
  await new Promise((r) => setTimeout(r, 1000)); // warm-up
  const startDone = done;
  const start = performance.now();
  const cpuBefore = processCpuMicros(child.pid!);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const cpuAfter = processCpuMicros(child.pid!);
  const calls = done - startDone;
  const rate = calls / ((performance.now() - start) / 1000);
  measuring = false;
  child.kill('SIGKILL');
  const cpu = cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / calls;
  return { rate, cpu };
}

/**
 * One tools/call at a time for 2 s. `dispatcher`: a parsed message straight
 * into `dispatcher.handle`, the answer serialised as a transport would.
 * `memory`: a raw JSON-RPC client on `connectMemory()` (JSON text both ways).
 */
async function sequentialRate(era: '2025' | '2026', via: 'dispatcher' | 'memory'): Promise<number> {
  const server = createServer({ name: 'b', version: '1', tools: candorEcho(), logger: silentLogger });
  const meta =
    era === '2026'
      ? {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        }
      : {};
  const message = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'echo', arguments: { text: 'hi' }, ...meta },
  });
  let call: (id: number) => Promise<void>;
  if (via === 'dispatcher') {
    const { dispatcher } = server;
    const channel = { open: false, send() {} };
    const peer = dispatcher.createPeer({ channel });
    await dispatcher.handle(
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: INIT_PARAMS },
      { peer, channel, info: {} },
    );
    call = async (id) => {
      const answer = await dispatcher.handle(message(id), { peer, channel });
      if (serializeMessage(answer!).length < 40) throw new Error('no answer');
    };
  } else {
    const client = server.connectMemory();
    let settle: (m: any) => void = () => {};
    client.onmessage = (m) => settle(m);
    await client.start();
    const request = (msg: object) =>
      new Promise<any>((resolve) => {
        settle = resolve;
        void client.send(msg);
      });
    await request({ jsonrpc: '2.0', id: 0, method: 'initialize', params: INIT_PARAMS });
    await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    call = async (id) => {
      const answer = await request(message(id));
      if (answer.result?.content?.[0]?.text !== 'hi') throw new Error(`bad answer ${JSON.stringify(answer)}`);
    };
  }
  let id = 1;
  for (const end = performance.now() + 500; performance.now() < end; ) await call(id++); // warm-up
  let calls = 0;
  const start = performance.now();
  const end = start + 2000;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) await call(id++);
    calls += 100;
  }
  const rate = calls / ((performance.now() - start) / 1000);
  await server.close();
  return rate;
}

function candorEcho(): ToolLike[] {
  return [
    defineTool({
      name: 'echo',
      description: 'Echo the text back.',
      effect: 'read',
      world: 'closed',
      input: z.object({ text: z.string() }),
      handler: ({ text }) => text,
    }),
  ];
}

const listRows: string[][] = [];
for (const [count, runs] of [
  [1_000, 30],
  [10_000, 5],
] as const) {
  await candorListTime(count, 3); // warm-up (JIT)
  const candor = await candorListTime(count, runs);
  const sdk = await sdkListTime(count, runs);
  listRows.push([
    count.toLocaleString('en'),
    `${candor.toFixed(3)} ms`,
    `${sdk.toFixed(1)} ms`,
    `${(sdk / candor).toFixed(0)}×`,
  ]);
}
table(
  'tools/list server time in process (mean per request)',
  ['tools', 'candor', 'SDK v1', 'SDK v1 / candor'],
  listRows,
);

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const candorStdio = await stdioRate('candor-stdio.ts', seconds);
const sdkStdio = await stdioRate('sdk-v1-stdio.ts', seconds);
const cpuText = (cpu: number | undefined) => (cpu === undefined ? 'n/a' : `${cpu.toFixed(1)} µs`);
table(
  `tools/call over stdio (32 in flight, ${seconds} s each)`,
  ['server', 'calls/s', 'server CPU/call', 'vs SDK v1'],
  [
    [
      'candor',
      Math.round(candorStdio.rate).toLocaleString('en'),
      cpuText(candorStdio.cpu),
      `${(candorStdio.rate / sdkStdio.rate).toFixed(2)}×`,
    ],
    ['SDK v1', Math.round(sdkStdio.rate).toLocaleString('en'), cpuText(sdkStdio.cpu), '1.00×'],
  ],
);

/**
 * candor's own share of an HTTP tools/call: the Streamable HTTP core
 * (`HttpTransport.handle`: checks, parse, era, dispatch, pipeline, handler,
 * serialise) driven with a minimal in-memory exchange, no sockets and no
 * node:http. CPU microseconds per request, one at a time. What node:http and
 * the kernel add is the rest of the server CPU per request in engine-http.
 */
async function httpCoreMicros(era: '2025' | '2026'): Promise<number> {
  const server = createServer({ name: 'b', version: '1', tools: candorEcho(), logger: silentLogger });
  const transport = new HttpTransport({ dispatcher: server.dispatcher, sessions: 'stateless', logger: silentLogger });
  const modern = era === '2026';
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'echo',
      arguments: { text: 'hi' },
      ...(modern
        ? {
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
              'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
            },
          }
        : {}),
    },
  });
  const headers: Record<string, string> = {
    host: '127.0.0.1:3000',
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': modern ? '2026-07-28' : '2025-11-25',
    ...(modern ? { 'mcp-method': 'tools/call', 'mcp-name': 'echo' } : {}),
  };
  let answered = '';
  const http = { method: 'POST', url: 'http://127.0.0.1:3000/mcp', headers, closeStream: () => false };
  const never = () => () => {};
  // A class, as the real NodeExchange is: one small object per request.
  class MemoryExchange {
    readonly method = 'POST';
    readonly localAddress = '127.0.0.1';
    readonly auth = undefined;
    readonly gone = false;
    extraHeaders: readonly string[] | undefined = undefined;
    closer: unknown = undefined;
    responded = false;
    get http() {
      return http;
    }
    header(name: string): string | undefined {
      return headers[name];
    }
    onGone(): () => void {
      return never();
    }
    readBody(): Promise<string> {
      return Promise.resolve(body);
    }
    reply(_status: number, _headers: readonly string[], text: unknown): void {
      this.responded = true;
      answered = String(text);
    }
    stream(): never {
      throw new Error('no stream expected');
    }
  }
  const exchange = () => new MemoryExchange();
  for (let i = 0; i < 20_000; i++) await transport.handle(exchange() as never); // warm-up
  const n = 100_000;
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) await transport.handle(exchange() as never);
  const used = process.cpuUsage(cpu);
  if (!answered.includes('"text":"hi"')) throw new Error(`bad answer ${answered}`);
  await server.close();
  return (used.user + used.system) / n;
}

const httpCore = { '2025 era': await httpCoreMicros('2025'), '2026-07-28 era': await httpCoreMicros('2026') };
table(
  "candor's own CPU per HTTP tools/call (the Streamable HTTP core without sockets or node:http)",
  ['era', 'µs per request'],
  Object.entries(httpCore).map(([era, us]) => [era, us.toFixed(2)]),
);

const inProcess = {
  'dispatcher, 2025 era': await sequentialRate('2025', 'dispatcher'),
  'dispatcher, 2026-07-28 era': await sequentialRate('2026', 'dispatcher'),
  'connectMemory, 2025 era': await sequentialRate('2025', 'memory'),
  'connectMemory, 2026-07-28 era': await sequentialRate('2026', 'memory'),
};
table(
  'tools/call in process, one call at a time (2 s each)',
  ['path', 'calls/s'],
  Object.entries(inProcess).map(([path, rate]) => [path, Math.round(rate).toLocaleString('en')]),
);

record('engine-inprocess', {
  listServerTimeMs: Object.fromEntries(
    listRows.map((r) => [r[0], { candor: parseFloat(r[1]!), sdkV1: parseFloat(r[2]!) }]),
  ),
  stdio: {
    inFlight: 32,
    callsPerSecond: { candor: candorStdio.rate, 'SDK v1': sdkStdio.rate },
    serverCpuMicrosPerCall: { candor: candorStdio.cpu, 'SDK v1': sdkStdio.cpu },
  },
  inProcessSequentialCallsPerSecond: inProcess,
  httpCoreCpuMicrosPerRequest: httpCore,
});
