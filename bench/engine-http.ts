/**
 * Engine benchmark, all in one run on one machine:
 * - tools/call over Streamable HTTP under wrk (a C load generator that
 *   saturates the server): a bare node:http JSON-RPC echo (the limit), candor
 *   in the 2025 era (stateful session, stateless) and the 2026-07-28 era, SDK v1
 *   (stateful, stateless) and SDK v2 `createMcpHandler` (both eras); requests
 *   per second and the server's CPU per request (user and system); every peer
 *   in its fastest documented configuration and in its default one, each named
 *   (autocannon's requests per second as an extra column with BENCH_AUTOCANNON=1);
 * - tools/list end-to-end latency over HTTP for 1,000 and 10,000 tools.
 * Every server runs in its own process.
 *
 * BENCH_SECONDS (per load, default 5 here), BENCH_ROUNDS (default 3) and
 * BENCH_CONNECTIONS (default 32) tune the load.
 */
import { writeFileSync } from 'node:fs';
import { barChart } from './_chart.js';
import {
  BENCH_CONNECTIONS,
  JSON_HEADERS,
  load,
  MODERN_ECHO_CALL,
  MODERN_ECHO_HEADERS,
  post,
  processCpuMicros,
  type RunningServer,
  record,
  startServer,
  table,
} from './_harness.js';
import { ensureWrk, type WrkResult, wrkLoad } from './_wrk.js';

const BENCH_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const BENCH_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const AUTOCANNON_SECONDS = Math.min(BENCH_SECONDS, 5);
/** autocannon (load from Node, which tops out near the bare echo's rate) as an extra column: BENCH_AUTOCANNON=1. */
const AUTOCANNON = process.env.BENCH_AUTOCANNON === '1';

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
  /** The request (its id is replaced per request) and the era its headers name. */
  message: object;
  era: '2025' | '2026';
}

/** Headers for a server: initialise once when it keeps sessions. */
async function headersFor(server: RunningServer, target: Target): Promise<Record<string, string>> {
  if (target.era === '2026') return { ...MODERN_ECHO_HEADERS };
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

interface Measured {
  /** Per round, in run order. */
  rounds: WrkResult[];
  autocannon?: { requestsPerSecond: number; cpuMicros?: number };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const sum = (rounds: WrkResult[], key: 'requests' | 'userMicros' | 'sysMicros') =>
  rounds.reduce((total, r) => total + r[key], 0);

/**
 * tools/call under wrk: every server starts first and idles while
 * another is loaded; then BENCH_ROUNDS rounds load each in turn, the order
 * reversed every other round, so a drift in the machine's load falls on all
 * of them alike. Ratios are taken within a round, and their median reported.
 */
async function callThroughput(targets: Target[]): Promise<Map<string, Measured>> {
  const servers = new Map<string, RunningServer>();
  const headers = new Map<string, Record<string, string>>();
  const measured = new Map<string, Measured>();
  try {
    for (const target of targets) {
      const key = `${target.file} ${target.args(1).join(' ')}`;
      let server = servers.get(key);
      if (server === undefined) {
        server = await startServer(target.file, target.args(1));
        servers.set(key, server);
      }
      const h = await headersFor(server, target);
      headers.set(target.label, h);
      const probe = await post(server.url, target.message, h);
      const text = probe.json?.result?.content?.[0]?.text;
      if (text !== 'hello')
        throw new Error(`${target.label}: probe failed: ${probe.status} ${JSON.stringify(probe.json)}`);
      measured.set(target.label, { rounds: [] });
    }
    const serverOf = (target: Target) => servers.get(`${target.file} ${target.args(1).join(' ')}`)!;
    const run = (target: Target, seconds: number) =>
      wrkLoad({
        url: serverOf(target).url,
        message: target.message,
        headers: headers.get(target.label)!,
        seconds,
        connections: BENCH_CONNECTIONS,
        pid: serverOf(target).child.pid!,
      });
    for (const target of targets) await run(target, 2); // warm-up: the JIT settles
    for (let round = 0; round < BENCH_ROUNDS; round++) {
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      for (const target of order) {
        const r = await run(target, BENCH_SECONDS);
        if (r.errors > 0) throw new Error(`${target.label}: ${r.errorDetail} under load`);
        measured.get(target.label)!.rounds.push(r);
      }
    }
    // An extra column on request: autocannon (load from Node, one run each), as this benchmark measured before.
    for (const target of AUTOCANNON ? targets : []) {
      const server = serverOf(target);
      const before = processCpuMicros(server.child.pid!);
      const r = await load({
        url: server.url,
        body: JSON.stringify(target.message),
        headers: headers.get(target.label)!,
        seconds: AUTOCANNON_SECONDS,
        connections: BENCH_CONNECTIONS,
      });
      if (r.non2xx > 0 || r.errors > 0)
        throw new Error(`${target.label}: ${r.non2xx} non-2xx, ${r.errors} errors under autocannon`);
      const after = processCpuMicros(server.child.pid!);
      measured.get(target.label)!.autocannon = {
        requestsPerSecond: r.requestsPerSecond,
        cpuMicros:
          before === undefined || after === undefined
            ? undefined
            : (after - before) / (r.requestsPerSecond * AUTOCANNON_SECONDS),
      };
    }
  } finally {
    for (const server of servers.values()) await server.stop();
  }
  return measured;
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

const old = (label: string, file: string, args: Target['args'], session: boolean): Target => ({
  label,
  file,
  args,
  session,
  message: CALL,
  era: '2025',
});
const modern = (label: string, file: string, args: Target['args']): Target => ({
  label,
  file,
  args,
  session: false,
  message: MODERN_ECHO_CALL,
  era: '2026',
});
const BARE = 'bare node:http echo';
const BARE_MODERN = 'bare node:http echo (2026-07-28 body)';

/**
 * Each peer in named configurations: `best` is the fastest its documentation
 * offers (JSON answers instead of SSE streams, stateless where it has the mode),
 * `default` what its documentation starts with. Ratios are taken against the
 * configuration of a peer and era that cost the least CPU in this run.
 */
interface Peer {
  target: Target;
  peer: 'SDK v1' | 'SDK v2';
  era: '2025' | '2026';
  kind: 'best' | 'default';
}
const v1 = (config: string, mode: 'stateful' | 'stateless', answers: 'json' | 'sse'): Target =>
  old(`SDK v1 ${config}`, 'sdk-v1.ts', (n) => [mode, String(n), answers], mode === 'stateful');
const peers: Peer[] = [
  { target: v1('stateless, enableJsonResponse', 'stateless', 'json'), peer: 'SDK v1', era: '2025', kind: 'best' },
  { target: v1('stateful, enableJsonResponse', 'stateful', 'json'), peer: 'SDK v1', era: '2025', kind: 'best' },
  { target: v1('stateless, default (SSE answers)', 'stateless', 'sse'), peer: 'SDK v1', era: '2025', kind: 'default' },
  { target: v1('stateful, default (SSE answers)', 'stateful', 'sse'), peer: 'SDK v1', era: '2025', kind: 'default' },
  {
    target: old('SDK v2 stateless, enableJsonResponse', 'sdk-v2.ts', (n) => [String(n), 'legacy-json'], false),
    peer: 'SDK v2',
    era: '2025',
    kind: 'best',
  },
  {
    target: old(
      'SDK v2 createMcpHandler, default (stateless fallback, SSE answers)',
      'sdk-v2.ts',
      (n) => [String(n), 'default'],
      false,
    ),
    peer: 'SDK v2',
    era: '2025',
    kind: 'default',
  },
  {
    target: modern("SDK v2 createMcpHandler, responseMode 'json' (2026-07-28)", 'sdk-v2.ts', (n) => [
      String(n),
      'json',
    ]),
    peer: 'SDK v2',
    era: '2026',
    kind: 'best',
  },
  {
    target: modern("SDK v2 createMcpHandler, default responseMode 'auto' (2026-07-28)", 'sdk-v2.ts', (n) => [
      String(n),
      'default',
    ]),
    peer: 'SDK v2',
    era: '2026',
    kind: 'default',
  },
];
const callTargets: Target[] = [
  old(BARE, 'bare-node.ts', () => [], false),
  // The layer in between: node:http straight into candor's dispatcher, no candor transport.
  old('bare node:http + candor dispatcher', 'candor.ts', () => ['1', 'dispatcher'], false),
  old('candor (stateful)', 'candor.ts', (n) => [String(n), 'stateful'], true),
  old('candor (stateless)', 'candor.ts', (n) => [String(n), 'stateless'], false),
  modern(BARE_MODERN, 'bare-node.ts', () => []),
  modern('candor (2026-07-28)', 'candor.ts', (n) => [String(n), 'stateless']),
  ...peers.map((p) => p.target),
];
const byLabel = (label: string) => callTargets.find((t) => t.label === label)!;
const listTargets: Target[] = [
  { ...byLabel('candor (stateful)'), label: 'candor' },
  { ...byLabel('SDK v1 stateful, enableJsonResponse'), label: 'SDK v1' },
  { ...byLabel('SDK v2 stateless, enableJsonResponse'), label: 'SDK v2' },
];

ensureWrk();
const measured = await callThroughput(callTargets);
const lists = await listLatency(listTargets, [1_000, 10_000]);

/** The median over rounds of a / b, each round's pair measured minutes apart at most. */
function roundRatio(a: string, b: string): number {
  const ra = measured.get(a)?.rounds ?? [];
  const rb = measured.get(b)?.rounds ?? [];
  return median(ra.map((r, i) => r.requestsPerSecond / (rb[i]?.requestsPerSecond ?? Number.NaN)));
}
const calls = new Map([...measured].map(([label, m]) => [label, median(m.rounds.map((r) => r.requestsPerSecond))]));
const cpu = new Map(
  [...measured].map(([label, m]) => {
    const n = sum(m.rounds, 'requests');
    return [label, { user: sum(m.rounds, 'userMicros') / n, sys: sum(m.rounds, 'sysMicros') / n }];
  }),
);
const us = (n: number | undefined) => (n === undefined ? 'n/a' : `${n.toFixed(1)} µs`);
table(
  `tools/call over HTTP under wrk (-t1 -c${BENCH_CONNECTIONS}, ${BENCH_ROUNDS} rounds of ${BENCH_SECONDS} s, order alternating; median req/s, CPU over all rounds), autocannon ${AUTOCANNON_SECONDS} s`,
  ['server', 'req/s (wrk)', 'p50 / p99', 'CPU/req user', 'sys', 'total', 'req/s (autocannon)', 'its CPU/req'],
  callTargets.map((t) => {
    const m = measured.get(t.label)!;
    const c = cpu.get(t.label)!;
    const last = m.rounds.at(-1)!;
    return [
      t.label,
      Math.round(calls.get(t.label)!).toLocaleString('en'),
      `${(last.p50Micros / 1000).toFixed(2)} / ${(last.p99Micros / 1000).toFixed(2)} ms`,
      us(c.user),
      us(c.sys),
      us(c.user + c.sys),
      Math.round(m.autocannon?.requestsPerSecond ?? 0).toLocaleString('en'),
      us(m.autocannon?.cpuMicros),
    ];
  }),
);

const ratio = (a: number | undefined, b: number | undefined) => (a && b ? a / b : Number.NaN);
const cpuOf = (label: string) => {
  const c = cpu.get(label);
  return c ? c.user + c.sys : Number.NaN;
};
/**
 * The configuration of a peer and era that cost the least CPU per request in this run:
 * at its best, among every configuration run (its documented fast settings may not be
 * the fastest here); at its default, among its default ones.
 */
function cheapest(peer: Peer['peer'], era: Peer['era'], kind: Peer['kind']): string {
  const labels = peers
    .filter((p) => p.peer === peer && p.era === era && (kind === 'best' || p.kind === kind))
    .map((p) => p.target.label);
  return labels.reduce((a, b) => (cpuOf(b) < cpuOf(a) ? b : a));
}
/** Which configuration each comparison used, named in the report. */
const against = {
  'SDK v1 best': cheapest('SDK v1', '2025', 'best'),
  'SDK v1 default': cheapest('SDK v1', '2025', 'default'),
  'SDK v2 best': cheapest('SDK v2', '2025', 'best'),
  'SDK v2 default': cheapest('SDK v2', '2025', 'default'),
  'SDK v2 2026-07-28 best': cheapest('SDK v2', '2026', 'best'),
  'SDK v2 2026-07-28 default': cheapest('SDK v2', '2026', 'default'),
};
const summary = {
  'candor stateful / bare node:http': roundRatio('candor (stateful)', BARE),
  'candor stateless / bare node:http': roundRatio('candor (stateless)', BARE),
  'candor 2026-07-28 / bare node:http (same body)': roundRatio('candor (2026-07-28)', BARE_MODERN),
  'candor stateful / SDK v2 best': roundRatio('candor (stateful)', against['SDK v2 best']),
  'candor stateless / SDK v2 best': roundRatio('candor (stateless)', against['SDK v2 best']),
  'candor stateless / SDK v2 default': roundRatio('candor (stateless)', against['SDK v2 default']),
  'candor 2026-07-28 / SDK v2 2026-07-28 best': roundRatio('candor (2026-07-28)', against['SDK v2 2026-07-28 best']),
  'candor 2026-07-28 / SDK v2 2026-07-28 default': roundRatio(
    'candor (2026-07-28)',
    against['SDK v2 2026-07-28 default'],
  ),
  'candor stateless / SDK v1 best': roundRatio('candor (stateless)', against['SDK v1 best']),
  'candor stateless / SDK v1 default': roundRatio('candor (stateless)', against['SDK v1 default']),
  'tools/list 1,000: SDK v1 / candor (end to end)': ratio(lists.get('SDK v1@1000'), lists.get('candor@1000')),
  'tools/list 10,000: SDK v1 / candor (end to end)': ratio(lists.get('SDK v1@10000'), lists.get('candor@10000')),
  'tools/list 1,000: SDK v2 / candor (end to end)': ratio(lists.get('SDK v2@1000'), lists.get('candor@1000')),
};
/**
 * The same comparisons by server CPU per request (b's over a's): what the
 * requests-per-second ratio comes to when each server has a core to itself.
 * On a shared machine it is the steadier of the two.
 */
const cpuRatio = (a: string, b: string) => cpuOf(b) / cpuOf(a);
/** The median over rounds of b's CPU per request over a's (rounds pair up: minutes apart at most). */
function roundCpuRatio(a: string, b: string): number {
  const ra = measured.get(a)?.rounds ?? [];
  const rb = measured.get(b)?.rounds ?? [];
  const per = (r: WrkResult | undefined) => (r ? (r.userMicros + r.sysMicros) / r.requests : Number.NaN);
  return median(ra.map((r, i) => per(rb[i]) / per(r)));
}
const cpuRatios = {
  'candor stateful / bare node:http': cpuRatio('candor (stateful)', BARE),
  'candor stateless / bare node:http': cpuRatio('candor (stateless)', BARE),
  'candor 2026-07-28 / bare node:http (same body)': cpuRatio('candor (2026-07-28)', BARE_MODERN),
  'candor stateful / SDK v2 best': cpuRatio('candor (stateful)', against['SDK v2 best']),
  'candor stateless / SDK v2 best': cpuRatio('candor (stateless)', against['SDK v2 best']),
  'candor stateless / SDK v2 default': cpuRatio('candor (stateless)', against['SDK v2 default']),
  'candor 2026-07-28 / SDK v2 2026-07-28 best': cpuRatio('candor (2026-07-28)', against['SDK v2 2026-07-28 best']),
  'candor 2026-07-28 / SDK v2 2026-07-28 default': cpuRatio(
    'candor (2026-07-28)',
    against['SDK v2 2026-07-28 default'],
  ),
  'candor stateless / SDK v1 best': cpuRatio('candor (stateless)', against['SDK v1 best']),
  'candor stateless / SDK v1 default': cpuRatio('candor (stateless)', against['SDK v1 default']),
};
/** The bare-echo ratios by CPU as the median of the rounds' ratios (the goal's measure). */
const cpuRoundRatios = {
  'candor stateful / bare node:http': roundCpuRatio('candor (stateful)', BARE),
  'candor stateless / bare node:http': roundCpuRatio('candor (stateless)', BARE),
  'candor 2026-07-28 / bare node:http (same body)': roundCpuRatio('candor (2026-07-28)', BARE_MODERN),
};
table(
  'Ratios by server CPU per request (capacity when each server has a core of its own)',
  ['comparison', 'ratio'],
  Object.entries(cpuRatios).map(([k, v]) => [k, `${v.toFixed(2)}×`]),
);
table(
  'Ratios (requests per second; HTTP ones: median of the rounds)',
  ['comparison', 'ratio'],
  Object.entries(summary).map(([k, v]) => [k, `${v.toFixed(2)}×`]),
);
record('engine-http', {
  load: 'wrk',
  connections: BENCH_CONNECTIONS,
  seconds: BENCH_SECONDS,
  rounds: BENCH_ROUNDS,
  callsPerSecond: Object.fromEntries(calls),
  serverCpuMicrosPerRequest: Object.fromEntries([...cpu].map(([k, c]) => [k, c.user + c.sys])),
  serverUserMicrosPerRequest: Object.fromEntries([...cpu].map(([k, c]) => [k, c.user])),
  serverSysMicrosPerRequest: Object.fromEntries([...cpu].map(([k, c]) => [k, c.sys])),
  perRound: Object.fromEntries(
    [...measured].map(([k, m]) => [k, m.rounds.map((r) => Math.round(r.requestsPerSecond))]),
  ),
  /** Server CPU per request in each round (µs): how far the machine moved it. */
  cpuPerRound: Object.fromEntries(
    [...measured].map(([k, m]) => [
      k,
      m.rounds.map((r) => Math.round(((r.userMicros + r.sysMicros) / r.requests) * 10) / 10),
    ]),
  ),
  ratios: summary,
  cpuRatios,
  cpuRoundRatios,
  /** The peer configuration each comparison used (the cheapest by CPU of its kind in this run). */
  against,
  peers: peers.map((p) => ({ label: p.target.label, peer: p.peer, era: p.era, kind: p.kind })),
  autocannon: Object.fromEntries(
    [...measured].map(([k, m]) => [
      k,
      { requestsPerSecond: m.autocannon?.requestsPerSecond, cpuMicrosPerRequest: m.autocannon?.cpuMicros },
    ]),
  ),
  listLatencyMs: Object.fromEntries(lists),
});
writeFileSync(
  new URL('./results-engine-http.json', import.meta.url),
  `${JSON.stringify({ date: new Date().toISOString(), calls: Object.fromEntries(calls), lists: Object.fromEntries(lists), summary }, null, 2)}\n`,
);
writeFileSync(
  new URL('../docs/bench-http.svg', import.meta.url),
  barChart({
    title: `tools/call over Streamable HTTP under wrk, requests per second (${BENCH_CONNECTIONS} connections)`,
    unit: 'req/s',
    bars: callTargets
      .filter((t) => calls.has(t.label) && t.label !== BARE_MODERN && !t.label.includes('dispatcher'))
      .map((t) => ({ label: t.label, value: calls.get(t.label)!, ours: t.label.startsWith('candor') })),
  }),
);
