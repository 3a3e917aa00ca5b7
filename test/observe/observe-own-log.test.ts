/**
 * A server's own log is not its tools' write: a file the server made and opened
 * at start, to which a read-only call only appends lines through that descriptor,
 * is reported once as the server's log (info). A file opened in the call, data that
 * was there before the server started, a file rewritten in place and binary
 * records stay `observe/read-only-wrote`. Run over the real CLI in the real sandbox.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObserveReport } from '../../src/observe/index.js';
import { ensureBuilt, runCli } from '../support/cli-harness.js';

const fixture = path.join(import.meta.dirname, '../fixtures/observe/own-log.mjs');
let workdir: string;
let report: ObserveReport;
let exitCode: number | null;

beforeAll(async () => {
  ensureBuilt();
  workdir = mkdtempSync(path.join(tmpdir(), 'candor-observe-own-log-'));
  writeFileSync(path.join(workdir, 'notes.md'), '# Notes\n');
  const run = await runCli(['observe', '--format', 'json', '--timeout', '20000', '--', process.execPath, fixture], {
    cwd: workdir,
    timeoutMs: 120_000,
  });
  exitCode = run.code;
  if (run.code !== 0 && run.code !== 1)
    throw new Error(`candor observe could not observe (exit ${run.code}): ${run.stderr}`);
  report = JSON.parse(run.stdout) as ObserveReport;
}, 150_000);

afterAll(() => rmSync(workdir, { recursive: true, force: true }));

const tool = (name: string) => report.tools.find((t) => t.name === name)!;
const LOG = '~/.own-log/server.log';

describe('observe: the server’s own log', () => {
  it('does not hold a log opened at start and appended to in the call against a read-only tool', () => {
    const status = tool('status');
    expect(status.notExercised).toBeUndefined();
    expect(status.findings).toEqual([]);
    expect(status.effects).toEqual(['server log']);
    // The rule had something to decide: the log grew in each call, with no open of it in the call's trace.
    for (const call of status.calls) {
      expect(call.diff.logged).toEqual([LOG]);
      expect(call.diff.modified).toEqual([]);
      expect(call.effects.filter((e) => e.kind !== 'connect' && e.path === LOG)).toEqual([]);
    }
    expect(report.startup.effects).toContainEqual(expect.objectContaining({ kind: 'write', path: LOG }));
  });

  it('reports the log once, about the server, at info level, naming the file and the tools whose calls wrote to it', () => {
    const log = report.findings.filter((f) => f.ruleId === 'observe/server-log');
    expect(log).toHaveLength(1);
    expect(log[0]!.severity).toBe('info');
    expect(log[0]!.tool).toBeUndefined();
    expect(log[0]!.evidence).toEqual([`appended to ${LOG}`]);
    expect(log[0]!.message).toContain('status');
  });

  it('still reports a file the read-only tool opens and appends to on every call', () => {
    const recent = tool('recent');
    expect(recent.findings).toEqual([
      expect.objectContaining({ ruleId: 'observe/read-only-wrote', evidence: ['wrote ~/.own-log/history.jsonl'] }),
    ]);
    expect(recent.calls[0]!.effects).toContainEqual(
      expect.objectContaining({ kind: 'write', path: '~/.own-log/history.jsonl' }),
    );
  });

  it('still reports data that was there before the server started, though appended to through a descriptor opened at start', () => {
    expect(tool('notes_seen').findings).toEqual([
      expect.objectContaining({ ruleId: 'observe/read-only-wrote', evidence: ['wrote notes.md'] }),
    ]);
    // The workdir itself is never touched: only the sandbox's copy was.
    expect(readFileSync(path.join(workdir, 'notes.md'), 'utf8')).toBe('# Notes\n');
  });

  it('still reports a file held open from start and rewritten in place, as a database is', () => {
    expect(tool('visit_count').findings).toEqual([
      expect.objectContaining({ ruleId: 'observe/read-only-wrote', evidence: ['wrote ~/.own-log/state.db'] }),
    ]);
  });

  it('still reports binary records appended through a descriptor opened at start, as a journal is', () => {
    expect(tool('journal').findings).toEqual([
      expect.objectContaining({ ruleId: 'observe/read-only-wrote', evidence: ['wrote ~/.own-log/journal.bin'] }),
    ]);
  });

  it('exits 1 for the lies, and 0 with the log printed as info when only the honest tool is observed', async () => {
    expect(exitCode).toBe(1);
    const run = await runCli(['observe', '--tools', 'status', '--', process.execPath, fixture], {
      cwd: workdir,
      timeoutMs: 120_000,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/info\s+observe\/server-log/);
    expect(run.stdout).toContain(`appended to ${LOG}`);
  }, 150_000);
});
