/**
 * `npm run bench`: runs every benchmark in bench/ one after another, each in its
 * own process so one cannot warm up or slow down another. Benchmarks print
 * their own tables; nothing here asserts a time.
 *
 * `npm run bench -- --json` also keeps the figures: each benchmark records
 * them (`record()` in _harness.ts) and this run writes them, with the date,
 * Node version, CPU and load of the machine, to bench/history/<date>.json.
 * `node --import tsx scripts/bench-readme.ts` turns the newest one into the
 * README's "## Benchmarks" section. Other arguments pick benchmarks by name.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const json = args.includes('--json');
const only = args.filter((a) => a !== '--json');
const files = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && !f.startsWith('_'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

// Benchmarks load candor from dist/, as users run it.
const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const figuresDir = json ? mkdtempSync(join(tmpdir(), 'candor-bench-')) : undefined;
const started = new Date();
const loadBefore = loadavg();
let failed = 0;
for (const file of files) {
  console.log(`\n### ${file}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(here, file)], {
    stdio: 'inherit',
    env: figuresDir ? { ...process.env, BENCH_JSON_DIR: figuresDir } : process.env,
  });
  if (run.status !== 0) {
    failed++;
    console.error(`${file} exited with ${run.status ?? run.signal}`);
  }
}

if (figuresDir) {
  const benchmarks: Record<string, unknown> = {};
  for (const name of readdirSync(figuresDir).sort()) {
    benchmarks[name.replace(/\.json$/, '')] = JSON.parse(readFileSync(join(figuresDir, name), 'utf8'));
  }
  rmSync(figuresDir, { recursive: true, force: true });
  const cpu = cpus();
  const history = {
    date: started.toISOString(),
    finished: new Date().toISOString(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu: { model: cpu[0]?.model.trim() ?? 'unknown', cores: cpu.length },
    // Load averages (1, 5, 15 min) before and after: how shared the machine was.
    load: { before: loadBefore, after: loadavg() },
    env: { BENCH_SECONDS: process.env.BENCH_SECONDS ?? '10', BENCH_CONNECTIONS: process.env.BENCH_CONNECTIONS ?? '32' },
    benchmarks,
  };
  const dir = join(here, 'history');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${started.toISOString().slice(0, 16).replace(':', '-')}.json`);
  writeFileSync(file, `${JSON.stringify(history, null, 2)}\n`);
  // In the repository's JSON style, so `npm test` (biome) stays clean when the file is committed.
  spawnSync('npx', ['biome', 'format', '--write', file], { stdio: 'ignore' });
  console.log(`\nFigures written to ${file}`);
}
process.exitCode = failed > 0 ? 1 : 0;
