/**
 * tools/call over Streamable HTTP in the 2026-07-28 era (issue 4): candor
 * against the official SDK v2 `createMcpHandler` and the bare node:http echo
 * (the limit, issue 14), side by side in one run, same request, same load.
 * Every MCP server is probed first: one that does not answer a modern
 * tools/call correctly is not measured.
 *
 * BENCH_SECONDS / BENCH_CONNECTIONS tune the load (defaults 10 s, 32).
 */
import {
  BENCH_CONNECTIONS,
  BENCH_SECONDS,
  load,
  MODERN_ECHO_CALL,
  MODERN_ECHO_HEADERS,
  post,
  processCpuMicros,
  record,
  startServer,
  table,
} from './_harness.js';

const body = MODERN_ECHO_CALL;
const headers = MODERN_ECHO_HEADERS;

const servers = [
  { label: 'bare node:http echo', file: 'bare-node.ts', args: [] as string[] },
  { label: 'candor (dual-era endpoint)', file: 'candor.ts', args: ['1'] },
  { label: 'official SDK v2 createMcpHandler', file: 'sdk-v2.ts', args: ['1'] },
];

const rows: string[][] = [];
const rates = new Map<string, number>();
const cpu = new Map<string, number>();
for (const { label, file, args } of servers) {
  const server = await startServer(file, args);
  try {
    const probe = await post(server.url, body, headers);
    const text = probe.json?.result?.content?.[0]?.text;
    const modern = file !== 'bare-node.ts';
    if (probe.status !== 200 || text !== 'hello' || (modern && probe.json?.result?.resultType !== 'complete')) {
      throw new Error(`${label} did not answer a modern tools/call: ${probe.status} ${JSON.stringify(probe.json)}`);
    }
    await load({ url: server.url, body: JSON.stringify(body), headers, seconds: 2, connections: BENCH_CONNECTIONS }); // warm-up
    const cpuBefore = processCpuMicros(server.child.pid!);
    const result = await load({
      url: server.url,
      body: JSON.stringify(body),
      headers,
      seconds: BENCH_SECONDS,
      connections: BENCH_CONNECTIONS,
    });
    const cpuAfter = processCpuMicros(server.child.pid!);
    rates.set(file, result.requestsPerSecond);
    if (cpuBefore !== undefined && cpuAfter !== undefined) {
      cpu.set(file, (cpuAfter - cpuBefore) / (result.requestsPerSecond * BENCH_SECONDS));
    }
    rows.push([
      label,
      result.requestsPerSecond.toFixed(0),
      `${result.latencyP50} ms`,
      `${result.latencyP99} ms`,
      cpu.has(file) ? `${cpu.get(file)!.toFixed(1)} µs` : 'n/a',
      String(result.non2xx + result.errors),
    ]);
  } finally {
    await server.stop();
  }
}

table(
  `tools/call, 2026-07-28 era, HTTP (${BENCH_CONNECTIONS} connections, ${BENCH_SECONDS} s each)`,
  ['server', 'requests/s', 'p50', 'p99', 'server CPU/request', 'errors'],
  rows,
);
const ratio = (rates.get('candor.ts') ?? 0) / (rates.get('sdk-v2.ts') ?? Number.NaN);
const ofBare = (rates.get('candor.ts') ?? 0) / (rates.get('bare-node.ts') ?? Number.NaN);
console.log(`\ncandor / SDK v2: ${ratio.toFixed(1)}×; candor / bare node:http: ${(ofBare * 100).toFixed(0)}%`);
record('engine-modern', {
  connections: BENCH_CONNECTIONS,
  seconds: BENCH_SECONDS,
  callsPerSecond: {
    'bare node:http echo': rates.get('bare-node.ts'),
    candor: rates.get('candor.ts'),
    'SDK v2 createMcpHandler': rates.get('sdk-v2.ts'),
  },
  serverCpuMicrosPerRequest: {
    'bare node:http echo': cpu.get('bare-node.ts'),
    candor: cpu.get('candor.ts'),
    'SDK v2 createMcpHandler': cpu.get('sdk-v2.ts'),
  },
});
