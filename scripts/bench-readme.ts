/**
 * Write the benchmark report, docs/benchmarks.md, and the README's short
 * "## Benchmarks" summary from the runs in bench/history/ (written by
 * `npm run bench -- --json`). Each benchmark's figures come from the newest run
 * that has it, and its section names that run: every ratio is from one run.
 *
 *   node --import tsx scripts/bench-readme.ts [history.json]   # default: all of bench/history/
 *
 * In the README, everything between "## Benchmarks" and the next "## " heading is replaced.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { engineHttpSection } from './bench-report/engine-http.js';
import { type Figures, fixed, pct, times } from './bench-report/format.js';
import { gatewaySection } from './bench-report/gateway.js';
import { inProcessSection, rssSection, smallSections } from './bench-report/other.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const historyDir = join(root, 'bench', 'history');

interface History {
  date: string;
  node: string;
  cpu: { model: string; cores: number };
  load: { before: number[]; after: number[] };
  benchmarks: Record<string, unknown>;
}

const files = process.argv[2]
  ? [process.argv[2]]
  : readdirSync(historyDir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => join(historyDir, f));
const runs = files.map((file) => ({ file, run: JSON.parse(readFileSync(file, 'utf8')) as History }));

/** A benchmark's figures from the newest run that has them (in the shape `accepts` recognises). */
function newest(name: string, accepts: (data: any) => boolean = () => true): Figures | undefined {
  for (const { file, run } of [...runs].reverse()) {
    const data = run.benchmarks[name];
    if (data !== undefined && accepts(data)) {
      return { file: relative(root, file), date: run.date, cpu: run.cpu.model, load: run.load, data };
    }
  }
  return undefined;
}

// Only runs that named every peer's configuration (the report compares peers at their best).
const http = newest('engine-http', (d) => d.against !== undefined);
const gateway = newest('gateway', (d) => Array.isArray(d.http?.contenders));
const inproc = newest('engine-inprocess');
const rss = newest('rss');
const latest = runs.at(-1)!.run;

const engine = http ? engineHttpSection(http) : undefined;
const gw = gateway ? gatewaySection(gateway) : undefined;
const memory = rss ? rssSection(rss) : undefined;

const engineBound = engine
  ? `What bounds the floor ratios: the bare echo's CPU per request is nearly all node:http and the kernel (llhttp, the \`writev\` of the answer and the TCP loopback under it, the microtask queue); candor's own functions take about 4 µs per request more than the echo's handler, and the rest of the difference is the promise turns of an asynchronous, checked request path and its garbage, spread over many sub-microsecond pieces. The profiles are in [internals/performance](internals/performance.md).`
  : '';
const gatewayBound = gw
  ? `What bounds the gateway: each proxied call is a Streamable HTTP request handled by the same engine (about one engine request's CPU), plus the stdio hop to the upstream: a pipe write and a read with their wake-ups, the host's call path (policy, pins, scheduling, the lean \`tools/call\`) and the garbage of two JSON messages. On this 2-core machine the load generator, the upstream and the bridge share the cores, so calls per second are (bridge + upstream + client) / (candor + upstream + client) per call and stay below the ratio of the bridges' own CPU. The profile and what each change bought are in [internals/performance](internals/performance.md).`
  : '';

const page = `# Benchmarks

\`npm run bench\` builds, then runs every benchmark in \`bench/\`, each in its own process, every contender in the same run on the same machine (servers in child processes, candor loaded from \`dist/\` as users run it). \`npm run bench -- --json\` also writes the figures to \`bench/history/<date>.json\`; this page is generated from those runs by \`node --import tsx scripts/bench-readme.ts\`. Each section names its run and the machine's load average then: the machine these ran on (Node ${latest.node}, ${latest.cpu.cores} cores) is shared, so requests per second move between runs and between the rounds of one run; the CPU per request is the steadier figure, and the goals are checked on it. Nothing here is asserted in tests.

${engine?.markdown ?? ''}
${engineBound}

${gw?.markdown ?? ''}
${gatewayBound}

${memory?.markdown ?? ''}
${inproc ? inProcessSection(inproc) : ''}
${smallSections({ registry: newest('registry'), host: newest('host-run'), workspace: newest('workspace-read-file') })}`;

writeFileSync(join(root, 'docs', 'benchmarks.md'), `${page.replace(/\n{3,}/g, '\n\n').trim()}\n`);

const h = engine?.headline ?? {};
const g = gw?.headline ?? {};
const summary = `## Benchmarks

Measured with wrk on a shared 2-core machine, every contender in the same run, by server CPU per request; each peer at its best: the cheapest in the run of its fastest documented configurations (SDK v2 \`createMcpHandler\` with \`responseMode: 'json'\`, its stateless \`enableJsonResponse\` transport for 2025 traffic; SDK v1 with \`enableJsonResponse\`; the bridges' fast flags, stateful and stateless) and its defaults:

- tools/call over Streamable HTTP: **${times(h.v2Best2025)}** SDK v2 at its best (2025 era), **${times(h.v2Best2026)}** (2026-07-28), **${times(h.v1Best)}** SDK v1 at its best; ${pct(h.bare2025)} (2025) and ${pct(h.bare2026)} (2026-07-28) of a bare node:http echo.
- \`candor gateway\`: **${times(g.callsRatio)}** the calls/s of the better stdio→HTTP bridge (mcp-proxy, supergateway), ${times(g.cpuRatio)} less CPU per call; its CPU per proxied call is ${times(g.overEngine)} the engine's per request.
- A server that imports candor and serves one tool: ${fixed(memory?.oneTool)} MiB RSS after its first call (node with zod alone: ${fixed(rss?.data.rssMiB['node importing zod'])} MiB).

Every figure, each peer's configuration and what bounds each goal: [docs/benchmarks.md](docs/benchmarks.md).
`;

const readmePath = join(root, 'README.md');
const readme = readFileSync(readmePath, 'utf8');
const start = readme.indexOf('## Benchmarks\n');
if (start < 0) throw new Error('README.md has no "## Benchmarks" section');
const next = readme.indexOf('\n## ', start + 1);
writeFileSync(readmePath, `${readme.slice(0, start)}${summary}${next < 0 ? '' : readme.slice(next)}`);
console.log('docs/benchmarks.md written; README.md: Benchmarks summary regenerated');
