/**
 * The cost of watching: calls per second of one simple read tool,
 * the same server run plainly and run inside `candor observe`'s sandbox
 * (bubblewrap namespaces + `strace -f`), one call at a time, in one run.
 * Reported: latency per call and the overhead of tracing. Nothing here asserts a time.
 *
 *   npm run build && node --import tsx bench/observe.ts [seconds]
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { checkPlatform, prepareSandbox } from '../src/observe/sandbox.js';
import { record, table } from './_harness.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const server = join(repo, 'test', 'fixtures', 'gateway', 'upstream.mjs');
const seconds = Number(process.argv[2] ?? 3);

async function rate(command: string, args: string[]): Promise<number> {
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  await client.callTool({ name: 'read_notes', arguments: {} });
  let calls = 0;
  const started = performance.now();
  const end = started + seconds * 1000;
  while (performance.now() < end) {
    await client.callTool({ name: 'read_notes', arguments: {} });
    calls++;
  }
  const perSecond = (calls * 1000) / (performance.now() - started);
  await client.close();
  return perSecond;
}

checkPlatform();
const plain = await rate(process.execPath, [server]);
const sandbox = await prepareSandbox({
  command: process.execPath,
  args: [server],
  workdir: join(repo, 'examples', 'workspace', 'demo-root'),
});
let traced: number;
try {
  traced = await rate(sandbox.command, sandbox.args);
} finally {
  await sandbox.dispose();
}
table(
  `Observation overhead: one read tool, one call at a time (${seconds}s each)`,
  ['server', 'calls/s', 'µs per call'],
  [
    ['plain (node, stdio)', plain.toFixed(0), (1e6 / plain).toFixed(0)],
    ['in the observe sandbox (bwrap + strace -f)', traced.toFixed(0), (1e6 / traced).toFixed(0)],
    ['added by observing', '', (1e6 / traced - 1e6 / plain).toFixed(0)],
  ],
);
record('observe', { seconds, plainCallsPerSecond: Math.round(plain), tracedCallsPerSecond: Math.round(traced) });
