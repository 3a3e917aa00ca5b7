/**
 * tools/call over Streamable HTTP in the 2026-07-28 era (issue 4): candor
 * against the official SDK v2 `createMcpHandler`, side by side in one run, same
 * request, same load. Every server is probed first: a server that does not
 * answer a modern tools/call correctly is not measured.
 *
 * BENCH_SECONDS / BENCH_CONNECTIONS tune the load (defaults 10 s, 32).
 */
import { BENCH_CONNECTIONS, BENCH_SECONDS, JSON_HEADERS, load, post, startServer, table } from './_harness.js';

const VERSION = '2026-07-28';
const body = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'echo',
    arguments: { text: 'hello' },
    _meta: {
      'io.modelcontextprotocol/protocolVersion': VERSION,
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
    },
  },
};
const headers = {
  ...JSON_HEADERS,
  'mcp-protocol-version': VERSION,
  'mcp-method': 'tools/call',
  'mcp-name': 'echo',
};

const servers = [
  { label: 'candor (dual-era endpoint)', file: 'candor.ts', args: ['1'] },
  { label: 'official SDK v2 createMcpHandler', file: 'sdk-v2.ts', args: ['1'] },
];

const rows: string[][] = [];
const rates = new Map<string, number>();
for (const { label, file, args } of servers) {
  const server = await startServer(file, args);
  try {
    const probe = await post(server.url, body, headers);
    const text = probe.json?.result?.content?.[0]?.text;
    if (probe.status !== 200 || text !== 'hello' || probe.json?.result?.resultType !== 'complete') {
      throw new Error(`${label} did not answer a modern tools/call: ${probe.status} ${JSON.stringify(probe.json)}`);
    }
    const result = await load({
      url: server.url,
      body: JSON.stringify(body),
      headers,
      seconds: BENCH_SECONDS,
      connections: BENCH_CONNECTIONS,
    });
    rates.set(file, result.requestsPerSecond);
    rows.push([
      label,
      result.requestsPerSecond.toFixed(0),
      `${result.latencyP50} ms`,
      `${result.latencyP99} ms`,
      String(result.non2xx + result.errors),
    ]);
  } finally {
    await server.stop();
  }
}

table(
  `tools/call, 2026-07-28 era, HTTP (${BENCH_CONNECTIONS} connections, ${BENCH_SECONDS} s each)`,
  ['server', 'requests/s', 'p50', 'p99', 'errors'],
  rows,
);
const ratio = (rates.get('candor.ts') ?? 0) / (rates.get('sdk-v2.ts') ?? Number.NaN);
console.log(`\ncandor / SDK v2: ${ratio.toFixed(1)}x (target: at least 10x)`);
