/**
 * read_file calls per second over stdio: candor's workspace server (the built
 * `candor serve --example workspace --stdio`) against the official
 * @modelcontextprotocol/server-filesystem (`read_text_file`), in one run, with
 * the same SDK v2 client, the same 4 KiB file, the same absolute path.
 *
 * Both servers run side by side and are measured in alternating rounds (the
 * order flips each round), so a noisy machine slows both alike; the table shows
 * the median round. Two loads: one call at a time (latency-bound) and 16 in
 * flight (throughput); on Linux also the server's CPU time per call.
 * Nothing here asserts a time.
 *
 *   npm run build && node --import tsx bench/workspace-read-file.ts [rounds] [seconds-per-round]
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { record } from './_harness.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(repo, 'dist', 'src', 'cli', 'main.js');
const filesystemBin = join(repo, 'node_modules', '.bin', 'mcp-server-filesystem');
const rounds = Number(process.argv[2] ?? 5);
const seconds = Number(process.argv[3] ?? 1);

interface Contender {
  name: string;
  tool: string;
  client: Client;
  pid?: number;
  samples: Record<Mode, Array<{ perSecond: number; cpuMicros?: number }>>;
}
type Mode = 'sequential' | 'concurrent';
const IN_FLIGHT: Record<Mode, number> = { sequential: 1, concurrent: 16 };

/** CPU time (user + system) of a process in microseconds, from /proc; undefined elsewhere. */
function cpuMicros(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

async function call(contender: Contender, file: string): Promise<void> {
  const result = (await contender.client.callTool({ name: contender.tool, arguments: { path: file } })) as {
    content: Array<{ text?: string }>;
    isError?: boolean;
  };
  if (result.isError || !result.content[0]?.text?.startsWith('x'.repeat(63))) {
    throw new Error(`${contender.tool} returned something else: ${JSON.stringify(result).slice(0, 200)}`);
  }
}

async function measure(contender: Contender, file: string, mode: Mode): Promise<void> {
  let calls = 0;
  const cpuBefore = cpuMicros(contender.pid);
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: IN_FLIGHT[mode] }, async () => {
      while (performance.now() < deadline) {
        await call(contender, file);
        calls++;
      }
    }),
  );
  const cpuAfter = cpuMicros(contender.pid);
  contender.samples[mode].push({
    perSecond: calls / ((performance.now() - started) / 1000),
    ...(cpuBefore !== undefined && cpuAfter !== undefined ? { cpuMicros: (cpuAfter - cpuBefore) / calls } : {}),
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function start(name: string, tool: string, command: string, args: string[]): Promise<Contender> {
  const transport = new StdioClientTransport({ command, args, stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  return { name, tool, client, pid: transport.pid ?? undefined, samples: { sequential: [], concurrent: [] } };
}

async function main(): Promise<void> {
  if (!existsSync(cli)) throw new Error('Build first: npm run build (this benchmark runs the built CLI).');
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'candor-bench-read-')));
  const file = join(root, 'bench.txt');
  writeFileSync(file, `${Array.from({ length: 64 }, () => `${'x'.repeat(63)}\n`).join('')}`);
  const contenders = [
    await start('candor workspace (read_file)', 'read_file', process.execPath, [
      cli,
      'serve',
      '--example',
      'workspace',
      '--root',
      root,
      '--stdio',
    ]),
    await start('server-filesystem (read_text_file)', 'read_text_file', filesystemBin, [root]),
  ];
  try {
    // Warm up: JIT, file cache, each server's first-call paths.
    for (const contender of contenders) for (let i = 0; i < 500; i++) await call(contender, file);
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? contenders : [...contenders].reverse();
      for (const mode of ['sequential', 'concurrent'] as const) {
        for (const contender of order) await measure(contender, file, mode);
      }
    }
  } finally {
    for (const contender of contenders) await contender.client.close();
    rmSync(root, { recursive: true, force: true });
  }

  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  const rows = contenders.map((c) => {
    const cpu = c.samples.sequential.map((s) => s.cpuMicros).filter((v): v is number => v !== undefined);
    return {
      name: c.name,
      sequential: median(c.samples.sequential.map((s) => s.perSecond)),
      concurrent: median(c.samples.concurrent.map((s) => s.perSecond)),
      cpu: cpu.length > 0 ? median(cpu) : undefined,
    };
  });
  console.log(
    `read_file over stdio: 4 KiB file, SDK v2 client, ${rounds} alternating rounds of ${seconds} s per load (median), Node ${process.version}\n`,
  );
  console.log('| server | calls/s, 1 in flight | calls/s, 16 in flight | server CPU per call |');
  console.log('|---|---|---|---|');
  for (const row of rows) {
    const cpu = row.cpu === undefined ? 'n/a' : `${fmt(row.cpu)} µs`;
    console.log(`| ${row.name} | ${fmt(row.sequential)} | ${fmt(row.concurrent)} | ${cpu} |`);
  }
  const [candor, filesystem] = rows as [(typeof rows)[0], (typeof rows)[0]];
  record('workspace-read-file', { rounds, seconds, servers: rows });
  console.log(
    `\ncandor / server-filesystem: ${(candor.sequential / filesystem.sequential).toFixed(2)}× (1 in flight), ${(candor.concurrent / filesystem.concurrent).toFixed(2)}× (16 in flight)`,
  );
}

await main();
