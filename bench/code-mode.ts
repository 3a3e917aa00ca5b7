/**
 * Code mode, measured; not a test. `candor gateway` in front of the six
 * generated catalog servers (test/fixtures/gateway/catalog-server.mjs, 300
 * tools, stdio, marked trusted so reads run without a question), an SDK v2
 * client over Streamable HTTP:
 *
 * 1. Tool definitions: the `tools/list` the client gets in ordinary mode and in
 *    code mode (JSON characters / 4 ≈ tokens), and the typed API of one tool.
 * 2. Script start-up: an empty script in the sandbox, in process (p50 / p99),
 *    and an empty `run_script` over the wire against a `find_tools`-free
 *    ordinary read call (the round trip both pay).
 * 3. Per-call overhead: one ordinary proxied read call (client → gateway →
 *    upstream → back), against one call inside a script (a script making 20
 *    calls, less the empty script, over 20).
 * 4. A task: read 10 records from three servers and keep those that match.
 *    Ordinary: list, then 10 calls. Code mode: list, tool_api, one script.
 *    Round trips, tokens sent to the model (definitions + results) and wall time.
 *
 *   npm run build && node --import tsx bench/code-mode.ts [runs]
 */
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createGateway } from '../src/gateway/gateway.js';
import { runScript } from '../src/host/code-mode/sandbox.js';
import { CATALOG_SERVERS } from '../test/fixtures/gateway/catalog.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const catalogServer = join(repo, 'test', 'fixtures', 'gateway', 'catalog-server.mjs');
const silent = { error() {}, warn() {}, info() {}, debug() {} };
const runs = Number(process.argv[2] ?? 200);

const tokens = (value: unknown) => Math.round(JSON.stringify(value).length / 4);
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const ms = (value: number) => `${value.toFixed(2)} ms`;

async function timed(times: number, work: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await work();
    out.push(performance.now() - started);
  }
  return out;
}

console.log(`code mode bench: node ${process.version}, ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}`);

const servers = Object.fromEntries(
  CATALOG_SERVERS.map((s) => [s, { command: process.execPath, args: [catalogServer, s], trust: 'trusted' as const }]),
);
const gateway = await createGateway({ servers, profiles: { code: { toolList: 'code' } }, logger: silent });
const listener = await gateway.listen({ port: 0, handleSignals: false });
const connect = async (path: string) => {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${listener.url}${path}`)));
  return client;
};
const ordinary = await connect('');
const code = await connect('/code');

// 1. Tool definitions.
const allList = await ordinary.listTools();
const codeList = await code.listTools();
const api = await code.callTool({ name: 'tool_api', arguments: { tools: ['github__get_issue'] } });
console.log('\n1. tool definitions sent to the model (JSON characters / 4)');
console.log(`   ordinary mode: ${allList.tools.length} tools ≈ ${tokens(allList)} tokens`);
console.log(
  `   code mode:     ${codeList.tools.length} tools ≈ ${tokens(codeList)} tokens (${((100 * tokens(codeList)) / tokens(allList)).toFixed(1)}% of ordinary)`,
);
console.log(`   typed API of one tool (github__get_issue) ≈ ${tokens(api.content)} tokens`);

// 2. Script start-up.
await timed(20, () => runScript({ code: 'return 1;', names: [], call: async () => null }));
const startup = await timed(runs, () => runScript({ code: 'return 1;', names: [], call: async () => null }));
console.log('\n2. script start-up');
console.log(
  `   sandbox, in process (fresh runtime, empty script): p50 ${ms(quantile(startup, 0.5))}, p99 ${ms(quantile(startup, 0.99))}`,
);
const read = { name: 'github__get_issue', arguments: { id: '1' } };
await timed(20, () => ordinary.callTool(read));
await timed(20, () => code.callTool({ name: 'run_script', arguments: { code: 'return 1;' } }));
const plainCall = await timed(runs, () => ordinary.callTool(read));
const emptyScript = await timed(runs, () => code.callTool({ name: 'run_script', arguments: { code: 'return 1;' } }));
console.log(
  `   over the wire: empty run_script p50 ${ms(quantile(emptyScript, 0.5))}; one ordinary read call p50 ${ms(quantile(plainCall, 0.5))}`,
);

// 3. Per-call overhead inside a script.
const calls = 20;
const loop = `const out = []; for (let i = 0; i < ${calls}; i++) out.push(await tools.github__get_issue({ id: String(i) })); return out.length;`;
await timed(10, () => code.callTool({ name: 'run_script', arguments: { code: loop } }));
const looped = await timed(Math.max(20, runs / 5), () =>
  code.callTool({ name: 'run_script', arguments: { code: loop } }),
);
const perCall = (quantile(looped, 0.5) - quantile(emptyScript, 0.5)) / calls;
console.log('\n3. per-call cost');
console.log(`   ordinary proxied call (client round trip included): p50 ${ms(quantile(plainCall, 0.5))}`);
console.log(
  `   one call inside a script ((${calls}-call script − empty script) / ${calls}): ${ms(perCall)} = ${(perCall / quantile(plainCall, 0.5)).toFixed(2)}× the ordinary call`,
);

// 4. A task both ways.
const ids = ['1', '2', '3', '4'];
const wanted = [
  ...ids.map((id) => ({ name: 'github__get_issue', arguments: { id } })),
  ...ids.slice(0, 3).map((id) => ({ name: 'crm__get_deal', arguments: { id } })),
  ...ids.slice(0, 3).map((id) => ({ name: 'cloud__get_alarm', arguments: { id } })),
];
const taskOrdinary = async () => {
  let sent = 0;
  let trips = 0;
  const list = await ordinary.listTools();
  trips++;
  sent += tokens(list);
  const kept: string[] = [];
  for (const call of wanted) {
    const result = await ordinary.callTool(call);
    trips++;
    sent += tokens(result.content);
    const text = (result.content as Array<{ text?: string }>)[0]?.text ?? '';
    if (text.includes('"2"')) kept.push(text);
  }
  return { sent, trips, kept: kept.length };
};
const taskCode = async () => {
  let sent = 0;
  let trips = 0;
  const list = await code.listTools();
  trips++;
  sent += tokens(list);
  const declared = await code.callTool({
    name: 'tool_api',
    arguments: { tools: ['github__get_issue', 'crm__get_deal', 'cloud__get_alarm'] },
  });
  trips++;
  sent += tokens(declared.content);
  const script = `const calls = ${JSON.stringify(wanted)};
    const texts = [];
    for (const c of calls) texts.push(await tools[c.name](c.arguments));
    return texts.filter((t) => t.includes('"2"'));`;
  const result = await code.callTool({ name: 'run_script', arguments: { code: script } });
  trips++;
  sent += tokens(result.content);
  return { sent, trips, kept: (result.structuredContent as { result: unknown[] }).result.length };
};
for (const [name, task] of [
  ['ordinary', taskOrdinary],
  ['code mode', taskCode],
] as const) {
  await task();
  let outcome = await task();
  const times = await timed(Math.max(10, runs / 10), async () => {
    outcome = await task();
  });
  console.log(
    `\n4. task (${wanted.length} reads over 3 servers, keep the matches), ${name}: ${outcome.trips} round trips, ≈ ${outcome.sent} tokens to the model, ${outcome.kept} kept, wall p50 ${ms(quantile(times, 0.5))}`,
  );
}

await ordinary.close();
await code.close();
await listener.close();
await gateway.close();
