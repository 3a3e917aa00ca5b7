/**
 * State a server keeps on first use is not the first tool's write: a file under HOME
 * written by the run's first call, whichever tool that is, and by no other call, is
 * reported once for the server (a warning) and left out of that tool's verdict, while a
 * read-only tool that writes on every call is still a contradiction. Run over the real
 * CLI in the real sandbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObserveReport } from '../../src/observe/index.js';
import { ensureBuilt, runCli } from '../support/cli-harness.js';

const fixture = path.join(import.meta.dirname, '../fixtures/observe/first-use.mjs');
let workdir: string;
let report: ObserveReport;
let exitCode: number | null;

beforeAll(async () => {
  ensureBuilt();
  workdir = mkdtempSync(path.join(tmpdir(), 'candor-observe-first-use-'));
  const run = await runCli(['observe', '--format', 'json', '--', process.execPath, fixture], {
    cwd: workdir,
    timeoutMs: 120_000,
  });
  exitCode = run.code;
  if (!run.stdout.trim()) throw new Error(`no report (exit ${run.code}): ${run.stderr}`);
  report = JSON.parse(run.stdout) as ObserveReport;
}, 150_000);

afterAll(() => rmSync(workdir, { recursive: true, force: true }));

const rules = (tool: string) => report.tools.find((t) => t.name === tool)!.findings.map((f) => f.ruleId);

describe('observe: first-use state', () => {
  it("reports the first call's state file once for the server, as a warning naming the file", () => {
    const found = report.findings.filter((f) => f.ruleId === 'observe/first-use-state');
    expect(found).toHaveLength(1);
    expect(found[0]!.severity).toBe('warning');
    // The file, and the folders made to hold it.
    expect(found[0]!.evidence).toContain('wrote ~/.local/share/first-use/state.json');
    expect(found[0]!.evidence.every((line) => line.startsWith('wrote ~/.local'))).toBe(true);
    expect(found[0]!.tool).toBeUndefined();
  });

  it("leaves it out of the first tool's verdict, and keeps a read-only tool that writes on every call a contradiction", () => {
    expect(rules('list_items')).toEqual([]);
    expect(rules('count_items')).toEqual([]);
    expect(rules('save_note')).toEqual(['observe/read-only-wrote']);
    expect(exitCode).toBe(1);
  });
});
