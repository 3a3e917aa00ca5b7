/**
 * What `candor/host` costs per call: `host.run()` against calling the SDK v2
 * client directly, same candor server, in-memory transports, one process.
 * Variants are interleaved round by round (the machine is shared and noisy)
 * and the median per-call time of each is printed, for single calls and for
 * batches of ten read-only calls.
 *
 * The host lists tools raw (it must see keys the SDK's schema drops), so its
 * SDK client skips the SDK's output-validation index; the "listed" direct
 * client shows what that index costs a plain SDK user.
 *
 *   node --import tsx bench/host-run.ts [--calls 2000] [--rounds 7]
 */
import { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { createHost } from '../src/host/index.js';
import { createServer } from '../src/server/create-server.js';
import { defineTool } from '../src/tool/define.js';
import { record } from './_harness.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? Number(argv[at + 1]) : fallback;
};
const CALLS = option('calls', 2000);
const ROUNDS = option('rounds', 7);
const BATCH = 10;

const echo = defineTool({
  name: 'echo',
  description: 'Echo the text back.',
  input: z.object({ text: z.string() }),
  effect: 'read',
  world: 'closed',
  handler: ({ text }) => text,
});
const server = createServer({ name: 'bench', version: '1.0.0', tools: [echo] });
type AnyTransport = Parameters<Client['connect']>[0];
const memory = () => server.connectMemory() as unknown as AnyTransport;

const bare = new Client({ name: 'bench-direct', version: '1.0.0' });
await bare.connect(memory());
const listed = new Client({ name: 'bench-listed', version: '1.0.0' });
await listed.connect(memory());
await listed.listTools();
const host = await createHost({ servers: { bench: { transport: memory(), trust: 'trusted', era: 'legacy' } } });
const args = { text: 'hello' };
const batch = Array.from({ length: BATCH }, () => ({ tool: 'bench__echo', args }));

interface Variant {
  label: string;
  /** Calls per invocation of `body`. */
  calls: number;
  body: () => Promise<unknown>;
  samples: number[];
}
const variants: Variant[] = [
  { label: 'SDK client.callTool', calls: 1, body: () => bare.callTool({ name: 'echo', arguments: args }), samples: [] },
  {
    label: 'SDK client.callTool after listTools()',
    calls: 1,
    body: () => listed.callTool({ name: 'echo', arguments: args }),
    samples: [],
  },
  {
    label: 'host.run([call])',
    calls: 1,
    body: async () => {
      const [outcome] = await host.run([{ tool: 'bench__echo', args }]);
      if (outcome!.status !== 'ok') throw new Error(outcome!.message);
    },
    samples: [],
  },
  {
    label: `SDK Promise.all of ${BATCH} calls`,
    calls: BATCH,
    body: () => Promise.all(batch.map(() => bare.callTool({ name: 'echo', arguments: args }))),
    samples: [],
  },
  { label: `host.run of ${BATCH} read-only calls`, calls: BATCH, body: () => host.run(batch), samples: [] },
];

for (const variant of variants) for (let i = 0; i < 200; i++) await variant.body(); // warm up
for (let round = 0; round < ROUNDS; round++) {
  for (const variant of variants) {
    const invocations = Math.max(1, Math.round(CALLS / variant.calls));
    const start = process.hrtime.bigint();
    for (let i = 0; i < invocations; i++) await variant.body();
    variant.samples.push(Number(process.hrtime.bigint() - start) / 1000 / (invocations * variant.calls));
  }
}
const median = (v: Variant) => [...v.samples].sort((a, b) => a - b)[Math.floor(v.samples.length / 2)]!;

console.log(
  `candor/host per-call cost, in-memory transport, ~${CALLS} calls × ${ROUNDS} interleaved rounds (median)\n`,
);
for (const variant of variants)
  console.log(`${variant.label.padEnd(40)} ${median(variant).toFixed(1).padStart(8)} µs/call`);
const [direct, , single, directBatch, hostBatch] = variants.map(median) as [number, number, number, number, number];
console.log(
  `\nrun() overhead: ${(single - direct).toFixed(1)} µs per single call, ${(hostBatch - directBatch).toFixed(1)} µs per call in batches of ${BATCH}`,
);
record('host-run', {
  microsPerCall: Object.fromEntries(variants.map((v) => [v.label, median(v)])),
  runOverheadMicros: { single: single - direct, perCallInBatch: hostBatch - directBatch, batch: BATCH },
});
await host.close();
await bare.close();
await listed.close();
await server.close();
