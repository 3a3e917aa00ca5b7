/**
 * What a service double costs: start-up (seeded and ready to connect, the data folder
 * already initialised once on this machine; the first, cold start is measured apart,
 * with the initialisation) and the witness per call (a reading before and one after,
 * on the seeded data), for each database double. Kinds take turns in each round, so
 * a noisy machine slows all alike. Nothing here asserts a time.
 *
 *   node --import tsx bench/doubles.ts [rounds]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DOUBLES } from '../src/observe/doubles/start.js';
import type { DoubleKind } from '../src/observe/doubles/types.js';
import { record, table } from './_harness.js';

const rounds = Number(process.argv[2] ?? 5);
const kinds = Object.keys(DOUBLES) as DoubleKind[];
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

async function once(kind: DoubleKind): Promise<{ start: number; witness: number; stop: number }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'candor-bench-double-'));
  let at = performance.now();
  const double = await DOUBLES[kind]!({ dir: path.join(dir, kind) });
  const start = performance.now() - at;
  at = performance.now();
  await double.witness.mark();
  await double.witness.changes();
  const witness = performance.now() - at;
  at = performance.now();
  await double.stop();
  const stop = performance.now() - at;
  await rm(dir, { recursive: true, force: true });
  return { start, witness, stop };
}

const first = new Map<DoubleKind, number>();
for (const kind of kinds) first.set(kind, (await once(kind)).start);
const runs = new Map<DoubleKind, Array<{ start: number; witness: number; stop: number }>>(kinds.map((k) => [k, []]));
for (let round = 0; round < rounds; round++) {
  for (const kind of [...kinds.slice(round % kinds.length), ...kinds.slice(0, round % kinds.length)]) {
    runs.get(kind)!.push(await once(kind));
  }
}
const rows = kinds.map((kind) => {
  const list = runs.get(kind)!;
  return [
    kind,
    `${Math.round(first.get(kind)!)}`,
    `${Math.round(median(list.map((r) => r.start)))}`,
    `${Math.round(Math.max(...list.map((r) => r.start)))}`,
    `${Math.round(median(list.map((r) => r.witness)))}`,
    `${Math.round(median(list.map((r) => r.stop)))}`,
  ];
});
table(
  `Service doubles, ${rounds} rounds (ms)`,
  ['double', 'first start', 'start p50', 'start max', 'witness per call p50', 'stop p50'],
  rows,
);
record('doubles', Object.fromEntries(rows.map(([kind, ...figures]) => [kind, figures.map(Number)])));
