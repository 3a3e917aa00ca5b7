/**
 * What the sandbox costs (issue 21), with the sandbox probe (a candor stdio server).
 *
 * Start-up: sandbox preparation + spawn + MCP handshake, for the server run plainly,
 * in the default sandbox (bwrap, no network), with a network allow-list (a Node
 * server: the listeners run in its own process), and with an allow-list for a
 * program that is not started as Node (`sh -c 'exec node …'`: the forwarder is a
 * second Node process, as every allow-listed server ran before; the same shell start
 * is measured unsandboxed too, to tell its own cost). Rounds alternate
 * between the kinds, so a noisy machine slows all alike; medians are shown.
 *
 * Per call: one gateway (createGateway, in this process) with the same server as
 * four upstreams; blocks of `tools/call`s through `gateway.host.call`, the upstreams
 * taking turns in a rotating order. Wall time per call (p50, p90) and this process's
 * CPU per call (the gateway's side: user + system). `read_file` is the MCP path
 * only; `connect` opens a TCP connection to an allowed port, which for the
 * allow-listed upstreams goes through the in-sandbox listener and the gateway's
 * bridge. Nothing here asserts a time.
 *
 *   npm run build && node --import tsx bench/sandbox.ts [start-rounds] [call-rounds] [calls-per-block]
 */
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

async function startOnce(kind: (typeof kinds)[number]): Promise<number> {
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
  const ms = performance.now() - started;
  await client.close();
  await sandbox?.dispose();
  return ms;
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;

// Start-up, alternating.
const starts = new Map(kinds.map((k) => [k.name, [] as number[]]));
for (let round = 0; round < startRounds; round++) {
  for (const kind of kinds) starts.get(kind.name)!.push(await startOnce(kind));
}
const base = quantile(starts.get('unsandboxed')!, 0.5);
table(
  `Sandbox start-up (median of ${startRounds} alternating rounds)`,
  ['server', 'start-up', 'added'],
  kinds.map((k) => {
    const median = quantile(starts.get(k.name)!, 0.5);
    return [k.name, `${median.toFixed(1)} ms`, `${(median - base).toFixed(1)} ms`];
  }),
);

// Per call, through one gateway.
const upstreams: Record<string, UpstreamConfig> = {
  open: { command: process.execPath, args: [probe], sandbox: false },
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
  ...['open', 'allowed', 'forwarded'].map((upstream) => ({
    name: `${upstream} connect`,
    upstream,
    tool: 'connect',
    args: { port },
  })),
];
const walls = new Map(cases.map((c) => [c.name, [] as number[]]));
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
    for (let i = 0; i < block; i++) {
      const t = performance.now();
      await callOnce(c);
      walls.get(c.name)!.push((performance.now() - t) * 1000);
    }
    const used = process.cpuUsage(cpu);
    cpus.get(c.name)!.push((used.user + used.system) / block);
  }
}
const baseline = (tool: string) => ({
  wall: quantile(walls.get(`open ${tool}`)!, 0.5),
  cpu: quantile(cpus.get(`open ${tool}`)!, 0.5),
});
const rows = cases.map((c) => {
  const b = baseline(c.tool);
  const p50 = quantile(walls.get(c.name)!, 0.5);
  const cpu = quantile(cpus.get(c.name)!, 0.5);
  return [
    c.name,
    `${p50.toFixed(0)} µs`,
    `${(p50 - b.wall).toFixed(0)} µs`,
    `${quantile(walls.get(c.name)!, 0.9).toFixed(0)} µs`,
    `${cpu.toFixed(0)} µs`,
    `${(cpu - b.cpu).toFixed(0)} µs`,
  ];
});
table(
  `Per call through the gateway (${callRounds} rotating rounds of ${block} calls per upstream and tool)`,
  ['upstream, tool', 'wall p50', 'added', 'wall p90', 'gateway CPU/call (median block)', 'added'],
  rows,
);
await gateway.close();
echo.close();
record('sandbox', {
  startMs: Object.fromEntries(kinds.map((k) => [k.name, quantile(starts.get(k.name)!, 0.5)])),
  perCall: Object.fromEntries(
    cases.map((c) => [
      c.name,
      { wallP50Us: quantile(walls.get(c.name)!, 0.5), cpuUs: quantile(cpus.get(c.name)!, 0.5) },
    ]),
  ),
});
