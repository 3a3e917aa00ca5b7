/**
 * `candor scan` says only what it checked, over the real CLI: a server whose every tool
 * fails is "not verified" (exit 3), a hang is a failure in the headline with a JSON
 * report on stdout (exit 2), a scan that fails before any tool ran still writes its JSON
 * report, and the hints the report suggests never contradict the effects it observed.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../support/cli-harness.js';

const fixture = path.join(import.meta.dirname, '../fixtures/observe/coverage.mjs');

beforeAll(() => {
  ensureBuilt();
}, 300_000);

const scanCli = (mode: string, ...flags: string[]) =>
  runCli(['scan', '--env', `COVERAGE_MODE=${mode}`, ...flags, '--', process.execPath, fixture], {
    timeoutMs: 120_000,
  });

type Finding = { ruleId: string; tool?: string; patch?: Record<string, boolean>; fix?: string };

describe('candor scan verdicts state their coverage', () => {
  it('calls a server whose every tool fails "not verified" and exits 3; the reasons wrap, never cut', async () => {
    const run = await scanCli('all-fail');
    expect(run.code, run.stderr).toBe(3);
    expect(run.stdout.split('\n')[0]).toMatch(
      /: not verified \(0 of 3 exercised\) — exercised 0 of 3 tools: 0 consistent, 0 contradict, 3 not exercised/,
    );
    expect(run.stdout).toContain('THE REAL CAUSE: token expired');
    const markdown = await scanCli('all-fail', '--format', 'markdown');
    expect(markdown.code).toBe(3);
    expect(markdown.stdout).toMatch(/^## .*not verified \(0 of 3 exercised\)/);
  }, 180_000);

  it('puts a hang in the headline and writes the JSON report on exit 2', async () => {
    const run = await scanCli('hang', '--timeout', '2000', '--format', 'json');
    expect(run.code).toBe(2);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ verdict: 'failed', exercised: 1, total: 3 });
    expect(report.label).toMatch(/^failed \(1 of 3 exercised\): observing stopped: a call of wait_forever/);
    expect(report.observe.failure).toMatchObject({ kind: 'hung', tool: 'wait_forever' });
    const pretty = await scanCli('hang', '--timeout', '2000');
    expect(pretty.stdout.split('\n')[0]).toMatch(/: failed \(1 of 3 exercised\): observing stopped/);
    expect(pretty.stdout.split('\n')[0]).not.toMatch(/: consistent/);
  }, 180_000);

  it('writes a JSON report with the failure when the scan fails before any tool ran', async () => {
    const run = await runCli(['scan', '--format', 'json', '--', process.execPath, '-e', 'process.exit(3)'], {
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(2);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ verdict: 'failed', exercised: 0, total: 0, tools: [] });
    expect(report.label).toMatch(/^failed: could not scan .*stopped before finishing the MCP handshake/);
  }, 120_000);

  it('suggests hints that agree with what it saw: the network opens the world, a written download is not read-only', async () => {
    const run = await scanCli('effects', '--format', 'json');
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    const effects = Object.fromEntries(
      report.tools.map((t: { name: string; effects: string[] }) => [t.name, t.effects]),
    );
    expect(effects.list_feeds).toContain('network');
    expect(effects.get_report).toContain('wrote');
    const missing = (tool: string) =>
      report.lint.find((f: Finding) => f.ruleId === 'hints-missing' && f.tool === tool) as Finding;
    expect(missing('list_feeds').patch).toMatchObject({ openWorldHint: true });
    expect(missing('list_feeds').fix).toContain('"openWorldHint": true');
    expect(missing('list_feeds').fix).toContain('this scan saw list_feeds reach the network');
    expect(missing('get_report').patch).toMatchObject({ readOnlyHint: false });
    expect(missing('get_report').fix).not.toContain('"readOnlyHint": true');
    // No suggestion anywhere in the report says otherwise.
    for (const f of [...report.lint, ...report.door] as Finding[]) {
      if (f.tool === 'list_feeds' && f.patch && 'openWorldHint' in f.patch) expect(f.patch.openWorldHint).toBe(true);
      if (f.tool === 'get_report' && f.patch && 'readOnlyHint' in f.patch) expect(f.patch.readOnlyHint).toBe(false);
    }
    const sarif = await scanCli('effects', '--format', 'sarif');
    const results = JSON.parse(sarif.stdout).runs[0].results as Array<{
      properties: { tool?: string; suggestedAnnotations?: Record<string, boolean> };
    }>;
    const suggested = (tool: string) =>
      results.flatMap((r) =>
        r.properties.tool === tool && r.properties.suggestedAnnotations ? [r.properties.suggestedAnnotations] : [],
      );
    expect(suggested('list_feeds').some((s) => s.openWorldHint === true)).toBe(true);
    expect(suggested('list_feeds').some((s) => s.openWorldHint === false)).toBe(false);
    expect(suggested('get_report').some((s) => s.readOnlyHint === false)).toBe(true);
    expect(suggested('get_report').some((s) => s.readOnlyHint === true)).toBe(false);
  }, 180_000);
});
