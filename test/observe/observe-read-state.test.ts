/**
 * A read-only tool whose state lives in memory: files show nothing, so the
 * answer is the witness. The same call made twice at once answering
 * differently, beyond times, ids, durations and measurements, is a warning.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ObserveReport, observe } from '../../src/observe/index.js';
import { ensureBuilt, runCli } from '../support/cli-harness.js';

const fixture = path.join(import.meta.dirname, '../fixtures/observe/read-state.mjs');
let workdir: string;
let report: ObserveReport;

beforeAll(async () => {
  ensureBuilt();
  workdir = mkdtempSync(path.join(tmpdir(), 'candor-observe-read-state-'));
  report = await observe({ command: process.execPath, args: [fixture], workdir, timeoutMs: 20_000 });
}, 120_000);

afterAll(() => rmSync(workdir, { recursive: true, force: true }));

const tool = (name: string) => report.tools.find((t) => t.name === name)!;

describe('observe: read-only tools that change state in memory', () => {
  it('warns about a read-only tool whose list grows on every call, with both answers as evidence', () => {
    const searches = tool('recent_searches');
    expect(searches.notExercised).toBeUndefined();
    expect(searches.calls.map((c) => c.effects.filter((e) => e.kind !== 'exec'))).toEqual([[], []]);
    expect(searches.findings).toEqual([
      expect.objectContaining({ ruleId: 'observe/read-only-state-changed', severity: 'warning' }),
    ]);
    const [first, again] = searches.findings[0]!.evidence;
    expect(first).toMatch(/^first answer: .*"searches":\["[^"]*"\]/);
    expect(again).toMatch(/^repeat answer: .*"searches":\["[^"]*","[^"]*"\]/);
  });

  it('warns about a read-only counter that moves', () => {
    expect(tool('page_views').findings.map((f) => f.ruleId)).toEqual(['observe/read-only-state-changed']);
    expect(tool('page_views').findings[0]!.evidence).toEqual([
      'first answer: The page was viewed 1 times.',
      'repeat answer: The page was viewed 2 times.',
    ]);
  });

  it('leaves a read whose calls changed files to observe/read-only-wrote: its answer only echoes the file', () => {
    expect(tool('log_size').calls.map((c) => c.answer)).toEqual(['The log has 1 lines.', 'The log has 2 lines.']);
    expect(tool('log_size').findings.map((f) => f.ruleId)).toEqual(['observe/read-only-wrote']);
  });

  it('does not warn about fresh times, UUIDs, request ids, process ids or measurements', () => {
    for (const name of ['server_time', 'health', 'version']) {
      const observed = tool(name);
      expect(observed.notExercised, name).toBeUndefined();
      expect(observed.findings, name).toEqual([]);
    }
    // The answers really did differ, so the rule had something to decide.
    for (const name of ['server_time', 'health']) {
      const [a, b] = tool(name).calls.map((c) => c.answer);
      expect(a, name).not.toBe(b);
    }
  });

  it('is reported on the command line like every finding above info: exit 1, the rule and both answers', async () => {
    const run = await runCli(['observe', '--tools', 'page_views', '--', process.execPath, fixture], {
      cwd: workdir,
      timeoutMs: 60_000,
    });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('observe/read-only-state-changed');
    expect(run.stdout).toContain('repeat answer: The page was viewed 2 times.');
  }, 120_000);
});
