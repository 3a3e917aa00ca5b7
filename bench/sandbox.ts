/**
 * What the sandbox costs, with the sandbox probe (a candor stdio server).
 *
 * Start-up: sandbox preparation + spawn + MCP handshake, for the server run plainly,
 * in the default sandbox (bwrap, no network), with a network allow-list (a Node
 * server: the listeners run in its own process), and with an allow-list for a
 * program that is not started as Node (`sh -c 'exec node …'`: the forwarder is a
 * second Node process, as every allow-listed server ran before; the same shell start
 * is measured unsandboxed too, to tell its own cost). Rounds alternate
 * between the kinds in a rotating order, so a noisy machine slows all alike; "added" is
 * the median of each round's difference to that round's unsandboxed start (with its
 * quartiles). Beside wall time: the CPU the started processes used up to the finished
 * handshake (every thread's time on a CPU, from /proc: other load does not count).
 *
 * Per call: one gateway (createGateway, in this process) with the same server as
 * five upstreams (two unsandboxed copies: their difference is the noise floor); blocks of `tools/call`s through `gateway.host.call`, the upstreams
 * taking turns in a rotating order. Wall time per call (p50, p90) and this process's
 * CPU per call (the gateway's side: user + system); "added" pairs each block with the
 * unsandboxed block of the same tool and round. `read_file` is the MCP path
 * only; `connect` opens a TCP connection to an allowed port, which for the
 * allow-listed upstreams goes through the in-sandbox listener and the gateway's
 * bridge. Nothing here asserts a time.
 *
 *   npm run build && node --import tsx bench/sandbox.ts [start-rounds] [call-rounds] [calls-per-block]
 */
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createGateway } from '../src/gateway/index.js';
import type { UpstreamConfig } from '../src/gateway/types.js';
import { prepareServerSandbox } from '../src/sandbox/index.js';
import type { SandboxSpec } from '../src/sandbox/types.js';
import { record, table } from './_harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const probe = join(here, '..', 'test', 'fixtures', 'sandbox', 'probe-server.mjs');
const startRounds = Number(process.argv[2] ?? 11);
const callRounds = Number(process.argv[3] ?? 20);
const block = Number(process.argv[4] ?? 200);

const echo = net.createServer((socket) => socket.end('hello\n'));
await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
const port = (echo.address() as net.AddressInfo).port;
const allowList: SandboxSpec = { network: [`127.0.0.1:${port}`], read: [], write: [], env: [] };
/** The probe, started by a shell: not recognised as a Node program, so it runs under the forwarder process. */
const viaShell = { command: '/bin/sh', args: ['-c', 'exec "$0" "$@"', process.execPath, probe] };

const kinds: Array<{ name: string; command: string; args: string[]; spec?: SandboxSpec }> = [
  { name: 'unsandboxed', command: process.execPath, args: [probe] },
  { name: 'unsandboxed, started by sh', ...viaShell },
  {
    name: 'sandbox, no network',
    command: process.execPath,
    args: [probe],
    spec: { network: false, read: [], write: [], env: [] },
  },
  { name: 'sandbox, allow-list (listeners in the server)', command: process.execPath, args: [probe], spec: allowList },
  { name: 'sandbox, allow-list (forwarder process)', ...viaShell, spec: allowList },
];

/**
 * CPU time, in ms, of `root` and every process below it so far: each thread's time on a
 * CPU from /proc/<pid>/task/<tid>/schedstat (nanoseconds; other load does not count).
 */
function treeCpuMs(root: number): number {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {}
  }
  let ns = 0;
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    pending.push(...(children.get(pid) ?? []));
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      }
    } catch {}
  }
  return ns / 1e6;
}

/** Wall time to a finished handshake, and the CPU the started processes used to get there. */
async function startOnce(kind: (typeof kinds)[number]): Promise<{ wall: number; cpu: number }> {
  const started = performance.now();
  const sandbox = kind.spec
    ? await prepareServerSandbox({ name: 'bench', command: kind.command, args: kind.args, spec: kind.spec })
    : undefined;
  const transport = new StdioClientTransport(
    sandbox
      ? { command: sandbox.command, args: sandbox.args, env: sandbox.env, stderr: 'ignore' }
      : { command: kind.command, args: kind.args, stderr: 'ignore' },
  );
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  const wall = performance.now() - started;
  const cpu = treeCpuMs(transport.pid!);
  await client.close();
  await sandbox?.dispose();
  return { wall, cpu };
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;
/** Median and quartiles of `values`, as `m [q1, q3]`. */
const spread = (values: number[], digits: number, unit: string) =>
  `${quantile(values, 0.5).toFixed(digits)} [${quantile(values, 0.25).toFixed(digits)}, ${quantile(values, 0.75).toFixed(digits)}] ${unit}`;

// Start-up, alternating; "added" is the median of each round's difference to the unsandboxed start of that round.
const starts = new Map(kinds.map((k) => [k.name, { wall: [] as number[], cpu: [] as number[] }]));
for (let round = 0; round < startRounds; round++) {
  const order = kinds.map((_, i) => kinds[(round + i) % kinds.length]!);
  for (const kind of order) {
    const { wall, cpu } = await startOnce(kind);
    starts.get(kind.name)!.wall.push(wall);
    starts.get(kind.name)!.cpu.push(cpu);
  }
}
const paired = (values: number[], base: number[]) => values.map((v, i) => v - base[i]!);
const plain = starts.get('unsandboxed')!;
table(
  `Sandbox start-up (${startRounds} rounds in rotating order; median [quartiles])`,
  ['server', 'wall', 'wall added (paired)', 'CPU of its processes', 'CPU added (paired)'],
  kinds.map((k) => {
    const r = starts.get(k.name)!;
    return [
      k.name,
      `${quantile(r.wall, 0.5).toFixed(1)} ms`,
      spread(paired(r.wall, plain.wall), 1, 'ms'),
      `${quantile(r.cpu, 0.5).toFixed(1)} ms`,
      spread(paired(r.cpu, plain.cpu), 1, 'ms'),
    ];
  }),
);

// Per call, through one gateway.
const upstreams: Record<string, UpstreamConfig> = {
  open: { command: process.execPath, args: [probe], sandbox: false },
  // A second unsandboxed copy: how far two identical upstream processes differ (placement on the cores, …).
  open2: { command: process.execPath, args: [probe], sandbox: false },
  boxed: { command: process.execPath, args: [probe], sandbox: true },
  allowed: { command: process.execPath, args: [probe], sandbox: allowList },
  forwarded: { ...viaShell, sandbox: allowList },
};
const silent = { error() {}, warn() {}, info() {}, debug() {} };
const gateway = await createGateway({ servers: upstreams, policy: 'yolo', logger: silent });
const down = gateway.status().filter((u) => u.state !== 'up');
if (down.length > 0) throw new Error(`upstreams not up: ${JSON.stringify(down)}`);

const cases: Array<{ name: string; upstream: string; tool: string; args: Record<string, unknown> }> = [
  ...Object.keys(upstreams).map((upstream) => ({
    name: `${upstream} read_file`,
    upstream,
    tool: 'read_file',
    args: { path: '/etc/hostname' },
  })),
  ...['open', 'open2', 'allowed', 'forwarded'].map((upstream) => ({
    name: `${upstream} connect`,
    upstream,
    tool: 'connect',
    args: { port },
  })),
];
const walls = new Map(cases.map((c) => [c.name, [] as number[]]));
/** Per block: its p50 wall time and this process's CPU per call. */
const blockWalls = new Map(cases.map((c) => [c.name, [] as number[]]));
const cpus = new Map(cases.map((c) => [c.name, [] as number[]]));
const callOnce = async (c: (typeof cases)[number]) => {
  const outcome = await gateway.host.call(`${c.upstream}__${c.tool}`, c.args);
  const text = (outcome.result?.content?.[0] as { text?: string } | undefined)?.text ?? '';
  if (outcome.status !== 'ok' || !text.startsWith('ok: ')) throw new Error(`${c.name}: ${JSON.stringify(outcome)}`);
};
for (const c of cases) for (let i = 0; i < 50; i++) await callOnce(c); // warm-up
for (let round = 0; round < callRounds; round++) {
  for (let k = 0; k < cases.length; k++) {
    const c = cases[(round + k) % cases.length]!;
    const cpu = process.cpuUsage();
    const times: number[] = [];
    for (let i = 0; i < block; i++) {
      const t = performance.now();
      await callOnce(c);
      times.push((performance.now() - t) * 1000);
    }
    const used = process.cpuUsage(cpu);
    walls.get(c.name)!.push(...times);
    blockWalls.get(c.name)!.push(quantile(times, 0.5));
    cpus.get(c.name)!.push((used.user + used.system) / block);
  }
}
// "added": the median over rounds of (this block − the unsandboxed block of the same tool and round).
const rows = cases.map((c) => {
  const open = `open ${c.tool}`;
  return [
    c.name,
    `${quantile(walls.get(c.name)!, 0.5).toFixed(0)} µs`,
    spread(paired(blockWalls.get(c.name)!, blockWalls.get(open)!), 0, 'µs'),
    `${quantile(walls.get(c.name)!, 0.9).toFixed(0)} µs`,
    `${quantile(cpus.get(c.name)!, 0.5).toFixed(0)} µs`,
    spread(paired(cpus.get(c.name)!, cpus.get(open)!), 0, 'µs'),
  ];
});
table(
  `Per call through the gateway (${callRounds} rotating rounds of ${block} calls per upstream and tool; median [quartiles])`,
  ['upstream, tool', 'wall p50', 'p50 added (paired)', 'wall p90', 'gateway CPU/call', 'CPU added (paired)'],
  rows,
);
await gateway.close();
echo.close();
record('sandbox', {
  start: Object.fromEntries(
    kinds.map((k) => [
      k.name,
      { wallMs: quantile(starts.get(k.name)!.wall, 0.5), cpuMs: quantile(starts.get(k.name)!.cpu, 0.5) },
    ]),
  ),
  perCall: Object.fromEntries(
    cases.map((c) => [
      c.name,
      { wallP50Us: quantile(walls.get(c.name)!, 0.5), cpuUs: quantile(cpus.get(c.name)!, 0.5) },
    ]),
  ),
});
