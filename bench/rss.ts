/**
 * Memory of a server that imports candor and serves one tool over stdio
 * (test/fixtures/one-tool-server.mjs, plain node): its RSS (VmRSS from /proc) after
 * the first tools/call has been answered, with a zod input schema and with a
 * plain JSON Schema, next to what node itself and node importing zod take. Each
 * process is measured `ROUNDS` times (fresh each time); the median is reported.
 * Which modules such a server loads is checked by a test (test/api/one-tool-modules.test.ts).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { record, table } from './_harness.js';

const here = dirname(fileURLToPath(import.meta.url));
const oneTool = join(here, '..', 'test', 'fixtures', 'one-tool-server.mjs');
const ROUNDS = Number(process.env.BENCH_RSS_ROUNDS ?? 5);

const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** RSS of `node <args>` once it has printed `ready` (or answered the call, for a server). */
function measure(args: string[], call: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: here, stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    const done = () => {
      const rss = rssMiB(child.pid!);
      child.kill();
      resolve(rss);
    };
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (!call && out.includes('ready')) done();
      if (call && out.includes('"id":2,')) {
        if (!out.includes('"text":"hello"')) reject(new Error(`one-tool server answered: ${out}`));
        else done();
      }
    });
    child.once('error', reject);
    if (call) {
      const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
      });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' } } });
    }
  });
}

/** Say so, and stay alive until measured (an exited process has no RSS to read). */
const READY = "process.stdout.write('ready'); setInterval(() => {}, 60_000);";
const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1]!;
const cases: Array<[string, string[], boolean]> = [
  ['node alone', ['-e', `${READY}`], false],
  ['node importing zod', ['--input-type=module', '-e', `await import('zod'); ${READY}`], false],
  ['node importing candor', ['--input-type=module', '-e', `await import('../dist/src/index.js'); ${READY}`], false],
  ['one-tool server, zod schema, after its first tools/call', [oneTool, 'zod'], true],
  ['one-tool server, JSON Schema, after its first tools/call', [oneTool, 'json'], true],
];
const results: Record<string, number> = {};
const samples = new Map<string, number[]>(cases.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, args, call] of cases) samples.get(name)!.push(await measure(args, call));
}
for (const [name, values] of samples) results[name] = Math.round(median(values) * 10) / 10;
table(
  `RSS (MiB, median of ${ROUNDS} fresh processes, Node ${process.version})`,
  ['process', 'RSS'],
  Object.entries(results).map(([k, v]) => [k, v.toFixed(1)]),
);
record('rss', { rounds: ROUNDS, rssMiB: results });
