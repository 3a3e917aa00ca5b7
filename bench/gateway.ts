/**
 * The gateway's cost and throughput, in one run, all in front of the
 * same stdio upstream (test/fixtures/gateway/upstream.mjs, a candor server; the
 * tool `read_notes` returns a small JSON list):
 *
 * 1. Added cost per call, same transport: an SDK v2 client calling the upstream
 *    directly over stdio, against the same client calling it through
 *    `candor gateway --stdio --policy yolo` (one call at a time). Reported: the
 *    added latency per call and the gateway process's CPU time per call (its
 *    server-side work: parse, policy, pins, forward, answer).
 * 2. Throughput over Streamable HTTP with 16 calls in flight: `candor gateway
 *    --http` against the stdio→HTTP bridges people use today, `mcp-proxy` and
 *    `supergateway` (stateful and its default stateless mode), each in front of
 *    the same upstream. The bridges are installed on demand into
 *    .cache/bench-peers (not dependencies of candor).
 *
 * Rounds alternate between contenders so a noisy machine slows all alike; the
 * table shows the median round. Nothing here asserts a time.
 *
 *   npm run build && node --import tsx bench/gateway.ts [rounds] [seconds-per-round]
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import autocannon from 'autocannon';
import { JSON_HEADERS, processCpuMicros, record, table } from './_harness.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(repo, 'dist', 'src', 'cli', 'main.js');
const upstream = join(repo, 'test', 'fixtures', 'gateway', 'upstream.mjs');
const peers = join(repo, '.cache', 'bench-peers');
const rounds = Number(process.argv[2] ?? 3);
const seconds = Number(process.argv[3] ?? 3);
const IN_FLIGHT = 16;

function ensurePeers(): void {
  const bin = (name: string) => join(peers, 'node_modules', '.bin', name);
  if (existsSync(bin('mcp-proxy')) && existsSync(bin('supergateway'))) return;
  console.error('bench/gateway: installing mcp-proxy and supergateway into .cache/bench-peers');
  const run = spawnSync(
    'npm',
    [
      'install',
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      '--prefix',
      peers,
      'mcp-proxy',
      'supergateway',
    ],
    { stdio: 'inherit' },
  );
  if (run.status !== 0) throw new Error('could not install mcp-proxy and supergateway');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitForHttp(url: string, child: ChildProcess): Promise<void> {
  const end = Date.now() + 30_000;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`${url}: the bridge exited (${child.exitCode})`);
    try {
      await fetch(url, { method: 'GET' });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${url} did not come up`);
}

/** Calls per second for `seconds`, with `inFlight` calls in flight. */
async function drive(client: Client, tool: string, inFlight: number, durationMs: number): Promise<number> {
  let calls = 0;
  const end = performance.now() + durationMs;
  const worker = async () => {
    while (performance.now() < end) {
      const result = await client.callTool({ name: tool, arguments: {} });
      if (result.isError) throw new Error(`${tool}: ${JSON.stringify(result.content)}`);
      calls++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  return (calls * 1000) / (performance.now() - started);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function stdioOverhead(): Promise<void> {
  const direct = new Client({ name: 'bench', version: '1' });
  const directTransport = new StdioClientTransport({ command: process.execPath, args: [upstream], stderr: 'ignore' });
  await direct.connect(directTransport);
  const gateway = new Client({ name: 'bench', version: '1' });
  const gatewayTransport = new StdioClientTransport({
    command: process.execPath,
    args: [cli, 'gateway', '--stdio', '--policy', 'yolo', '--', process.execPath, upstream],
    stderr: 'ignore',
  });
  await gateway.connect(gatewayTransport);
  const samples = { direct: [] as number[], gateway: [] as number[], cpu: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    samples.direct.push(await drive(direct, 'read_notes', 1, seconds * 1000));
    const before = gatewayTransport.pid ? processCpuMicros(gatewayTransport.pid) : undefined;
    const started = performance.now();
    let calls = 0;
    const end = started + seconds * 1000;
    while (performance.now() < end) {
      await gateway.callTool({ name: 'upstream__read_notes', arguments: {} });
      calls++;
    }
    samples.gateway.push((calls * 1000) / (performance.now() - started));
    const after = gatewayTransport.pid ? processCpuMicros(gatewayTransport.pid) : undefined;
    if (before !== undefined && after !== undefined) samples.cpu.push((after - before) / calls);
  }
  const directRate = median(samples.direct);
  const gatewayRate = median(samples.gateway);
  const added = 1_000_000 / gatewayRate - 1_000_000 / directRate;
  table(
    `Gateway cost per call over stdio (one call at a time, median of ${rounds} × ${seconds}s)`,
    ['path', 'calls/s', 'latency µs', 'gateway CPU µs/call'],
    [
      ['client → upstream (stdio)', directRate.toFixed(0), (1_000_000 / directRate).toFixed(0), '—'],
      [
        'client → candor gateway → upstream (stdio)',
        gatewayRate.toFixed(0),
        (1_000_000 / gatewayRate).toFixed(0),
        samples.cpu.length > 0 ? median(samples.cpu).toFixed(0) : 'n/a',
      ],
      ['added by the gateway', '', added.toFixed(0), ''],
    ],
  );
  figures.stdio = {
    directCallsPerSecond: Math.round(directRate),
    gatewayCallsPerSecond: Math.round(gatewayRate),
    addedLatencyMicros: Math.round(added),
    gatewayCpuMicrosPerCall: samples.cpu.length > 0 ? Math.round(median(samples.cpu)) : null,
  };
  await direct.close();
  await gateway.close();
}

interface Bridge {
  name: string;
  tool: string;
  start(port: number): { child: ChildProcess; url: string };
}

const bridges: Bridge[] = [
  {
    name: 'candor gateway --http',
    tool: 'upstream__read_notes',
    start: (port) => ({
      url: `http://127.0.0.1:${port}/mcp`,
      child: spawn(
        process.execPath,
        [cli, 'gateway', '--http', `127.0.0.1:${port}`, '--policy', 'yolo', '--', process.execPath, upstream],
        { stdio: 'ignore', detached: true },
      ),
    }),
  },
  {
    name: 'mcp-proxy (streamable HTTP)',
    tool: 'read_notes',
    start: (port) => ({
      url: `http://127.0.0.1:${port}/mcp`,
      child: spawn(
        join(peers, 'node_modules', '.bin', 'mcp-proxy'),
        ['--host', '127.0.0.1', '--port', String(port), '--', process.execPath, upstream],
        { stdio: 'ignore', detached: true },
      ),
    }),
  },
  {
    name: 'supergateway --stateful (streamable HTTP)',
    tool: 'read_notes',
    start: (port) => ({
      url: `http://127.0.0.1:${port}/mcp`,
      child: spawn(
        join(peers, 'node_modules', '.bin', 'supergateway'),
        [
          '--stdio',
          `${process.execPath} ${upstream}`,
          '--outputTransport',
          'streamableHttp',
          '--stateful',
          '--port',
          String(port),
          '--logLevel',
          'none',
        ],
        { stdio: 'ignore', detached: true },
      ),
    }),
  },
];

/** One POST; the JSON answer, from a JSON body or the first non-empty SSE `data:` line. */
async function post(url: string, body: unknown, headers: Record<string, string>) {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await response.text();
  const data = (response.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:') && line.slice(5).trim() !== '')
        .map((line) => line.slice(5))[0]
    : text;
  const json: any = data ? JSON.parse(data) : undefined;
  return { status: response.status, headers: response.headers, json };
}

/**
 * Open an MCP session on a bridge (initialize + initialized) and return the
 * headers a tools/call needs; the load itself is autocannon, so the client side
 * costs little and the bridges are what is measured.
 */
async function openSession(url: string): Promise<Record<string, string>> {
  const init = await post(
    url,
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    },
    JSON_HEADERS,
  );
  if (init.status !== 200) throw new Error(`${url}: initialize answered ${init.status}`);
  const headers: Record<string, string> = { ...JSON_HEADERS, 'mcp-protocol-version': '2025-11-25' };
  const session = init.headers.get('mcp-session-id');
  if (session) headers['mcp-session-id'] = session;
  await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return headers;
}

async function loadCalls(
  url: string,
  tool: string,
  headers: Record<string, string>,
): Promise<{ rate: number; bad: number }> {
  let id = 1;
  const result = await autocannon({
    url,
    method: 'POST',
    headers,
    connections: IN_FLIGHT,
    duration: seconds,
    pipelining: 1,
    // A fresh JSON-RPC id for every request: bridges route answers by id within a session.
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: id++,
            method: 'tools/call',
            params: { name: tool, arguments: {} },
          }),
        }),
      },
    ],
  });
  return { rate: result.requests.average, bad: result.non2xx + result.errors };
}

async function httpThroughput(): Promise<void> {
  ensurePeers();
  const running: Array<{
    bridge: Bridge;
    child: ChildProcess;
    url: string;
    headers: Record<string, string>;
    samples: number[];
    bad: number;
    /** The bridge process's CPU over all rounds (µs) and the calls it served. */
    cpuMicros: number;
    calls: number;
  }> = [];
  for (const bridge of bridges) {
    const port = await freePort();
    const { child, url } = bridge.start(port);
    await waitForHttp(url, child);
    const headers = await openSession(url);
    const check = await post(
      url,
      { jsonrpc: '2.0', id: 'check', method: 'tools/call', params: { name: bridge.tool, arguments: {} } },
      headers,
    );
    if (check.json?.result?.isError !== undefined && check.json.result.isError)
      throw new Error(`${bridge.name}: ${JSON.stringify(check.json)}`);
    if (!check.json?.result) throw new Error(`${bridge.name}: no result: ${JSON.stringify(check.json)}`);
    running.push({ bridge, child, url, headers, samples: [], bad: 0, cpuMicros: 0, calls: 0 });
  }
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? running : [...running].reverse();
    for (const contender of order) {
      // The bridge process alone: the upstream it started is a process of its own.
      const before = processCpuMicros(contender.child.pid!);
      const { rate, bad } = await loadCalls(contender.url, contender.bridge.tool, contender.headers);
      const after = processCpuMicros(contender.child.pid!);
      contender.samples.push(rate);
      contender.bad += bad;
      if (before !== undefined && after !== undefined) {
        contender.cpuMicros += after - before;
        contender.calls += rate * seconds;
      }
    }
  }
  const candor = median(running[0]!.samples);
  table(
    `Throughput in front of one stdio server, Streamable HTTP, ${IN_FLIGHT} calls in flight (autocannon, one session; median of ${rounds} × ${seconds}s)`,
    ['bridge', 'calls/s', 'failed responses', 'candor gateway ×', 'bridge process CPU µs/call'],
    running.map(({ bridge, samples, bad, cpuMicros, calls }) => [
      bridge.name,
      median(samples).toFixed(0),
      String(bad),
      (candor / median(samples)).toFixed(1),
      calls > 0 ? (cpuMicros / calls).toFixed(0) : 'n/a',
    ]),
  );
  figures.http = Object.fromEntries(
    running.map(({ bridge, samples, bad, cpuMicros, calls }) => [
      bridge.name,
      {
        callsPerSecond: Math.round(median(samples)),
        failed: bad,
        cpuMicrosPerCall: calls > 0 ? Math.round(cpuMicros / calls) : null,
      },
    ]),
  );
  // Each bridge runs in its own process group: stop it and the stdio server it started.
  for (const { child } of running) if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
}

const figures: { stdio?: object; http?: object } = {};

await stdioOverhead();
await httpThroughput();
record('gateway', { rounds, seconds, inFlight: IN_FLIGHT, ...figures });
