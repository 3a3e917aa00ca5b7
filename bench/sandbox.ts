/**
 * What the sandbox costs (issue 21): the same stdio server (the sandbox probe, a
 * candor server) started and called plainly, in the default sandbox (bwrap: no
 * network), and in a sandbox with a network allow-list (bwrap plus the loopback
 * forwarder). Start-up is sandbox preparation + spawn + MCP handshake; per call is
 * the mean of sequential `tools/call`s over the same connection. Rounds alternate
 * between the three so a noisy machine slows all alike; the median round is shown.
 * Nothing here asserts a time.
 *
 *   npm run build && node --import tsx bench/sandbox.ts [rounds] [calls-per-round]
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { prepareServerSandbox } from '../src/sandbox/index.js';
import type { SandboxSpec } from '../src/sandbox/types.js';
import { record, table } from './_harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const probe = join(here, '..', 'test', 'fixtures', 'sandbox', 'probe-server.mjs');
const rounds = Number(process.argv[2] ?? 7);
const calls = Number(process.argv[3] ?? 1000);

const kinds: Array<{ name: string; spec?: SandboxSpec }> = [
  { name: 'unsandboxed' },
  { name: 'sandbox, no network', spec: { network: false, read: [], write: [], env: [] } },
  { name: 'sandbox, allow-list', spec: { network: ['127.0.0.1:9'], read: [], write: [], env: [] } },
];

async function once(spec: SandboxSpec | undefined): Promise<{ startMs: number; callUs: number }> {
  const started = performance.now();
  const sandbox = spec
    ? await prepareServerSandbox({ name: 'bench', command: process.execPath, args: [probe], spec })
    : undefined;
  const transport = new StdioClientTransport(
    sandbox
      ? { command: sandbox.command, args: sandbox.args, env: sandbox.env, stderr: 'ignore' }
      : { command: process.execPath, args: [probe], stderr: 'ignore' },
  );
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  const startMs = performance.now() - started;
  const args = { name: 'read_file', arguments: { path: '/etc/hostname' } };
  for (let i = 0; i < 50; i++) await client.callTool(args);
  const t = performance.now();
  for (let i = 0; i < calls; i++) await client.callTool(args);
  const callUs = ((performance.now() - t) * 1000) / calls;
  await client.close();
  await sandbox?.dispose();
  return { startMs, callUs };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const results = new Map(kinds.map((k) => [k.name, { start: [] as number[], call: [] as number[] }]));
for (let round = 0; round < rounds; round++) {
  for (const kind of kinds) {
    const { startMs, callUs } = await once(kind.spec);
    results.get(kind.name)!.start.push(startMs);
    results.get(kind.name)!.call.push(callUs);
  }
}
const base = results.get('unsandboxed')!;
const rows = kinds.map((kind) => {
  const r = results.get(kind.name)!;
  return [
    kind.name,
    `${median(r.start).toFixed(1)} ms`,
    `${(median(r.start) - median(base.start)).toFixed(1)} ms`,
    `${median(r.call).toFixed(1)} µs`,
    `${(median(r.call) - median(base.call)).toFixed(1)} µs`,
  ];
});
table(
  `Sandbox cost (median of ${rounds} rounds, ${calls} calls each)`,
  ['server', 'start-up', 'added', 'per call', 'added'],
  rows,
);
record(
  'sandbox',
  Object.fromEntries(
    kinds.map((k) => [
      k.name,
      { startMs: median(results.get(k.name)!.start), callUs: median(results.get(k.name)!.call) },
    ]),
  ),
);
