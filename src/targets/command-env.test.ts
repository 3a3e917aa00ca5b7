import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commandEnv, splitPair } from './command-env.js';

const dir = mkdtempSync(path.join(tmpdir(), 'candor-command-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('commandEnv', () => {
  it('starts from the inherited environment and lays files, then pairs, over it in order', async () => {
    writeFileSync(path.join(dir, 'a.env'), 'A=from a\nB=from a\n# comment\nexport C="quoted value"\n');
    writeFileSync(path.join(dir, 'b.env'), 'B=from b\n');
    const env = await commandEnv({
      inherit: { A: 'inherited', KEEP: 'kept', GONE: undefined },
      files: ['a.env', 'b.env'],
      pairs: ['C=pair', 'D=x=y', 'E='],
      cwd: dir,
    });
    expect(env).toEqual({ A: 'from a', B: 'from b', C: 'pair', D: 'x=y', E: '', KEEP: 'kept' });
  });

  it("uses the process's environment by default", async () => {
    expect((await commandEnv()).PATH).toBe(process.env.PATH);
  });

  it('names a missing file', async () => {
    await expect(commandEnv({ files: ['missing.env'], cwd: dir })).rejects.toThrow(
      `--env-file ${path.join(dir, 'missing.env')}: no such file.`,
    );
  });
});

describe('splitPair', () => {
  it.each(['NOEQUALS', '=value', '1ABC=x', 'A-B=x', ''])('refuses %j with the expected form', (pair) => {
    expect(() => splitPair(pair)).toThrow(/expected KEY=VALUE/);
  });

  it('keeps everything after the first = as the value', () => {
    expect(splitPair('URL=http://x/?a=b')).toEqual(['URL', 'http://x/?a=b']);
  });
});
