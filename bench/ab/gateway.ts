/**
 * A/B of two builds of the gateway in one run: each build's `candor gateway
 * --http --policy yolo` in front of its own copy of the same stdio upstream
 * (test/fixtures/gateway/upstream.mjs), loaded in turn by wrk (16 connections,
 * bench/wrk/mcp-session.lua), the order reversed every other round. Reports each
 * build's gateway process CPU per proxied call (/proc, user + system) over all
 * rounds, the median of the rounds' CPU ratios, calls/s, and the load average
 * before and after (the machine may be shared).
 *
 * Not part of `npm run bench` (it needs a second build). Copy a build first:
 *
 *   cp -r dist .cache/ab/base && <change, npm run build>
 *   node --import tsx bench/ab/gateway.ts .cache/ab/base dist [rounds] [seconds]
 *
 * Extra environment for one side: AB_ENV_A / AB_ENV_B, e.g. AB_ENV_B=CANDOR_LEAN_CALLS=0.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { JSON_HEADERS, table } from '../_harness.js';
import { ensureWrk, type WrkResult, wrkLoad } from '../_wrk.js';

const [a, b, roundsArg, secondsArg] = process.argv.slice(2);
if (!a || !b) throw new Error('usage: bench/ab/gateway.ts <dist A> <dist B> [rounds] [seconds]');
const rounds = Number(roundsArg ?? 6);
const seconds = Number(secondsArg ?? 4);
const repo = resolve(import.meta.dirname, '..', '..');
const upstream = join(repo, 'test', 'fixtures', 'gateway', 'upstream.mjs');
const PROTOCOL = '2025-11-25';

function envOf(spec: string | undefined): Record<string, string> {
  if (!spec) return {};
  return Object.fromEntries(spec.split(',').map((kv) => kv.split('=') as [string, string]));
}

async function startGateway(dist: string, port: number, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      join(resolve(dist), 'src', 'cli', 'main.js'),
      'gateway',
      '--http',
      `127.0.0.1:${port}`,
      '--policy',
      'yolo',
      '--',
      process.execPath,
      upstream,
    ],
    { stdio: 'ignore', detached: true, env: { ...process.env, ...env } },
  );
  const url = `http://127.0.0.1:${port}/mcp`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`${dist}: the gateway exited (${child.exitCode})`);
    try {
      await fetch(url, { method: 'GET' });
      return child;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${dist}: the gateway did not come up`);
}

ensureWrk();
const sessions = mkdtempSync(join(tmpdir(), 'candor-ab-'));
const loadBefore = loadavg();
const sides = [
  {
    name: `A ${a}`,
    dist: a,
    port: 4950 + (process.pid % 20),
    env: envOf(process.env.AB_ENV_A),
    rounds: [] as WrkResult[],
  },
  {
    name: `B ${b}`,
    dist: b,
    port: 4980 + (process.pid % 20),
    env: envOf(process.env.AB_ENV_B),
    rounds: [] as WrkResult[],
  },
];
const children: ChildProcess[] = [];
try {
  for (const side of sides) children.push(await startGateway(side.dist, side.port, side.env));
  const load = (i: number, duration: number) =>
    wrkLoad({
      url: `http://127.0.0.1:${sides[i]!.port}/mcp`,
      message: { jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: 'upstream__read_notes', arguments: {} } },
      headers: { ...JSON_HEADERS, 'mcp-protocol-version': PROTOCOL },
      seconds: duration,
      connections: 16,
      pid: children[i]!.pid!,
      openSession: PROTOCOL,
      sessionFile: join(sessions, `${i}.session`),
    });
  await load(0, 2);
  await load(1, 2);
  for (let round = 0; round < rounds; round++) {
    for (const i of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const r = await load(i, seconds);
      if (r.errors > 0) throw new Error(`${sides[i]!.name}: ${r.errorDetail}`);
      sides[i]!.rounds.push(r);
    }
  }
} finally {
  for (const child of children) if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
  rmSync(sessions, { recursive: true, force: true });
}
const perCall = (r: WrkResult) => (r.userMicros + r.sysMicros) / r.requests;
const median = (values: number[]) => {
  const s = [...values].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const [A, B] = sides as [(typeof sides)[0], (typeof sides)[0]];
table(
  `gateway A/B, wrk -t1 -c16, ${rounds} rounds of ${seconds} s alternating; load average ${loadBefore.map((x) => x.toFixed(2)).join(' ')} before, ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')} after`,
  ['build', 'CPU µs/call (all rounds)', 'per round', 'calls/s (median)'],
  sides.map((s) => [
    s.name + (Object.keys(s.env).length ? ` ${JSON.stringify(s.env)}` : ''),
    (
      s.rounds.reduce((t, r) => t + r.userMicros + r.sysMicros, 0) / s.rounds.reduce((t, r) => t + r.requests, 0)
    ).toFixed(1),
    s.rounds.map((r) => perCall(r).toFixed(0)).join(' '),
    median(s.rounds.map((r) => r.requestsPerSecond)).toFixed(0),
  ]),
);
console.log(
  `B/A CPU per call, median of the rounds' ratios: ${median(A.rounds.map((r, i) => perCall(B.rounds[i]!) / perCall(r))).toFixed(3)}`,
);
