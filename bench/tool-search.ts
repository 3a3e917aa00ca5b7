/**
 * The gateway's search mode, measured; not a test:
 *
 * 1. Quality: the 20 written queries of test/fixtures/gateway/catalog.mjs over
 *    the 300 generated catalog tools plus the real tools of server-filesystem,
 *    server-memory and server-everything (fetched live), ranked by the
 *    registry's BM25 search exactly as `find_tools` ranks them: top-1 and top-3.
 * 2. Tokens: the `tools/list` an SDK v2 client gets from `candor gateway` in
 *    front of the six catalog servers (300 tools), `all` vs `search` mode
 *    (JSON characters / 4).
 * 3. Latency: `find_tools` in process at 10,000 tools (the catalog repeated):
 *    p50 / p99 over 20,000 calls, and the cost of building the index once.
 *
 *   npm run build && node --import tsx bench/tool-search.ts
 */
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Peer } from '../src/engine/peer.js';
import { createGateway } from '../src/gateway/gateway.js';
import { FIND_TOOLS, ToolSearch } from '../src/gateway/tool-search.js';
import type { ToolSource } from '../src/pipeline/types.js';
import { ToolRegistry } from '../src/registry/registry.js';
import { defineTool } from '../src/tool/define.js';
import type { ToolContext } from '../src/tool/types.js';
import { CATALOG_SERVERS, HELD_OUT, QUERIES, serverTools } from '../test/fixtures/gateway/catalog.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(repo, 'package.json'));
const catalogServer = join(repo, 'test', 'fixtures', 'gateway', 'catalog-server.mjs');
const silent = { error() {}, warn() {}, info() {}, debug() {} };

interface RawTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

const define = (server: string, tool: RawTool) =>
  defineTool({
    name: `${server}__${tool.name}`,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description ?? '',
    input: { type: 'object' },
    annotations: (tool.annotations ?? {}) as never,
    handler: () => 'ok',
  });

async function realTools(): Promise<Record<string, RawTool[]>> {
  const out: Record<string, RawTool[]> = {};
  const bin = (pkg: string) => require.resolve(`@modelcontextprotocol/${pkg}/dist/index.js`);
  const servers = {
    filesystem: [bin('server-filesystem'), tmpdir()],
    memory: [bin('server-memory')],
    everything: [bin('server-everything')],
  };
  for (const [name, args] of Object.entries(servers)) {
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
    out[name] = (await client.listTools()).tools as RawTool[];
    await client.close();
  }
  return out;
}

function sessionFind(search: ToolSearch) {
  // Without a shared store the scope answers at once.
  const view = search.scope({ peer: new Peer({}, { onClose() {} }), info: undefined, era: 'legacy' }) as ToolSource;
  const tool = view.get(FIND_TOOLS)!;
  return (args: Record<string, unknown>) =>
    tool.handler(args, {} as ToolContext) as Promise<{ structuredContent: { tools: Array<{ name: string }> } }>;
}

async function quality(): Promise<void> {
  const registry = new ToolRegistry();
  for (const server of CATALOG_SERVERS) registry.add(...serverTools(server).map((t: RawTool) => define(server, t)));
  for (const [server, tools] of Object.entries(await realTools())) registry.add(...tools.map((t) => define(server, t)));
  const search = new ToolSearch({ registry, notify() {} });
  registry.add(search.definition);
  for (const [label, set] of [
    ['written', QUERIES],
    ['held-out', HELD_OUT],
  ] as const) {
    let top1 = 0;
    let top3 = 0;
    for (const { query, expect } of set) {
      const find = sessionFind(search);
      const found = (await find({ query, limit: 3 })).structuredContent.tools.map((t) => t.name);
      if (found[0] === expect) top1++;
      if (found.includes(expect)) top3++;
      if (found[0] !== expect)
        console.log(
          `  ${found.includes(expect) ? 'top-3' : 'miss '}: ${query} → ${found.join(', ')} (wanted ${expect})`,
        );
    }
    console.log(
      `quality over ${registry.size - 1} tools, ${set.length} ${label} queries: top-1 ${(top1 / set.length).toFixed(2)}, top-3 ${(top3 / set.length).toFixed(2)}`,
    );
  }
}

async function tokens(): Promise<void> {
  const out: Record<string, number> = {};
  for (const mode of ['all', 'search'] as const) {
    const servers = Object.fromEntries(
      CATALOG_SERVERS.map((s) => [s, { command: process.execPath, args: [catalogServer, s] }]),
    );
    const gateway = await createGateway({ servers, toolList: mode, logger: silent });
    const listener = await gateway.listen({ port: 0, handleSignals: false });
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    const list = await client.listTools();
    out[mode] = JSON.stringify(list).length / 4;
    console.log(
      `tools/list in ${mode} mode: ${list.tools.length} tools, ${JSON.stringify(list).length} JSON characters ≈ ${Math.round(out[mode]!)} tokens`,
    );
    await client.close();
    await listener.close();
    await gateway.close();
  }
}

async function latency(): Promise<void> {
  const registry = new ToolRegistry();
  const copies = Math.ceil(10_000 / 300);
  let count = 0;
  for (let copy = 0; copy < copies && count < 10_000; copy++) {
    for (const server of CATALOG_SERVERS) {
      const name = copy === 0 ? server : `${server}-${copy + 1}`;
      const tools = serverTools(name).slice(0, 10_000 - count);
      registry.add(...tools.map((t: RawTool) => define(name, t)));
      count += tools.length;
    }
  }
  const search = new ToolSearch({ registry, notify() {} });
  registry.add(search.definition);
  const queries = QUERIES.map((q) => q.query);
  let started = performance.now();
  await sessionFind(search)({ query: 'warm up the index' });
  const build = performance.now() - started;
  const times: number[] = [];
  const cpu: number[] = [];
  // Garbage collection during the loop: if slow calls were GC pauses, they show here.
  const pauses: number[] = [];
  const spans: Array<[number, number]> = [];
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      pauses.push(entry.duration);
      spans.push([entry.startTime, entry.startTime + entry.duration]);
    }
  });
  const starts: number[] = [];
  gc.observe({ entryTypes: ['gc'] });
  const heapBefore = process.memoryUsage().heapUsed;
  for (let i = 0; i < 20_000; i++) {
    // A new session every 100 calls, so the found set does not just grow.
    const find = sessionFind(search);
    for (let j = 0; j < 100 && i < 20_000; j++, i++) {
      const cpuBefore = process.cpuUsage();
      started = performance.now();
      starts.push(started);
      await find({ query: queries[i % queries.length]! });
      times.push(performance.now() - started);
      const used = process.cpuUsage(cpuBefore);
      cpu.push((used.user + used.system) / 1000);
    }
  }
  // Let the observer deliver the last entries.
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc.disconnect();
  pauses.sort((a, b) => a - b);
  const gcTotal = pauses.reduce((a, b) => a + b, 0);
  console.log(
    `garbage collection during the loop: ${pauses.length} pauses, ${gcTotal.toFixed(1)} ms in all, longest ${(pauses.at(-1) ?? 0).toFixed(2)} ms; heap grew ${((process.memoryUsage().heapUsed - heapBefore) / 1e6).toFixed(1)} MB`,
  );
  // The calls slower than 5 ms: were they waiting for a GC, or for the CPU (other processes)?
  const slow = times.map((_t, i) => i).filter((i) => times[i]! > 5);
  const inGc = slow.filter((i) => spans.some(([from, to]) => from < starts[i]! + times[i]! && to > starts[i]!));
  const slowCpu = slow.map((i) => cpu[i]!).sort((a, b) => a - b);
  console.log(
    `calls over 5 ms wall: ${slow.length} of ${times.length}; ${inGc.length} of them overlap a GC pause; their CPU time p50 ${((slowCpu[Math.floor(slowCpu.length / 2)] ?? 0) * 1000).toFixed(0)} µs, max ${((slowCpu.at(-1) ?? 0) * 1000).toFixed(0)} µs`,
  );
  const perQuery = new Map<string, number[]>();
  times.forEach((t, i) => {
    const q = queries[i % queries.length]!;
    perQuery.set(q, [...(perQuery.get(q) ?? []), t]);
  });
  if (process.env.BENCH_VERBOSE)
    for (const [q, ts] of perQuery) console.log(`  ${(ts.reduce((a, b) => a + b, 0) / ts.length).toFixed(3)} ms  ${q}`);
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const at = (p: number, list = times) => list[Math.min(list.length - 1, Math.floor(list.length * p))]!;
  console.log(
    `find_tools at ${registry.size - 1} tools: index built in ${build.toFixed(1)} ms; p50 ${(at(0.5) * 1000).toFixed(0)} µs, p99 ${(at(0.99) * 1000).toFixed(0)} µs, max ${(times.at(-1)! * 1000).toFixed(0)} µs wall; CPU time p50 ${(at(0.5, cpu) * 1000).toFixed(0)} µs, p99 ${(at(0.99, cpu) * 1000).toFixed(0)} µs (${times.length} calls; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores)`,
  );
}

const only = process.argv[2];
if (!only || only === 'quality') await quality();
if (!only || only === 'tokens') await tokens();
if (!only || only === 'latency') await latency();
