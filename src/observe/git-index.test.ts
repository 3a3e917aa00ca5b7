import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gitIndexEntries } from './git-index.js';

let repo: string;
const git = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' });
const index = () => readFileSync(path.join(repo, '.git', 'index'));
/** What git itself says is tracked, in the reader's line shape (no flags set). */
const gitSays = () =>
  git('ls-files', '--stage')
    .trim()
    .split('\n')
    .map((line) => line.replace(/^(\S+ \S+ \d)\t/, '$1 \t'));

beforeEach(() => {
  repo = mkdtempSync(path.join(tmpdir(), 'candor-git-index-'));
  git('init', '-q', '-b', 'main');
  mkdirSync(path.join(repo, 'src', 'deep'), { recursive: true });
  writeFileSync(path.join(repo, 'a.txt'), 'alpha\n');
  writeFileSync(path.join(repo, 'src', 'main.js'), 'main\n');
  writeFileSync(path.join(repo, 'src', 'deep', 'name-long-enough-to-pad.md'), 'deep\n');
  git('add', '.');
});

afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe('gitIndexEntries', () => {
  it.each(['2', '4'])('reads a version %s index as git ls-files --stage does', (version) => {
    git('update-index', '--index-version', version);
    expect(index().readUInt32BE(4)).toBe(Number(version));
    expect(gitIndexEntries(index())).toEqual(gitSays());
  });

  it('reads a version 3 index, whose extended flags (skip-worktree here) git writes it for', () => {
    git('update-index', '--skip-worktree', 'a.txt');
    expect(index().readUInt32BE(4)).toBe(3);
    expect(gitIndexEntries(index())).toEqual(
      gitSays().map((l) => (l.endsWith('\ta.txt') ? l.replace(' \t', ' s\t') : l)),
    );
  });

  it('gives the same entries when git status only refreshed the stat cache, and others when a file was staged', () => {
    const before = index();
    const entries = gitIndexEntries(before);
    utimesSync(path.join(repo, 'a.txt'), new Date(2001, 1, 1), new Date(2001, 1, 1));
    git('status', '--porcelain');
    const refreshed = index();
    expect(refreshed.equals(before)).toBe(false);
    expect(gitIndexEntries(refreshed)).toEqual(entries);
    writeFileSync(path.join(repo, 'a.txt'), 'changed\n');
    git('add', 'a.txt');
    expect(gitIndexEntries(index())).not.toEqual(entries);
  });

  it('counts a flag a person sets (skip-worktree) as a change', () => {
    const entries = gitIndexEntries(index());
    git('update-index', '--skip-worktree', 'a.txt');
    expect(gitIndexEntries(index())).not.toEqual(entries);
  });

  it('vouches for nothing that is not an intact index', () => {
    const bytes = index();
    const damaged = Buffer.from(bytes);
    damaged[50] = damaged[50]! ^ 0xff;
    expect(gitIndexEntries(damaged)).toBeUndefined();
    expect(gitIndexEntries(Buffer.from('DIRC not an index at all, just text'))).toBeUndefined();
    expect(gitIndexEntries(Buffer.from('{"a": 1}'))).toBeUndefined();
    expect(gitIndexEntries(bytes.subarray(0, 40))).toBeUndefined();
  });
});
