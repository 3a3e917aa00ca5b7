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
 * 2. Throughput over Streamable HTTP with 16 calls in flight, load from wrk
 *    (bench/wrk/mcp-session.lua opens a session and gives every call its own id):
 *    `candor gateway --http` against the stdio→HTTP bridges people use today,
 *    `mcp-proxy` (its fast flags, stateful and stateless, and its defaults) and
 *    `supergateway` (`--stateful`: its default stateless mode starts the stdio
 *    server for every POST),
 *    each in front of the same upstream, and candor's engine serving one tool
 *    without a gateway (the goal compares the gateway's CPU per call with it).
 *    Calls per second, and each contender's own process CPU per call
 *    (/proc/<pid>/stat). The bridges are installed on demand into
 *    .cache/bench-peers (not dependencies of candor).
 *
 * Rounds alternate between contenders so a noisy machine slows all alike;
 * calls/s is the median round, CPU per call is over all rounds. Nothing here
 * asserts a time.
 *
 *   npm run build && node --import tsx bench/gateway.ts [rounds] [seconds-per-round]
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { JSON_HEADERS, processCpuMicros, record, table } from './_harness.js';
import { ensureWrk, type WrkResult, wrkLoad } from './_wrk.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(repo, 'dist', 'src', 'cli', 'main.js');
const upstream = join(repo, 'test', 'fixtures', 'gateway', 'upstream.mjs');
const peers = join(repo, '.cache', 'bench-peers');
const rounds = Number(process.argv[2] ?? 5);
const seconds = Number(process.argv[3] ?? 4);
const IN_FLIGHT = 16;
const PROTOCOL = '2025-11-25';

/** A bridge's binary, installed into .cache/bench-peers. */
const bin = (name: string) => join(peers, 'node_modules', '.bin', name);

/** mcp-proxy on `port` in front of the upstream, with `flags` between the port and the command. */
const mcpProxy = (port: number, flags: string[]) =>
  spawn(bin('mcp-proxy'), ['--host', '127.0.0.1', '--port', String(port), ...flags, '--', process.execPath, upstream], {
    stdio: 'ignore',
    detached: true,
  });

function ensurePeers(): void {
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
  /** The configuration, named in the report. */
  config: string;
  /** `best`: the fastest flags its documentation offers; `default`: as its README starts it. */
  kind: 'best' | 'default' | 'engine';
  tool: string;
  args?: Record<string, unknown>;
  start(port: number): { child: ChildProcess; url: string };
}

const bridges: Bridge[] = [
  {
    name: 'candor gateway',
    config: '`candor gateway --http --policy yolo` (its defaults)',
    kind: 'best',
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
    name: 'mcp-proxy',
    config: '`mcp-proxy --server stream --no-eventStore` (stateful)',
    kind: 'best',
    tool: 'read_notes',
    start: (port) => ({
      url: `http://127.0.0.1:${port}/mcp`,
      child: mcpProxy(port, ['--server', 'stream', '--no-eventStore']),
    }),
  },
  {
    name: 'mcp-proxy',
    // Stateless: a proxy server object per request, all over the one stdio client it started.
    config: '`mcp-proxy --server stream --no-eventStore --stateless`',
    kind: 'best',
    tool: 'read_notes',
    start: (port) => ({
      url: `http://127.0.0.1:${port}/mcp`,
      child: mcpProxy(port, ['--server', 'stream', '--no-eventStore', '--stateless']),
    }),
  },
  {
    name: 'mcp-proxy',
    config: '`mcp-proxy` (defaults: SSE and stream endpoints, event store)',
    kind: 'default',
    tool: 'read_notes',
    start: (port) => ({
      url: `http://127.0.0.1:${port}/mcp`,
      child: mcpProxy(port, []),
    }),
  },
  {
    name: 'supergateway',
    // Its default (stateless) spawns the stdio server for every POST: not measured under load.
    config: '`supergateway --outputTransport streamableHttp --stateful --logLevel none`',
    kind: 'best',
    tool: 'read_notes',
    start: (port) => ({
      url: `http://127.0.0.1:${port}/mcp`,
      child: spawn(
        bin('supergateway'),
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
  {
    // The engine alone (no gateway): what one tools/call over HTTP costs candor's server, for the goal's ratio.
    name: 'candor engine',
    config: '`bench/servers/candor.ts` (one echo tool, stateful session)',
    kind: 'engine',
    tool: 'echo',
    args: { text: 'hello' },
    start: (port) => ({
      url: `http://127.0.0.1:${port}/mcp`,
      child: spawn(
        process.execPath,
        ['--import', 'tsx', join(repo, 'bench', 'servers', 'candor.ts'), '1', 'stateful', String(port)],
        { stdio: 'ignore', detached: true, env: { ...process.env, NODE_ENV: 'production' } },
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

/** Open an MCP session (initialize + initialized) for the probe call; the load opens its own. */
async function openSession(url: string): Promise<Record<string, string>> {
  const init = await post(
    url,
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    },
    JSON_HEADERS,
  );
  if (init.status !== 200) throw new Error(`${url}: initialize answered ${init.status}`);
  const headers: Record<string, string> = { ...JSON_HEADERS, 'mcp-protocol-version': PROTOCOL };
  const session = init.headers.get('mcp-session-id');
  if (session) headers['mcp-session-id'] = session;
  await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return headers;
}

/**
 * Calls per second and the contender's own CPU per call under wrk: the Lua script
 * opens a session of its own and gives every call its own id, IN_FLIGHT connections.
 */
async function httpThroughput(): Promise<void> {
  ensurePeers();
  ensureWrk();
  // The warm-up run opens each contender's session; the measured runs reuse it.
  const sessions = mkdtempSync(join(tmpdir(), 'candor-bench-sessions-'));
  const running: Array<{
    bridge: Bridge;
    child: ChildProcess;
    url: string;
    rounds: WrkResult[];
  }> = [];
  try {
    for (const bridge of bridges) {
      const port = await freePort();
      const { child, url } = bridge.start(port);
      running.push({ bridge, child, url, rounds: [] });
      await waitForHttp(url, child);
      const headers = await openSession(url);
      const check = await post(
        url,
        {
          jsonrpc: '2.0',
          id: 'check',
          method: 'tools/call',
          params: { name: bridge.tool, arguments: bridge.args ?? {} },
        },
        headers,
      );
      if (!check.json?.result || check.json.result.isError)
        throw new Error(`${bridge.config}: no result: ${JSON.stringify(check.json)}`);
    }
    const load = (contender: (typeof running)[number], duration: number) =>
      wrkLoad({
        url: contender.url,
        message: {
          jsonrpc: '2.0',
          id: 0,
          method: 'tools/call',
          params: { name: contender.bridge.tool, arguments: contender.bridge.args ?? {} },
        },
        headers: { ...JSON_HEADERS, 'mcp-protocol-version': PROTOCOL },
        seconds: duration,
        connections: IN_FLIGHT,
        // The bridge process alone: the upstream it started is a process of its own.
        pid: contender.child.pid!,
        openSession: PROTOCOL,
        sessionFile: join(sessions, `${running.indexOf(contender)}.session`),
      });
    for (const contender of running) await load(contender, 2); // warm-up, and the session opened
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? running : [...running].reverse();
      for (const contender of order) {
        const r = await load(contender, seconds);
        if (r.errors > 0) throw new Error(`${contender.bridge.config}: ${r.errorDetail} under load`);
        contender.rounds.push(r);
      }
    }
  } finally {
    // Each bridge runs in its own process group: stop it and the stdio server it started.
    for (const { child } of running) if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    rmSync(sessions, { recursive: true, force: true });
  }
  const cpuPerCall = (rs: WrkResult[]) =>
    rs.reduce((t, r) => t + r.userMicros + r.sysMicros, 0) / rs.reduce((t, r) => t + r.requests, 0);
  const rate = (rs: WrkResult[]) => median(rs.map((r) => r.requestsPerSecond));
  const candor = running[0]!;
  const engine = running.find((c) => c.bridge.kind === 'engine')!;
  const bestBridges = running.filter((c) => c.bridge.kind === 'best' && c !== candor);
  // The better bridge by calls/s; the ratio is the median of the rounds' ratios against it.
  const better = bestBridges.reduce((a, b) => (rate(b.rounds) > rate(a.rounds) ? b : a));
  const roundRatio = (a: WrkResult[], b: WrkResult[]) =>
    median(a.map((r, i) => r.requestsPerSecond / (b[i]?.requestsPerSecond ?? Number.NaN)));
  table(
    `Throughput in front of one stdio server, Streamable HTTP, wrk -t1 -c${IN_FLIGHT} (the script opens a session; median of ${rounds} × ${seconds}s, order alternating)`,
    ['contender', 'calls/s', 'rounds', 'process CPU µs/call', 'candor gateway × (calls/s)'],
    running.map(({ bridge, rounds: rs }) => [
      bridge.config,
      rate(rs).toFixed(0),
      rs.map((r) => r.requestsPerSecond.toFixed(0)).join(' '),
      cpuPerCall(rs).toFixed(0),
      roundRatio(candor.rounds, rs).toFixed(2),
    ]),
  );
  figures.http = {
    load: 'wrk',
    contenders: running.map(({ bridge, rounds: rs }) => ({
      name: bridge.name,
      config: bridge.config,
      kind: bridge.kind,
      callsPerSecond: Math.round(rate(rs)),
      perRound: rs.map((r) => Math.round(r.requestsPerSecond)),
      cpuMicrosPerCall: Math.round(cpuPerCall(rs) * 10) / 10,
      cpuPerRound: rs.map((r) => Math.round(((r.userMicros + r.sysMicros) / r.requests) * 10) / 10),
    })),
    betterBridge: better.bridge.config,
    /** candor gateway's calls/s over the better bridge's, median of the rounds' ratios. */
    callsRatio: roundRatio(candor.rounds, better.rounds),
    /** The better bridge's CPU per call over candor gateway's. */
    cpuRatio: cpuPerCall(better.rounds) / cpuPerCall(candor.rounds),
    /** candor gateway's CPU per proxied call over the engine's CPU per HTTP request (goal ≤ 2). */
    gatewayOverEngineCpu: cpuPerCall(candor.rounds) / cpuPerCall(engine.rounds),
  };
}

const figures: { stdio?: object; http?: object } = {};

await stdioOverhead();
await httpThroughput();
record('gateway', { rounds, seconds, inFlight: IN_FLIGHT, ...figures });
