/**
 * `candor observe` says only what it checked, over the real CLI and sandbox: a server
 * whose every tool fails is "not verified" (exit 3), one whose tools partly fail is
 * "consistent (N of M exercised)", error objects (`success: false`, an `error` field)
 * are not exercised, a hang is a failure in the headline with a JSON report on stdout,
 * reasons are kept whole, and a get that needs an id only the list returns is exercised.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../support/cli-harness.js';

const fixture = path.join(import.meta.dirname, '../fixtures/observe/coverage.mjs');
let workdir: string;

beforeAll(() => {
  ensureBuilt();
  workdir = mkdtempSync(path.join(tmpdir(), 'candor-observe-coverage-'));
}, 300_000);

afterAll(() => rmSync(workdir, { recursive: true, force: true }));

const observeCli = (mode: string, ...flags: string[]) =>
  runCli(['observe', '--env', `COVERAGE_MODE=${mode}`, ...flags, '--', process.execPath, fixture], {
    cwd: workdir,
    timeoutMs: 120_000,
  });

type Reason = { tool: string; reason: string };

describe('candor observe verdicts state their coverage', () => {
  it('calls a server whose every tool fails "not verified" and exits 3, with every reason whole', async () => {
    const run = await observeCli('all-fail');
    expect(run.code, run.stderr).toBe(3);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('not verified (0 of 3 exercised) — exercised 0 of 3 tools');
    expect(run.stdout).not.toMatch(/^consistent/m);
    // The long reason is wrapped onto indented lines, not cut: its last words are there.
    expect(run.stdout).toContain('THE REAL CAUSE: token expired');
    expect(lines.every((l) => l.length <= 100)).toBe(true);
    const json = await observeCli('all-fail', '--format', 'json');
    expect(json.code).toBe(3);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ verdict: 'not verified', exercised: 0, total: 3 });
    const builds = report.reasons.find((r: Reason) => r.tool === 'list_builds');
    expect(builds.reason).toMatch(/every call failed: upstream refused the request: .*THE REAL CAUSE: token expired$/);
  }, 180_000);

  it('says "consistent (1 of 4 exercised)" when only some tools ran, and counts error objects as not exercised', async () => {
    const run = await observeCli('some-fail', '--format', 'json');
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({
      verdict: 'partial',
      label: 'consistent (1 of 4 exercised)',
      exercised: 1,
      total: 4,
    });
    const reasons = Object.fromEntries(report.reasons.map((r: Reason) => [r.tool, r.reason]));
    expect(Object.keys(reasons).sort()).toEqual(['find_user', 'get_quota', 'list_teams']);
    expect(reasons.get_quota).toBe(
      'every call failed: answered an error object (success: false): quota exceeded for this key',
    );
    expect(reasons.find_user).toBe('every call failed: answered an error object (an error field): no such user');
    expect(reasons.list_teams).toBe('every call failed: 401 Unauthorized');
    const pretty = await observeCli('some-fail');
    expect(pretty.stdout.split('\n')[0]).toBe('consistent (1 of 4 exercised) — exercised 1 of 4 tools');
  }, 180_000);

  it('puts a hang in the headline and still writes the JSON report, exit 2', async () => {
    const run = await observeCli('hang', '--timeout', '2000', '--format', 'json');
    expect(run.code).toBe(2);
    const report = JSON.parse(run.stdout);
    expect(report.verdict).toBe('failed');
    expect(report.label).toBe(
      'failed (1 of 3 exercised): observing stopped: a call of wait_forever got no answer in time and the sandbox was killed',
    );
    expect(report.failure).toMatchObject({ kind: 'hung', tool: 'wait_forever' });
    const pretty = await observeCli('hang', '--timeout', '2000');
    expect(pretty.code).toBe(2);
    expect(pretty.stdout.split('\n')[0]).toMatch(
      /^failed \(1 of 3 exercised\): observing stopped: a call of wait_forever/,
    );
  }, 180_000);

  it('writes a JSON report with the failure when the server does not start at all', async () => {
    const run = await runCli(['observe', '--format', 'json', '--', process.execPath, '-e', 'process.exit(3)'], {
      cwd: workdir,
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(2);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ verdict: 'failed', exercised: 0, total: 0, tools: [] });
    expect(report.stopped).toContain('stopped before finishing the MCP handshake');
    expect(run.stderr).toContain('stopped before finishing the MCP handshake');
  }, 120_000);

  it('puts the verdict and its coverage in the SARIF run', async () => {
    const run = await observeCli('all-fail', '--format', 'sarif');
    expect(run.code).toBe(3);
    const [sarifRun] = JSON.parse(run.stdout).runs;
    expect(sarifRun.properties).toMatchObject({ verdict: 'not verified', exercised: 0, total: 3 });
    expect(sarifRun.invocations[0].executionSuccessful).toBe(false);
    const notes = sarifRun.invocations[0].toolExecutionNotifications.map(
      (n: { message: { text: string } }) => n.message.text,
    );
    expect(notes).toContain(
      'list_projects: not exercised: every call failed: authentication required: set AZURE_TOKEN',
    );
  }, 180_000);

  it('exercises a get whose id only the list returns, and an update that needs it too (list → get → update)', async () => {
    const run = await observeCli('chain', '--format', 'json');
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ verdict: 'consistent', label: 'consistent', exercised: 3, total: 3 });
    // Reported in listing order, called list first.
    expect(report.tools.map((t: { name: string }) => t.name)).toEqual(['get_item', 'update_item', 'list_items']);
    const get = report.tools.find((t: { name: string }) => t.name === 'get_item');
    expect(get.calls[0].args).toEqual({ item_id: 'itm-7f3a' });
    const update = report.tools.find((t: { name: string }) => t.name === 'update_item');
    expect(update.calls[0].args.id).toBe('itm-7f3a');
    expect(['open', 'closed']).toContain(update.calls[0].args.status);
  }, 180_000);
});
