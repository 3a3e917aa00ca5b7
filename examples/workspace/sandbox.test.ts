import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isToolError } from '../../src/errors.js';
import { Sandbox } from './sandbox.js';

let base: string;
let root: string;
let outsideDir: string;
let sandbox: Sandbox;
let socketServer: Server;

beforeAll(async () => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'candor-sandbox-')));
  root = path.join(base, 'root');
  outsideDir = path.join(base, 'outside');
  mkdirSync(path.join(root, 'src'), { recursive: true });
  mkdirSync(outsideDir);
  writeFileSync(path.join(root, 'src', 'a.txt'), 'a');
  writeFileSync(path.join(outsideDir, 'secret.txt'), 'secret');
  symlinkSync(outsideDir, path.join(root, 'escape-dir'));
  symlinkSync(path.join(outsideDir, 'secret.txt'), path.join(root, 'escape-file'));
  symlinkSync(path.join(root, 'src'), path.join(root, 'inner-link'));
  symlinkSync(path.join(base, 'does-not-exist'), path.join(root, 'dangling'));
  execFileSync('mkfifo', [path.join(root, 'pipe')]);
  socketServer = createServer();
  await new Promise<void>((resolve) => socketServer.listen(path.join(root, 'sock'), resolve));
  sandbox = new Sandbox(root);
});

afterAll(async () => {
  await new Promise((resolve) => socketServer.close(resolve));
  rmSync(base, { recursive: true, force: true });
});

async function refusal(input: string, options?: Parameters<Sandbox['resolve']>[1]): Promise<string> {
  try {
    await sandbox.resolve(input, options);
  } catch (error) {
    expect(isToolError(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error(`expected ${input} to be refused`);
}

describe('Sandbox.resolve', () => {
  it('resolves a relative path inside the root', async () => {
    const p = await sandbox.resolve('src/a.txt', { expect: 'file' });
    expect(p.absolute).toBe(path.join(root, 'src', 'a.txt'));
    expect(p.relative).toBe('src/a.txt');
  });

  it('accepts an absolute path that points inside the root', async () => {
    const p = await sandbox.resolve(path.join(root, 'src'), { expect: 'directory' });
    expect(p.relative).toBe('src');
  });

  it('resolves "." to the root', async () => {
    expect((await sandbox.resolve('.')).relative).toBe('.');
  });

  it('allows ".." that stays inside the root', async () => {
    expect((await sandbox.resolve('src/../src/a.txt')).relative).toBe('src/a.txt');
  });

  it('refuses ".." that climbs out of the root', async () => {
    expect(await refusal('../outside/secret.txt')).toMatch(/outside the workspace root/);
    expect(await refusal('src/../../outside')).toMatch(/outside the workspace root/);
  });

  it('refuses an absolute path outside the root', async () => {
    expect(await refusal('/etc/passwd')).toMatch(/outside the workspace root/);
    expect(await refusal(path.join(outsideDir, 'secret.txt'))).toMatch(/outside the workspace root/);
  });

  it('refuses a sibling folder whose name starts with the root name', async () => {
    mkdirSync(`${root}-sibling`, { recursive: true });
    expect(await refusal(`${root}-sibling`)).toMatch(/outside the workspace root/);
  });

  it('refuses a symbolic link to a folder outside the root', async () => {
    expect(await refusal('escape-dir')).toMatch(/symbolic link that leads outside/);
  });

  it('refuses a path through a symbolic link that leaves the root, even when the rest does not exist yet', async () => {
    expect(await refusal('escape-dir/secret.txt')).toMatch(/symbolic link that leads outside/);
    expect(await refusal('escape-dir/new/file.txt', { expect: 'any' })).toMatch(/symbolic link that leads outside/);
  });

  it('refuses a symbolic link to a file outside the root', async () => {
    expect(await refusal('escape-file')).toMatch(/symbolic link that leads outside/);
  });

  it('follows a symbolic link that stays inside the root', async () => {
    const p = await sandbox.resolve('inner-link/a.txt', { expect: 'file' });
    expect(p.relative).toBe('src/a.txt');
  });

  it('refuses a dangling symbolic link', async () => {
    expect(await refusal('dangling')).toMatch(/target does not exist/);
  });

  it('takes the link itself with noFollow, so deleting a link never touches its target', async () => {
    const p = await sandbox.resolve('escape-file', { noFollow: true });
    expect(p.absolute).toBe(path.join(root, 'escape-file'));
    expect(p.stats?.isSymbolicLink()).toBe(true);
  });

  it('still refuses a path whose parent leaves the root with noFollow', async () => {
    expect(await refusal('escape-dir/secret.txt', { noFollow: true })).toMatch(/symbolic link that leads outside/);
  });

  it('refuses a FIFO', async () => {
    expect(await refusal('pipe')).toMatch(/FIFO/);
  });

  it('refuses a socket', async () => {
    expect(await refusal('sock')).toMatch(/socket/);
  });

  it('refuses a character device', async () => {
    const dev = new Sandbox('/dev');
    await expect(dev.resolve('null')).rejects.toThrow(/character device/);
  });

  it('refuses empty paths and NUL bytes', async () => {
    expect(await refusal('')).toMatch(/empty/);
    expect(await refusal('src/a.txt\0.png')).toMatch(/NUL/);
  });

  it('refuses the root itself when asked to', async () => {
    expect(await refusal('.', { notRoot: true })).toMatch(/workspace root itself/);
    expect(await refusal('src/..', { notRoot: true })).toMatch(/workspace root itself/);
  });

  it('checks what the path must be', async () => {
    expect(await refusal('src', { expect: 'file' })).toMatch(/is a directory, not a file/);
    expect(await refusal('src/a.txt', { expect: 'directory' })).toMatch(/is a file, not a directory/);
    expect(await refusal('src/missing.txt', { expect: 'file' })).toMatch(/No file at src\/missing.txt/);
    expect(await refusal('src/a.txt', { expect: 'absent' })).toMatch(/already exists/);
  });

  it('refuses a path that continues below a file', async () => {
    expect(await refusal('src/a.txt/child')).toMatch(/is a file|not a directory/);
  });

  it('refuses to open a root that does not exist', () => {
    expect(() => new Sandbox(path.join(base, 'nope'))).toThrow(/does not exist/);
  });
});
