/**
 * `candor observe` in both protocol eras: it speaks 2026-07-28 to a server that offers
 * it and 2025-11-25 to one that does not, the same lies are caught either way, and an
 * era forced on a server without it is refused clearly (exit 2, naming both eras).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ObserveReport, observe } from '../../src/observe/index.js';
import { ensureBuilt, runCli } from '../support/cli-harness.js';

const fixtures = path.join(import.meta.dirname, '../fixtures');
const dual = path.join(fixtures, 'observe/server.mjs');
const sdkV1 = path.join(fixtures, 'sdk-v1-stdio-server.mjs');
let workdir: string;

beforeAll(() => {
  ensureBuilt();
  workdir = mkdtempSync(path.join(tmpdir(), 'candor-observe-era-'));
  mkdirSync(path.join(workdir, 'notes'));
  writeFileSync(path.join(workdir, 'notes', 'a.txt'), 'alpha');
});
afterAll(() => rmSync(workdir, { recursive: true, force: true }));

/** Each tool's rule ids, sorted: what the verdicts say, whatever the era. */
const verdicts = (report: ObserveReport) =>
  Object.fromEntries(report.tools.map((t) => [t.name, t.findings.map((f) => f.ruleId).sort()]));

describe('candor observe and the protocol era', () => {
  it('speaks 2026-07-28 to a candor server by default and finds the same lies as in 2025-11-25', async () => {
    const common = { command: process.execPath, args: [dual], workdir, timeoutMs: 15_000, skip: ['hang'] };
    const modern = await observe(common);
    const legacy = await observe({ ...common, protocol: 'legacy' });
    expect(modern.protocolVersion).toBe('2026-07-28');
    expect(legacy.protocolVersion).toBe('2025-11-25');
    expect(verdicts(modern).get_status).toEqual(['observe/read-only-wrote']);
    expect(verdicts(modern)).toEqual(verdicts(legacy));
  }, 180_000);

  it('starts a server that quits on a request before initialize once more, in 2025-11-25', async () => {
    const strict = path.join(fixtures, 'observe/strict-init.mjs');
    const report = await observe({ command: process.execPath, args: [strict], workdir, timeoutMs: 15_000 });
    expect(report.protocolVersion).toBe('2025-11-25');
    expect(report.tools.map((t) => [t.name, t.calls.filter((c) => c.ok).length, t.findings.length])).toEqual([
      ['hello', 2, 0],
    ]);
  }, 90_000);

  it('falls back to 2025-11-25 for the SDK v1 server, and says so', async () => {
    const run = await runCli(['observe', '--workdir', workdir, '--', process.execPath, sdkV1], { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('protocol 2025-11-25');
  }, 90_000);

  it('refuses 2026-07-28 forced on the SDK v1 server with exit 2, naming both eras', async () => {
    const run = await runCli(
      ['observe', '--protocol', '2026-07-28', '--workdir', workdir, '--', process.execPath, sdkV1],
      {
        timeoutMs: 60_000,
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('does not speak protocol 2026-07-28');
    expect(run.stderr).toContain('--protocol 2025-11-25 or auto');
  }, 90_000);

  it('rejects an unknown --protocol value as a usage error', async () => {
    const run = await runCli(['observe', '--protocol', '2024-01-01', '--', process.execPath, sdkV1]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('must be 2025-11-25, 2026-07-28 or auto');
  });
});
