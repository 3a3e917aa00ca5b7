/**
 * A soak of the gateway: `candor gateway --http` in front of a stdio
 * upstream (test/fixtures/gateway/upstream.mjs), and clients that open a
 * session, make `CALLS_PER_SESSION` calls in it, and end it with DELETE, over
 * and over, `WORKERS` at a time, until `TOTAL` calls are made (default
 * 1,000,000). Every `SAMPLE_S` seconds the gateway process is read from /proc:
 * its RSS, its open file descriptors, and its descendant processes (the
 * upstream should stay the only one). At the end: the RSS slope (least squares
 * over the samples after the first 10% of the calls), the fd range, the most
 * descendants seen, and whether any call failed. Not part of `npm test`.
 *
 *   npm run build && node --import tsx bench/gateway-soak.ts
 *   TOTAL=100000 node --import tsx bench/gateway-soak.ts   # a shorter run
 *
 * SIGINT (Ctrl-C) stops the load early and still prints the figures so far.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../test/support/redis-server.js';
import { postInitialize } from '../test/support/session-writer.js';
import { record, table } from './_harness.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const TOTAL = Number(process.env.TOTAL ?? 1_000_000);
const WORKERS = Number(process.env.WORKERS ?? 8);
const CALLS_PER_SESSION = Number(process.env.CALLS_PER_SESSION ?? 50);
const SAMPLE_S = Number(process.env.SAMPLE_S ?? 10);
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

interface Sample {
  seconds: number;
  calls: number;
  rssKiB: number;
  fds: number;
  descendants: number;
}

/** RSS (KiB), open fds and descendant processes of `pid`, from /proc. */
function inspect(pid: number): Omit<Sample, 'seconds' | 'calls'> {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  const fds = readdirSync(`/proc/${pid}/fd`).length;
  return { rssKiB, fds, descendants: descendantsOf(pid).length };
}

function descendantsOf(pid: number): number[] {
  const children = (() => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  })();
  return children.flatMap((child) => [child, ...descendantsOf(child)]);
}

async function startGateway(): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const cli = join(repo, 'dist', 'src', 'cli', 'main.js');
  const upstream = join(repo, 'test', 'fixtures', 'gateway', 'upstream.mjs');
  const child = spawn(
    process.execPath,
    [cli, 'gateway', '--http', `127.0.0.1:${port}`, '--policy', 'yolo', '--', process.execPath, upstream],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error('the gateway exited');
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
    if (ready?.status === 200 && descendantsOf(child.pid!).length > 0) break;
    if (Date.now() > deadline) throw new Error('the gateway did not come up');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, url: `http://127.0.0.1:${port}/mcp` };
}

/** Least-squares slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

const { child, url } = await startGateway();
const pid = child.pid!;
let calls = 0;
let failed = 0;
let sessions = 0;
let firstFailure: string | undefined;
const started = performance.now();
const samples: Sample[] = [];
const sample = () => samples.push({ seconds: (performance.now() - started) / 1000, calls, ...inspect(pid) });
sample();
const sampler = setInterval(() => {
  sample();
  const last = samples.at(-1)!;
  console.error(
    `${last.seconds.toFixed(0)} s: ${last.calls} calls, ${sessions} sessions, RSS ${(last.rssKiB / 1024).toFixed(1)} MiB, ${last.fds} fds, ${last.descendants} descendants, ${failed} failed`,
  );
}, SAMPLE_S * 1000);

let target = TOTAL;
process.once('SIGINT', () => {
  console.error(`SIGINT: stopping at ${calls} calls`);
  target = calls;
});

const fail = (what: string) => {
  failed++;
  firstFailure ??= what;
};

async function worker(): Promise<void> {
  while (calls < target) {
    const init = await postInitialize(url, 'soak');
    await init.text();
    const session = init.headers.get('mcp-session-id');
    if (init.status !== 200 || session === null) {
      fail(`initialize: ${init.status}`);
      continue;
    }
    sessions++;
    const headers = { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    await (
      await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      })
    ).text();
    for (let i = 1; i <= CALLS_PER_SESSION && calls < target; i++) {
      calls++;
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: i,
          method: 'tools/call',
          params: { name: 'upstream__read_notes', arguments: {} },
        }),
      });
      const text = await response.text();
      if (response.status !== 200 || text.includes('"isError":true')) fail(`${response.status} ${text.slice(0, 200)}`);
    }
    const ended = await fetch(url, { method: 'DELETE', headers });
    await ended.text();
    if (ended.status !== 200) fail(`DELETE: ${ended.status}`);
  }
}

await Promise.all(Array.from({ length: WORKERS }, worker));
clearInterval(sampler);
sample();
const seconds = (performance.now() - started) / 1000;
const settled = samples.filter((s) => s.calls >= calls * 0.1);
const rssSlopeKiBPer100k = slope(settled.map((s) => [s.calls / 100_000, s.rssKiB]));
const rssSlopeMiBPerHour = slope(settled.map((s) => [s.seconds / 3600, s.rssKiB / 1024]));
const fds = samples.map((s) => s.fds);
const figures = {
  calls,
  sessions,
  failed,
  seconds: Math.round(seconds),
  callsPerSecond: Math.round(calls / seconds),
  rssStartMiB: +(samples[0]!.rssKiB / 1024).toFixed(1),
  rssAfterWarmupMiB: +((settled[0] ?? samples[0]!).rssKiB / 1024).toFixed(1),
  rssEndMiB: +(samples.at(-1)!.rssKiB / 1024).toFixed(1),
  rssSlopeKiBPer100kCalls: Math.round(rssSlopeKiBPer100k),
  rssSlopeMiBPerHour: +rssSlopeMiBPerHour.toFixed(1),
  fdMin: Math.min(...fds),
  fdMax: Math.max(...fds),
  fdEnd: fds.at(-1),
  descendantsMax: Math.max(...samples.map((s) => s.descendants)),
  descendantsEnd: samples.at(-1)!.descendants,
  samples: samples.length,
};
table(
  `Gateway soak: ${calls.toLocaleString('en')} calls in ${sessions.toLocaleString('en')} sessions (${WORKERS} clients, ${CALLS_PER_SESSION} calls per session, then DELETE), ${figures.seconds} s`,
  ['figure', 'value'],
  Object.entries(figures).map(([k, v]) => [k, String(v)]),
);
if (firstFailure !== undefined) console.error(`first failure: ${firstFailure}`);
record('gateway-soak', { ...figures, series: samples });
child.kill('SIGTERM');
process.exit(0);
