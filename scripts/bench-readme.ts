/**
 * Regenerate the README's "## Benchmarks" section from a benchmark run's
 * figures (bench/history/<date>.json, written by `npm run bench -- --json`).
 *
 *   node --import tsx scripts/bench-readme.ts [history.json]   # default: the newest
 *
 * Everything between "## Benchmarks" and the next "## " heading is replaced.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const historyDir = join(root, 'bench', 'history');
const file =
  process.argv[2] ??
  join(
    historyDir,
    readdirSync(historyDir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .at(-1) ?? '',
  );
const run = JSON.parse(readFileSync(file, 'utf8')) as History;

interface History {
  date: string;
  node: string;
  cpu: { model: string; cores: number };
  load: { before: number[]; after: number[] };
  env: { BENCH_SECONDS: string; BENCH_CONNECTIONS: string };
  benchmarks: Record<string, any>;
}

const b = run.benchmarks;
const int = (n: number | undefined) => (n === undefined ? 'n/a' : Math.round(n).toLocaleString('en'));
const fixed = (n: number | undefined, digits = 1) => (n === undefined ? 'n/a' : n.toFixed(digits));
const ratio = (a: number | undefined, c: number | undefined) => (a && c ? a / c : undefined);
const times = (r: number | undefined) => (r === undefined ? 'n/a' : `${r >= 10 ? r.toFixed(0) : r.toFixed(1)}×`);
const pct = (r: number | undefined) => (r === undefined ? 'n/a' : `${(r * 100).toFixed(0)}%`);
const met = (ok: boolean | undefined) => (ok === undefined ? '' : ok ? ' ✓' : ' ✗');
const cpuNote = (cpu: number | undefined) => (cpu === undefined ? '' : ` (${fixed(cpu)} µs CPU)`);

const rows: string[][] = [];
const http = b['engine-http'];
/** The HTTP runs under wrk, one row per server: req/s, CPU per request (user, sys), autocannon's req/s. */
const wrkRows: string[][] = [];
if (http) {
  const calls = http.callsPerSecond as Record<string, number>;
  const cpu = (http.serverCpuMicrosPerRequest ?? {}) as Record<string, number>;
  const ratios = (http.ratios ?? {}) as Record<string, number>;
  const bare = calls['bare node:http echo'];
  const v2 = calls['SDK v2 createMcpHandler'];
  const withinRun = (key: string, a: number | undefined, c: number | undefined) => ratios[key] ?? ratio(a, c);
  /** b's CPU per request over a's: the requests-per-second ratio when each server has a core to itself. */
  const byCpu = (a: string, c: string) => ratio(cpu[c], cpu[a]);
  const both = (r: number | undefined, rCpu: number | undefined, format: (x: number | undefined) => string) =>
    `**${format(rCpu)}** by CPU per request (req/s: ${format(r)})`;
  for (const [label, key, short] of [
    ['stateful session', 'candor (stateful)', 'stateful'],
    ['stateless', 'candor (stateless)', 'stateless'],
  ] as const) {
    const ofBare = withinRun(`candor ${short} / bare node:http`, calls[key], bare);
    const ofV2 = withinRun(`candor ${short} / SDK v2`, calls[key], v2);
    const ofBareCpu = byCpu(key, 'bare node:http echo');
    const ofV2Cpu = byCpu(key, 'SDK v2 createMcpHandler');
    rows.push([
      `tools/call over HTTP, 2025 era, ${label}`,
      `${int(calls[key])} req/s${cpuNote(cpu[key])}`,
      `bare node:http: ${int(bare)} req/s${cpuNote(cpu['bare node:http echo'])}; SDK v2 \`createMcpHandler\`: ${int(v2)}${cpuNote(cpu['SDK v2 createMcpHandler'])}`,
      `${both(ofBare, ofBareCpu, pct)} of bare; ${both(ofV2, ofV2Cpu, times)} SDK v2`,
      `≥ 80%${met(ofBareCpu === undefined ? undefined : ofBareCpu >= 0.8)}; ≥ 15×${met(ofV2Cpu === undefined ? undefined : ofV2Cpu >= 15)}`,
    ]);
  }
  const modernBare = 'bare node:http echo (2026-07-28 body)';
  const modernV2 = 'SDK v2 createMcpHandler (2026-07-28)';
  const modernKey = 'candor (2026-07-28)';
  if (calls[modernKey] !== undefined) {
    const ofBare = withinRun('candor 2026-07-28 / bare node:http (same body)', calls[modernKey], calls[modernBare]);
    const ofV2 = withinRun('candor 2026-07-28 / SDK v2 2026-07-28', calls[modernKey], calls[modernV2]);
    const ofBareCpu = byCpu(modernKey, modernBare);
    const ofV2Cpu = byCpu(modernKey, modernV2);
    rows.push([
      'tools/call over HTTP, 2026-07-28 era',
      `${int(calls[modernKey])} req/s${cpuNote(cpu[modernKey])}`,
      `bare node:http (same body): ${int(calls[modernBare])} req/s${cpuNote(cpu[modernBare])}; SDK v2: ${int(calls[modernV2])}${cpuNote(cpu[modernV2])}`,
      `${both(ofBare, ofBareCpu, pct)} of bare; ${both(ofV2, ofV2Cpu, times)} SDK v2`,
      `≥ 75%${met(ofBareCpu === undefined ? undefined : ofBareCpu >= 0.75)}; ≥ 15×${met(ofV2Cpu === undefined ? undefined : ofV2Cpu >= 15)}`,
    ]);
  }
  rows.push([
    'same, SDK v1 `McpServer` (stateful / stateless)',
    '',
    `${int(calls['SDK v1 (stateful)'])} / ${int(calls['SDK v1 (stateless)'])} req/s`,
    `candor ${times(withinRun('candor stateful / SDK v1 stateful', calls['candor (stateful)'], calls['SDK v1 (stateful)']))} / ${times(withinRun('candor stateless / SDK v1 stateless', calls['candor (stateless)'], calls['SDK v1 (stateless)']))}`,
    '',
  ]);
  const user = (http.serverUserMicrosPerRequest ?? {}) as Record<string, number>;
  const sys = (http.serverSysMicrosPerRequest ?? {}) as Record<string, number>;
  const autocannon = (http.autocannon ?? {}) as Record<string, { requestsPerSecond?: number }>;
  const perRound = (http.perRound ?? {}) as Record<string, number[]>;
  const cpuPerRound = (http.cpuPerRound ?? {}) as Record<string, number[]>;
  const spread = (values: number[] | undefined, format: (n: number) => string) =>
    values === undefined || values.length === 0
      ? 'n/a'
      : `${format(Math.min(...values))}–${format(Math.max(...values))}`;
  for (const label of Object.keys(calls)) {
    wrkRows.push([
      label,
      int(calls[label]),
      spread(perRound[label], (n) => int(n)),
      fixed(user[label]),
      fixed(sys[label]),
      fixed(cpu[label]),
      spread(cpuPerRound[label], (n) => fixed(n)),
      int(autocannon[label]?.requestsPerSecond),
    ]);
  }
}
const inproc = b['engine-inprocess'];
const bareCpu = (http?.serverCpuMicrosPerRequest as Record<string, number> | undefined)?.['bare node:http echo'];
const core = inproc?.httpCoreCpuMicrosPerRequest as Record<string, number> | undefined;
if (core) {
  rows.push([
    "candor's own CPU per HTTP tools/call (its HTTP core, no sockets or node:http): 2025 / 2026-07-28 era",
    `${fixed(core['2025 era'], 2)} / ${fixed(core['2026-07-28 era'], 2)} µs`,
    `node:http and the kernel for the bare echo: ${fixed(bareCpu)} µs per request`,
    '',
    '',
  ]);
}
if (inproc) {
  const stdio = inproc.stdio;
  const r = ratio(stdio.callsPerSecond.candor, stdio.callsPerSecond['SDK v1']);
  rows.push([
    `tools/call over stdio, ${stdio.inFlight} in flight`,
    `${int(stdio.callsPerSecond.candor)} calls/s${cpuNote(stdio.serverCpuMicrosPerCall.candor)}`,
    `SDK v1: ${int(stdio.callsPerSecond['SDK v1'])} calls/s${cpuNote(stdio.serverCpuMicrosPerCall['SDK v1'])}`,
    `**${times(r)}** (CPU per call: ${times(ratio(stdio.serverCpuMicrosPerCall['SDK v1'], stdio.serverCpuMicrosPerCall.candor))})`,
    `≥ 4×${met(r === undefined ? undefined : r >= 4)}`,
  ]);
  const seq = inproc.inProcessSequentialCallsPerSecond as Record<string, number>;
  const dispatcher = seq['dispatcher, 2025 era'];
  rows.push([
    'tools/call in process, one at a time: dispatcher (2025 / 2026-07-28 era)',
    `${int(dispatcher)} / ${int(seq['dispatcher, 2026-07-28 era'])} calls/s`,
    `through \`connectMemory()\` (JSON both ways): ${int(seq['connectMemory, 2025 era'])} / ${int(seq['connectMemory, 2026-07-28 era'])}`,
    '',
    `≥ 250k${met(dispatcher === undefined ? undefined : dispatcher >= 250_000)}`,
  ]);
  for (const [size, t] of Object.entries(
    inproc.listServerTimeMs as Record<string, { candor: number; sdkV1: number }>,
  )) {
    rows.push([
      `tools/list, ${size} tools, server time in process`,
      `${fixed(t.candor, 3)} ms`,
      `SDK v1: ${fixed(t.sdkV1)} ms`,
      `**${times(ratio(t.sdkV1, t.candor))}**`,
      '',
    ]);
  }
}
if (http) {
  const lists = http.listLatencyMs as Record<string, number>;
  for (const size of [1000, 10000]) {
    rows.push([
      `tools/list, ${size.toLocaleString('en')} tools, end to end over HTTP`,
      `${fixed(lists[`candor@${size}`])} ms`,
      `SDK v1: ${fixed(lists[`SDK v1@${size}`])} ms; SDK v2: ${fixed(lists[`SDK v2@${size}`])} ms`,
      `${times(ratio(lists[`SDK v1@${size}`], lists[`candor@${size}`]))} / ${times(ratio(lists[`SDK v2@${size}`], lists[`candor@${size}`]))}`,
      '',
    ]);
  }
}
const gateway = b.gateway;
if (gateway?.http) {
  const http = gateway.http as Record<string, { callsPerSecond: number; cpuMicrosPerCall?: number | null }>;
  const entries = Object.entries(http);
  const [candorName, candorFigures] = entries.find(([name]) => name.startsWith('candor')) ?? [];
  const others = entries.filter(([name]) => !name.startsWith('candor'));
  const best = Math.max(...others.map(([, f]) => f.callsPerSecond));
  const r = ratio(candorFigures?.callsPerSecond, best);
  // CPU per proxied call, against the bridge that spends the least (the bridge process alone).
  const leastCpu = Math.min(...others.map(([, f]) => f.cpuMicrosPerCall ?? Number.POSITIVE_INFINITY));
  const rCpu = Number.isFinite(leastCpu) ? ratio(leastCpu, candorFigures?.cpuMicrosPerCall ?? undefined) : undefined;
  const cpuOf = (f: { cpuMicrosPerCall?: number | null }) =>
    f.cpuMicrosPerCall === undefined || f.cpuMicrosPerCall === null ? '' : ` (${int(f.cpuMicrosPerCall)} µs CPU/call)`;
  if (candorName && candorFigures) {
    rows.push([
      `gateway: tools/call over Streamable HTTP in front of one stdio server, ${gateway.inFlight} in flight`,
      `${int(candorFigures.callsPerSecond)} calls/s${cpuOf(candorFigures)}`,
      others.map(([name, f]) => `${name}: ${int(f.callsPerSecond)}${cpuOf(f)}`).join('; '),
      `**${times(r)}** the better by calls/s; **${times(rCpu)}** by CPU per call`,
      `≥ 3×: by calls/s${met(r === undefined ? undefined : r >= 3)}, by CPU${met(rCpu === undefined ? undefined : rCpu >= 3)}`,
    ]);
  }
  if (gateway.stdio) {
    rows.push([
      'gateway over stdio, one call at a time: added latency; gateway CPU per call',
      `${int(gateway.stdio.addedLatencyMicros)} µs; ${int(gateway.stdio.gatewayCpuMicrosPerCall)} µs`,
      `the upstream called directly: ${int(gateway.stdio.directCallsPerSecond)} calls/s; through the gateway: ${int(gateway.stdio.gatewayCallsPerSecond)}`,
      '',
      '',
    ]);
  }
}
const registry = b.registry;
if (registry) {
  rows.push([
    '`defineTool` × 10,000: one shared zod schema / a zod schema each / raw JSON Schema',
    `${int(registry.defineSharedZodMs)} / ${int(registry.defineDistinctZodMs)} / ${int(registry.defineRawJsonSchemaMs)} ms`,
    '',
    '',
    `< 500 ms${met(registry.defineDistinctZodMs < 500)}`,
  ]);
  const heap = registry.heapBytesPerTool;
  const rss = registry.servedRssMiB;
  rows.push([
    'memory per tool (heap, with registry and manifest): shared schema / a zod schema each',
    `${int(heap.sharedSchema)} / ${int(heap.zodSchemaEach)} bytes`,
    '',
    '',
    '',
  ]);
  rows.push([
    'RSS serving 10,000 tools after 5 lists: shared schema / a zod schema each (0 tools: baseline)',
    `${int(rss.sharedSchema)} / ${int(rss.zodSchemaEach)} MiB (${int(rss.baseline)} MiB)`,
    `shared schema with \`node --max-semi-space-size=2\`: ${int(rss.sharedSchemaSmallYoungGen)} MiB`,
    '',
    `≤ 100 MiB${met(rss.sharedSchema <= 100)}`,
  ]);
}

const table = [
  '| measurement | candor | compared with | ratio | goal |',
  '|---|---|---|---|---|',
  ...rows.map((r) => `| ${r.join(' | ')} |`),
].join('\n');

const wrkTable =
  wrkRows.length === 0
    ? ''
    : `
tools/call over HTTP under wrk (\`-t1 -c${http.connections}\`, ${http.rounds} rounds of ${http.seconds} s, the order reversed every other round; ratios above are the median of the rounds' ratios): requests per second (median of the rounds) and the server process's CPU per request over all rounds (\`/proc/<pid>/stat\`, user and system):

| server | req/s (wrk) | rounds' range | CPU µs/req: user | system | total | rounds' range | req/s (autocannon) |
|---|---|---|---|---|---|---|---|
${wrkRows.map((r) => `| ${r.join(' | ')} |`).join('\n')}
`;

const extra: string[] = [];
const host = b['host-run'];
if (host) {
  extra.push(
    `Host (\`bench/host-run.ts\`): \`host.run()\` adds ${fixed(host.runOverheadMicros.single)} µs to a single call and ${fixed(host.runOverheadMicros.perCallInBatch)} µs per call in batches of ${host.runOverheadMicros.batch}, over calling the SDK client directly.`,
  );
}
if (registry) {
  const searches = Object.entries(registry)
    .filter(([k]) => k.startsWith('search: '))
    .map(([k, v]) => `${k.slice('search: '.length)} ${fixed(v as number, 2)} ms`);
  const m = registry.manifestJson10000;
  extra.push(
    `Registry (\`bench/registry.ts\`): the tools/list JSON of 10,000 tools is built in ${fixed(m?.firstMs)} ms on the first request after a change, then served from cache (${fixed(m?.cachedMicros, 2)} µs); a page of 100 takes ${fixed(m?.pageOf100Micros, 1)} µs. Search over 100,000 tools: ${searches.join('; ')}.`,
  );
}
const workspace = b['workspace-read-file'];
if (workspace) {
  const [candor, fs] = workspace.servers as Array<{
    name: string;
    sequential: number;
    concurrent: number;
    cpu?: number;
  }>;
  if (candor && fs) {
    extra.push(
      `Workspace server (\`bench/workspace-read-file.ts\`): \`read_file\` of a 4 KiB file over stdio with the SDK v2 client, against \`@modelcontextprotocol/server-filesystem\`'s \`read_text_file\`: ${int(candor.sequential)} vs ${int(fs.sequential)} calls/s one at a time (${times(ratio(candor.sequential, fs.sequential))}), ${int(candor.concurrent)} vs ${int(fs.concurrent)} with 16 in flight (${times(ratio(candor.concurrent, fs.concurrent))}), ${int(candor.cpu)} vs ${int(fs.cpu)} µs of server CPU per call.`,
    );
  }
}

if (core && bareCpu && http) {
  const cpu = http.serverCpuMicrosPerRequest as Record<string, number>;
  const user = (http.serverUserMicrosPerRequest ?? {}) as Record<string, number>;
  const stateful = cpu['candor (stateful)'];
  const layer = cpu['bare node:http + candor dispatcher'];
  const budget = bareCpu / 0.8 - bareCpu;
  extra.unshift(
    `What bounds the HTTP ratios: under wrk the bare echo spends ${fixed(bareCpu)} µs of server CPU per request (${fixed(user['bare node:http echo'])} µs user), nearly all of it in node:http and the kernel: a \`perf record -g\` profile with \`node --perf-basic-prof\` puts about a quarter of it in the \`writev\` of the answer and the TCP loopback under it, and most of the rest in llhttp, node's HTTP and stream code and the microtask queue. At 80% of its throughput candor may add ${fixed(budget)} µs; it adds ${fixed(stateful === undefined ? undefined : stateful - bareCpu)} µs in a 2025 session${layer === undefined || stateful === undefined ? '' : `, of which the dispatcher is ${fixed(layer - bareCpu)} µs (node:http handing each message straight to candor's dispatcher costs ${fixed(layer)} µs per request) and the Streamable HTTP transport ${fixed(stateful - layer)} µs`}. candor's own functions, as the V8 profiler of a saturated server sees them, take about 8 µs per request, of which about 4 µs is the JSON.parse and JSON.stringify the bare echo pays too (the echo's whole handler is about 4 µs), so candor's own code is about 4 µs more than the echo's; measured as its HTTP core without sockets in a hot loop it is ${fixed(core['2025 era'], 2)} µs (2025 era) and ${fixed(core['2026-07-28 era'], 2)} µs (2026-07-28, whose messages carry the \`_meta\` envelope and \`serverInfo\`). The rest of the difference sits in node, outside candor's functions: the promise turns of an asynchronous request path (the echo answers synchronously from its \`end\` event), more garbage per request, and code and data that no longer fit the caches of a machine shared with other work (the same code costs 2 µs per call in the in-process loop). The profiles and what each change bought are in \`docs/perf-issue-24.md\`.`,
  );
}

if (gateway?.http) {
  extra.push(
    "What bounds the gateway goal: calls per second count everything on the machine, and the load generator, the upstream and the bridge share its 2 cores, so the calls/s ratio is (bridge + upstream + client) / (candor + upstream + client) per call and stays below the ratio of the bridges' own CPU per call. The gateway calls a stdio upstream by a lean `tools/call` path (the request written with the transport's own `send`, the answer taken off by id; the SDK client keeps the handshake, lists and server→client requests; `CANDOR_LEAN_CALLS=0` sends every call through the SDK client instead), and no longer runs stdio calls inside AsyncLocalStorage, whose promise hook node 20 runs for every promise in the process: in alternating runs its CPU per proxied call went from 275 to 182 µs with the lean path and to 156 µs without the hook. What is left (perf, gateway process): node:http and the sockets about 22%, candor's HTTP transport and engine 27%, host policy and the call path 17%, the SDK's stdio reader (it zod-parses every incoming message) 7%, garbage collection 14% over all threads. Profiles in `docs/perf-issue-24.md`.",
  );
}

if (registry?.servedRssMiB) {
  const rss = registry.servedRssMiB;
  extra.push(
    `What bounds the memory goal (≤ 100 MiB RSS for 10,000 zod tools after \`tools/list\`): zod itself. A node 20 process that only builds 10,000 such zod schemas, without candor, holds 110–118 MiB RSS: about 47 MiB of heap for the schemas (four zod instances each, about 4.7 KB per \`z.object\`) and V8's young generation, grown to two 16 MiB semi-spaces by that allocation and not given back (\`node -e ''\` alone is 40 MiB, importing zod adds 14 MiB), so the goal is out of reach before candor stores anything. candor's share, from heap snapshots: its modules (about 20 MiB of RSS, now that ioredis and Ajv load only when Redis or a raw JSON Schema is used: they were 13.6 and about 10 MiB more), the cached \`tools/list\` answer as text and as bytes (3.5 MiB each), and about 1.2 KB per tool (definition, \`tools/list\` entry, annotations, \`_meta\`, validator; the JSON Schemas are interned, so equal schemas are one object, and the \`~standard\` object zod builds on first read is no longer kept for tools that were never called): ${int(rss.zodSchemaEach)} MiB in all here. With one shared zod schema it is ${int(rss.sharedSchema)} MiB (0 tools: ${int(rss.baseline)} MiB); with \`node --max-semi-space-size=2\` (a smaller young generation) the shared-schema server stays at ${int(rss.sharedSchemaSmallYoungGen)} MiB.`,
  );
}

// Every recorded run side by side: the same code moves with the machine it lands on.
const across = readdirSync(historyDir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .flatMap((f) => {
    const past = JSON.parse(readFileSync(join(historyDir, f), 'utf8')) as History;
    const calls = past.benchmarks['engine-http']?.callsPerSecond as Record<string, number> | undefined;
    if (!calls) return [];
    const stateful = calls['candor (stateful)'];
    return [
      `${past.date.slice(0, 16).replace('T', ' ')} (${past.cpu.model}): ${pct(ratio(stateful, calls['bare node:http echo']))} of bare, ${times(ratio(stateful, calls['SDK v2 createMcpHandler']))} SDK v2`,
    ];
  });
if (across.length > 1) {
  extra.push(
    `Every run in \`bench/history/\`, tools/call over HTTP in a 2025 stateful session: ${across.join('; ')}. The machines these run on change CPU between sessions, and the ratios move with the CPU more than with the code: compare figures within one run.`,
  );
}

const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' ');
const section = `## Benchmarks

\`npm run bench\` builds, then runs every benchmark in \`bench/\`, each in its own process,
every contender in the same run on the same machine (servers in child processes, candor
loaded from \`dist/\` as users run it). HTTP load comes from [wrk](https://github.com/wg/wrk)
(Debian \`wrk\`, installed with apt-get when missing; \`bench/wrk/jsonrpc.lua\` gives every
request its own JSON-RPC id and counts JSON-RPC errors), which saturates the server;
autocannon, which runs in Node and tops out near the bare echo's rate, stays as a second column. \`npm run bench -- --json\`
also writes the figures to \`bench/history/<date>.json\`; this section is generated from one
such run by \`node --import tsx scripts/bench-readme.ts\`. Nothing here is asserted in tests.

This run: ${run.date.slice(0, 16).replace('T', ' ')} UTC, Node ${run.node}, ${run.cpu.cores} cores (${run.cpu.model}),
load average ${load(run.load.before)} before and ${load(run.load.after)} after (1/5/15 min), ${http?.seconds ?? run.env.BENCH_SECONDS} s per HTTP load
with ${run.env.BENCH_CONNECTIONS} connections (\`${relative(root, file)}\`). The machine is shared, so requests per second
move between runs and even between the rounds of one run (the ranges below); the server CPU per request (from
\`/proc\`) is the steadier figure, and the goals are checked on it.

![tools/call over Streamable HTTP, requests per second](docs/bench-http.svg)

${table}
${wrkTable}
${extra.join('\n\n')}
`;

const readmePath = join(root, 'README.md');
const readme = readFileSync(readmePath, 'utf8');
const start = readme.indexOf('## Benchmarks\n');
if (start < 0) throw new Error('README.md has no "## Benchmarks" section');
const next = readme.indexOf('\n## ', start + 1);
const updated = `${readme.slice(0, start)}${section}${next < 0 ? '' : readme.slice(next)}`;
writeFileSync(readmePath, updated);
console.log(`README.md: Benchmarks section regenerated from ${relative(root, file)}`);
