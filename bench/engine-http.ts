/**
 * Engine benchmark (issue 3), all in one run on one machine:
 * - tools/call requests per second over Streamable HTTP (2025 era): candor
 *   (stateful and stateless), SDK v1 (stateful, stateless), SDK v2
 *   createMcpHandler, and a bare node:http JSON-RPC echo (the limit);
 * - tools/list end-to-end latency over HTTP for 1,000 and 10,000 tools.
 * Load comes from autocannon in this process; every server runs in its own.
 */
import { writeFileSync } from 'node:fs';
import { barChart } from './_chart.js';
import {
  BENCH_CONNECTIONS,
  BENCH_SECONDS,
  JSON_HEADERS,
  load,
  post,
  processCpuMicros,
  type RunningServer,
  record,
  startServer,
  table,
} from './_harness.js';

const PROTOCOL = '2025-11-25';
const INIT = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } },
};
const CALL = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' } } };
const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

interface Target {
  label: string;
  file: string;
  /** The server script's arguments for a given number of tools. */
  args: (tools: number) => string[];
  /** Initialise a session first and send its id (stateful servers). */
  session: boolean;
}

/** Headers for a server: initialise once when it keeps sessions. */
async function headersFor(server: RunningServer, target: Target): Promise<Record<string, string>> {
  const headers: Record<string, string> = { ...JSON_HEADERS, 'mcp-protocol-version': PROTOCOL };
  if (!target.session) return headers;
  const init = await post(server.url, INIT, JSON_HEADERS);
  const sid = init.headers.get('mcp-session-id');
  if (!sid) throw new Error(`${target.label}: initialize returned no session id (${init.status})`);
  headers['mcp-session-id'] = sid;
  await fetch(server.url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  return headers;
}

/** Server CPU per request under load (µs), by target label: steadier than req/s on a shared machine. */
const cpuPerRequest = new Map<string, number>();

async function callThroughput(targets: Target[]): Promise<Map<string, number>> {
  const results = new Map<string, number>();
  const rows: string[][] = [];
  for (const target of targets) {
    const server = await startServer(target.file, target.args(1));
    try {
      const headers = await headersFor(server, target);
      const probe = await post(server.url, CALL, headers);
      const text = probe.json?.result?.content?.[0]?.text;
      if (text !== 'hello')
        throw new Error(`${target.label}: probe failed: ${probe.status} ${JSON.stringify(probe.json)}`);
      await load({ url: server.url, body: JSON.stringify(CALL), headers, seconds: 2, connections: BENCH_CONNECTIONS }); // warm-up
      const cpuBefore = processCpuMicros(server.child.pid!);
      const r = await load({
        url: server.url,
        body: JSON.stringify(CALL),
        headers,
        seconds: BENCH_SECONDS,
        connections: BENCH_CONNECTIONS,
      });
      if (r.non2xx > 0 || r.errors > 0)
        throw new Error(`${target.label}: ${r.non2xx} non-2xx, ${r.errors} errors under load`);
      const cpuAfter = processCpuMicros(server.child.pid!);
      const cpu =
        cpuBefore === undefined || cpuAfter === undefined
          ? undefined
          : (cpuAfter - cpuBefore) / (r.requestsPerSecond * BENCH_SECONDS);
      results.set(target.label, r.requestsPerSecond);
      if (cpu !== undefined) cpuPerRequest.set(target.label, cpu);
      rows.push([
        target.label,
        Math.round(r.requestsPerSecond).toLocaleString('en'),
        `${r.latencyP50} ms`,
        `${r.latencyP99} ms`,
        cpu === undefined ? 'n/a' : `${cpu.toFixed(1)} µs`,
      ]);
    } finally {
      await server.stop();
    }
  }
  const bare = results.get('bare node:http echo') ?? Number.NaN;
  table(
    `tools/call over HTTP (${BENCH_CONNECTIONS} connections, ${BENCH_SECONDS} s each)`,
    ['server', 'requests/s', 'p50', 'p99', 'server CPU/request', 'vs bare'],
    rows.map((r) => [...r, `${((results.get(r[0]!)! / bare) * 100).toFixed(0)}%`]),
  );
  return results;
}

async function listLatency(targets: Target[], sizes: number[]): Promise<Map<string, number>> {
  const results = new Map<string, number>();
  const rows: string[][] = [];
  for (const size of sizes) {
    for (const target of targets) {
      const server = await startServer(target.file, target.args(size));
      try {
        const headers = await headersFor(server, target);
        const first = await post(server.url, LIST, headers);
        const count = first.json?.result?.tools?.length;
        if (count !== size) throw new Error(`${target.label}: expected ${size} tools, got ${count}`);
        const runs = size >= 10_000 ? 10 : 30;
        const start = performance.now();
        for (let i = 0; i < runs; i++) await post(server.url, LIST, headers);
        const ms = (performance.now() - start) / runs;
        results.set(`${target.label}@${size}`, ms);
        rows.push([`${size.toLocaleString('en')} tools`, target.label, `${ms.toFixed(2)} ms`]);
      } finally {
        await server.stop();
      }
    }
  }
  table('tools/list end to end over HTTP (mean of sequential requests)', ['size', 'server', 'latency'], rows);
  return results;
}

const callTargets: Target[] = [
  { label: 'bare node:http echo', file: 'bare-node.ts', args: () => [], session: false },
  { label: 'candor (stateful)', file: 'candor.ts', args: (n) => [String(n), 'stateful'], session: true },
  { label: 'candor (stateless)', file: 'candor.ts', args: (n) => [String(n), 'stateless'], session: false },
  { label: 'SDK v1 (stateful)', file: 'sdk-v1.ts', args: (n) => ['stateful', String(n)], session: true },
  { label: 'SDK v1 (stateless)', file: 'sdk-v1.ts', args: (n) => ['stateless', String(n)], session: false },
  { label: 'SDK v2 createMcpHandler', file: 'sdk-v2.ts', args: (n) => [String(n)], session: false },
];
const listTargets: Target[] = [callTargets[1]!, callTargets[3]!, callTargets[5]!].map((t) => ({
  ...t,
  label: t.label.split(' (')[0]!.replace(' createMcpHandler', ''),
}));

const calls = await callThroughput(callTargets);
const lists = await listLatency(listTargets, [1_000, 10_000]);

const ratio = (a: number | undefined, b: number | undefined) => (a && b ? a / b : Number.NaN);
const summary = {
  'candor stateful / SDK v2': ratio(calls.get('candor (stateful)'), calls.get('SDK v2 createMcpHandler')),
  'candor stateless / SDK v2': ratio(calls.get('candor (stateless)'), calls.get('SDK v2 createMcpHandler')),
  'candor stateful / SDK v1 stateful': ratio(calls.get('candor (stateful)'), calls.get('SDK v1 (stateful)')),
  'candor stateful / bare node:http': ratio(calls.get('candor (stateful)'), calls.get('bare node:http echo')),
  'tools/list 1,000: SDK v1 / candor (end to end)': ratio(lists.get('SDK v1@1000'), lists.get('candor@1000')),
  'tools/list 10,000: SDK v1 / candor (end to end)': ratio(lists.get('SDK v1@10000'), lists.get('candor@10000')),
  'tools/list 1,000: SDK v2 / candor (end to end)': ratio(lists.get('SDK v2@1000'), lists.get('candor@1000')),
};
table(
  'Ratios',
  ['comparison', 'ratio'],
  Object.entries(summary).map(([k, v]) => [k, `${v.toFixed(2)}×`]),
);
record('engine-http', {
  connections: BENCH_CONNECTIONS,
  seconds: BENCH_SECONDS,
  callsPerSecond: Object.fromEntries(calls),
  serverCpuMicrosPerRequest: Object.fromEntries(cpuPerRequest),
  listLatencyMs: Object.fromEntries(lists),
});
writeFileSync(
  new URL('./results-engine-http.json', import.meta.url),
  `${JSON.stringify({ date: new Date().toISOString(), calls: Object.fromEntries(calls), lists: Object.fromEntries(lists), summary }, null, 2)}\n`,
);
writeFileSync(
  new URL('../docs/bench-http.svg', import.meta.url),
  barChart({
    title: `tools/call over Streamable HTTP, requests per second (${BENCH_CONNECTIONS} connections)`,
    unit: 'req/s',
    bars: callTargets
      .filter((t) => calls.has(t.label))
      .map((t) => ({ label: t.label, value: calls.get(t.label)!, ours: t.label.startsWith('candor') })),
  }),
);
