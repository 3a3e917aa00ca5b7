import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeProjectFolder } from './claude-project.js';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'candor-claude-project-')));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd, stdio: 'ignore' });

describe('the folder Claude Code files local settings under', () => {
  it('is the folder itself outside a git repository', () => {
    const dir = path.join(root, 'plain', 'deep');
    mkdirSync(dir, { recursive: true });
    expect(claudeProjectFolder(dir)).toBe(dir);
  });

  it("is the repository's top folder from any subfolder of it", () => {
    const repo = path.join(root, 'repo');
    mkdirSync(path.join(repo, 'src', 'lib'), { recursive: true });
    git(repo, 'init', '-q');
    expect(claudeProjectFolder(path.join(repo, 'src', 'lib'))).toBe(repo);
    expect(claudeProjectFolder(repo)).toBe(repo);
  });

  it("is the main repository's folder inside a linked worktree", () => {
    const repo = path.join(root, 'repo');
    mkdirSync(repo);
    git(repo, 'init', '-q');
    writeFileSync(path.join(repo, 'a.txt'), 'a');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'a');
    const tree = path.join(root, 'tree');
    git(repo, 'worktree', 'add', '-q', tree);
    mkdirSync(path.join(tree, 'sub'));
    expect(claudeProjectFolder(path.join(tree, 'sub'))).toBe(repo);
  });

  it('keeps a folder whose .git file points nowhere as the top folder', () => {
    const dir = path.join(root, 'odd');
    mkdirSync(path.join(dir, 'a'), { recursive: true });
    writeFileSync(path.join(dir, '.git'), 'gitdir: /nonexistent/.git/worktrees/x\n');
    expect(claudeProjectFolder(path.join(dir, 'a'))).toBe(dir);
  });

  it('resolves a symbolic link to the folder it points at', () => {
    const dir = path.join(root, 'real');
    mkdirSync(dir);
    symlinkSync(dir, path.join(root, 'link'));
    expect(claudeProjectFolder(path.join(root, 'link'))).toBe(dir);
  });
});
