/**
 * `candor observe` evidence classes, in the real sandbox: a program run
 * is not a write, the network is a contradiction only for openWorldHint: false,
 * the server's own scratch (its lock, a TMPDIR profile) is reported apart,
 * bookkeeping done on every call is one finding about the server, a tool error
 * that mentions a timeout is not a hang, a repeat that answers differently breaks
 * idempotency, an error answered as text is not "ok", app-only tools are skipped,
 * and a server that dies mid-run says so with its last stderr lines.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ObserveReport, observe } from '../../src/observe/index.js';
import { ensureBuilt, runCli } from '../support/cli-harness.js';

const fixture = path.join(import.meta.dirname, '../fixtures/observe/evidence.mjs');
let workdir: string;
let report: ObserveReport;

beforeAll(async () => {
  ensureBuilt();
  workdir = mkdtempSync(path.join(tmpdir(), 'candor-observe-evidence-'));
  writeFileSync(path.join(workdir, 'readme.txt'), 'hello');
  execFileSync('sqlite3', [
    path.join(workdir, 'notes.db'),
    "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('a'), ('b'), ('c');",
  ]);
  report = await observe({
    command: process.execPath,
    args: [fixture],
    workdir,
    timeoutMs: 15_000,
    skip: ['crash', 'uptime'],
  });
}, 120_000);

afterAll(() => rmSync(workdir, { recursive: true, force: true }));

const tool = (name: string) => report.tools.find((t) => t.name === name)!;
const rules = (name: string) => tool(name).findings.map((f) => f.ruleId);

describe('observe evidence classes', () => {
  it('does not count a program run as a write', () => {
    expect(tool('git_log').notExercised).toBeUndefined();
    expect(tool('git_log').calls[0]!.effects.some((e) => e.kind === 'exec' && e.path === '/bin/ls')).toBe(true);
    expect(rules('git_log')).toEqual([]);
  });

  it('does not hold the network against a read-only, open-world tool', () => {
    expect(tool('fetch_docs').notExercised).toBeUndefined();
    expect(tool('fetch_docs').calls[0]!.effects.some((e) => e.kind === 'connect' && !e.loopback)).toBe(true);
    expect(rules('fetch_docs')).toEqual([]);
  });

  it('takes a tool error that mentions a timeout for an error, not a hang', () => {
    expect(report.killed).toBe(false);
    expect(report.failure).toBeUndefined();
    expect(tool('slow_api').notExercised).toContain('timeout=32s');
    expect(tool('release_lock').notExercised).toBeUndefined();
  });

  it('reports the server deleting its own lock, and a TMPDIR profile, as scratch, not as a lie', () => {
    expect(tool('release_lock').calls[0]!.diff.deleted).toContain('server.pid');
    expect(rules('release_lock')).toEqual([]);
    expect(tool('render').calls[0]!.diff.created.some((f) => f.startsWith('$TMPDIR/profile/'))).toBe(true);
    expect(rules('render')).toEqual([]);
  });

  it('reports bookkeeping done on every call once, about the server, naming the read-only tools it contradicts', () => {
    const serverWide = report.findings.filter((f) => f.ruleId === 'observe/server-wide-effect');
    expect(serverWide).toHaveLength(1);
    expect(serverWide[0]!.tool).toBeUndefined();
    expect(serverWide[0]!.severity).toBe('error');
    expect(serverWide[0]!.evidence).toEqual(['wrote ~/.config/evidence/usage.json']);
    expect(serverWide[0]!.message).toMatch(/readOnlyHint: true on .*git_log/);
    expect(report.findings.filter((f) => f.ruleId === 'observe/read-only-wrote')).toEqual([]);
  });

  it('catches an idempotent tool whose repeat answers differently, and not one that differs only in time and ids', () => {
    expect(rules('counter_add')).toEqual(['observe/idempotent-changed-again']);
    expect(tool('counter_add').findings[0]!.evidence.join('\n')).toContain('the counter is now 2');
    expect(rules('stamp')).toEqual([]);
    expect(tool('stamp').notExercised).toBeUndefined();
  });

  it('witnesses rows deleted from a SQLite file in the workdir as a deletion', () => {
    expect(rules('tidy_notes')).toEqual(['observe/non-destructive-deleted']);
    expect(tool('tidy_notes').findings[0]!.evidence).toEqual(['deleted notes.db (1 row of table notes)']);
  });

  it('does not call an error answered as text "ok"', () => {
    expect(tool('error_text').calls.every((c) => !c.ok)).toBe(true);
    expect(tool('error_text').notExercised).toContain('answered as text, without isError');
  });

  it('skips an app-only tool instead of waiting on it', () => {
    expect(tool('app_poll').calls).toEqual([]);
    expect(tool('app_poll').notExercised).toContain('app-only');
  });

  it('copies .git, leaves out --exclude, points {workdir} and real-workdir paths at the copy, passes --env, warns on extra --args', async () => {
    mkdirSync(path.join(workdir, '.git'), { recursive: true });
    writeFileSync(path.join(workdir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    mkdirSync(path.join(workdir, 'secret'), { recursive: true });
    writeFileSync(path.join(workdir, 'secret', 'key'), 'hunter2');
    const argsFile = path.join(workdir, '..', `observe-evidence-args-${process.pid}.json`);
    writeFileSync(
      argsFile,
      JSON.stringify({
        look: [{ path: path.join(workdir, '.git', 'HEAD') }, { path: '{workdir}/secret/key' }, { path: 'unused' }],
        no_such_tool: {},
      }),
    );
    const run = await runCli(
      [
        'observe',
        '--tools',
        'look',
        '--args',
        argsFile,
        '--env',
        'EVIDENCE_NOTE={workdir}/note.txt',
        '--exclude',
        'secret',
        '--format',
        'json',
        '--',
        process.execPath,
        fixture,
      ],
      { cwd: workdir, timeoutMs: 60_000 },
    );
    rmSync(argsFile, { force: true });
    expect(run.code, run.stderr).toBe(0);
    const json = JSON.parse(run.stdout) as ObserveReport;
    const calls = json.tools[0]!.calls;
    expect(calls.map((c) => c.answer)).toEqual(['ref: refs/heads/main | note=note.txt', 'missing | note=note.txt']);
    expect(calls[0]!.args).toEqual({ path: '{workdir}/.git/HEAD' });
    expect(json.warnings.join('\n')).toContain('--args gives 3 argument objects for look, but --calls is 2');
    expect(json.warnings.join('\n')).toContain('no_such_tool');
    expect(run.stderr).toContain('candor: warning:');
  }, 120_000);

  it('says when the server dies mid-run, with its last stderr lines, and exits 2', async () => {
    const died = await observe({
      command: process.execPath,
      args: [fixture],
      workdir,
      tools: ['crash', 'uptime'],
      timeoutMs: 15_000,
    });
    expect(died.failure).toMatchObject({ kind: 'exited', tool: 'crash' });
    expect(died.failure!.stderr).toContain('fatal: the cheese ran out');
    expect(died.tools.find((t) => t.name === 'uptime')!.notExercised).toBe('the server exited during a call of crash');
    const run = await runCli(['observe', '--tools', 'crash', '--tools', 'uptime', '--', process.execPath, fixture], {
      cwd: workdir,
      timeoutMs: 60_000,
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('the server exited during a call of crash');
    expect(run.stdout).toContain('fatal: the cheese ran out');
  }, 120_000);
});
