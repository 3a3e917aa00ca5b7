/**
 * A program's own bookkeeping is not the user's data: tools that run the real
 * git in the sandbox make it rewrite its index (stat data refreshed by
 * `git status`) while what git records stays the same; that is scratch. Tools
 * that change what git records (a file staged, a commit) are still writes. A
 * folder of a tool's own tagged as a cache (CACHEDIR.TAG) is scratch; a tag
 * dropped beside the user's files hides nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ObserveReport, observe } from '../../src/observe/index.js';
import { ensureBuilt } from '../support/cli-harness.js';

const fixture = path.join(import.meta.dirname, '../fixtures/observe/bookkeeping.mjs');
let workdir: string;
let reads: ObserveReport;
let lies: ObserveReport;

beforeAll(async () => {
  ensureBuilt();
  workdir = mkdtempSync(path.join(tmpdir(), 'candor-observe-bookkeeping-'));
  const git = (...args: string[]) => execFileSync('git', ['-C', workdir, ...args]);
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'observe@example.test');
  git('config', 'user.name', 'Observe');
  writeFileSync(path.join(workdir, 'readme.md'), '# Project\n');
  git('add', '.');
  git('commit', '-q', '-m', 'first');
  writeFileSync(path.join(workdir, 'readme.md'), '# Project\n\nMore.\n');
  git('commit', '-q', '-am', 'second');
  // A clean tracked file whose time no longer matches the index: a read makes git refresh its stat cache.
  writeFileSync(path.join(workdir, 'notes.txt'), 'clean\n');
  git('add', 'notes.txt');
  git('commit', '-q', '-m', 'third');
  utimesSync(path.join(workdir, 'notes.txt'), new Date('2001-02-03'), new Date('2001-02-03'));
  writeFileSync(path.join(workdir, 'readme.md'), '# Project\n\nMore, unstaged.\n');
  writeFileSync(path.join(workdir, 'todo.txt'), 'untracked\n');
  // Two runs, each on a fresh copy: the reads see the repository as it was made, not after a lie staged it.
  const run = (tools: string[]) =>
    observe({ command: process.execPath, args: [fixture], workdir, tools, timeoutMs: 20_000 });
  reads = await run(['git_status', 'git_log', 'git_diff', 'search_files']);
  lies = await run(['git_stage_all', 'git_snapshot', 'cache_notes']);
}, 120_000);

afterAll(() => rmSync(workdir, { recursive: true, force: true }));

const tool = (name: string) => [...reads.tools, ...lies.tools].find((t) => t.name === name)!;
const rules = (name: string) => tool(name).findings.map((f) => f.ruleId);

describe('observe: a program rewriting its own bookkeeping', () => {
  it('does not call reads through git writes: git rewrote its index, and the tracked entries stayed the same', () => {
    expect(tool('git_status').calls[0]!.answer).toContain('?? todo.txt');
    const calls = reads.tools.flatMap((t) => t.calls);
    // The index really was rewritten (its lock file renamed over it), so the rule had something to decide.
    expect(calls.some((c) => c.effects.some((e) => e.kind === 'rename' && e.to === '.git/index'))).toBe(true);
    expect(calls.some((c) => c.diff.rewritten?.includes('.git/index'))).toBe(true);
    for (const observed of reads.tools) {
      expect(observed.notExercised, observed.name).toBeUndefined();
      expect(observed.findings, observed.name).toEqual([]);
      for (const call of observed.calls) expect(call.diff.modified, observed.name).toEqual([]);
    }
    expect(reads.findings).toEqual([]);
  });

  it('still catches a read-only tool that stages files: the tracked entries changed', () => {
    expect(tool('git_stage_all').notExercised).toBeUndefined();
    expect(rules('git_stage_all')).toEqual(['observe/read-only-wrote']);
    expect(tool('git_stage_all').findings[0]!.evidence).toContain('wrote .git/index');
  });

  it('still catches a read-only tool that commits: the branch moved and objects were written', () => {
    expect(tool('git_snapshot').notExercised).toBeUndefined();
    expect(rules('git_snapshot')).toEqual(['observe/read-only-wrote']);
    const evidence = tool('git_snapshot').findings[0]!.evidence;
    expect(evidence).toContain('wrote .git/refs/heads/main');
    expect(evidence.some((e) => /^wrote \.git\/objects\/[0-9a-f]{2}\/[0-9a-f]{38}$/.test(e))).toBe(true);
  });

  it('takes a folder tagged as a cache (CACHEDIR.TAG, made by the call) for scratch', () => {
    const search = tool('search_files');
    expect(search.calls[0]!.diff.cached).toEqual(
      expect.arrayContaining(['.search-cache', '.search-cache/CACHEDIR.TAG', '.search-cache/v1']),
    );
    expect(search.calls.flatMap((c) => [...c.diff.created, ...c.diff.modified])).toEqual([]);
    expect(search.findings).toEqual([]);
  });

  it('does not let a cache tag dropped into a folder that held data hide a write there', () => {
    expect(rules('cache_notes')).toEqual(['observe/read-only-wrote']);
    expect(tool('cache_notes').findings[0]!.evidence).toEqual(
      expect.arrayContaining(['wrote CACHEDIR.TAG', 'wrote notes-copy.txt']),
    );
  });
});
