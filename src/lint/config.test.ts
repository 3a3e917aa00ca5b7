import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadLintConfig } from './config.js';

async function dir(files: Record<string, unknown>): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'candor-lint-config-'));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, name)), { recursive: true });
    await writeFile(path.join(root, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return root;
}

describe('loadLintConfig', () => {
  it('reads the lint section of candor.config.json found in a parent directory', async () => {
    const root = await dir({ 'candor.config.json': { lint: { profile: 'strict' } }, 'pkg/src/.keep': '' });
    const loaded = await loadLintConfig({ cwd: path.join(root, 'pkg/src') });
    expect(loaded).toEqual({ config: { profile: 'strict' }, file: path.join(root, 'candor.config.json') });
  });

  it('reads the candor.lint key of package.json, and skips a package.json without one', async () => {
    const root = await dir({
      'package.json': { name: 'outer', candor: { lint: { rules: { 'title-missing': 'off' } } } },
      'inner/package.json': { name: 'inner' },
    });
    const loaded = await loadLintConfig({ cwd: path.join(root, 'inner') });
    expect(loaded.config).toEqual({ rules: { 'title-missing': 'off' } });
    expect(loaded.file).toBe(path.join(root, 'package.json'));
  });

  it('refuses an ignore without a reason, naming the file', async () => {
    const root = await dir({ 'candor.config.json': { lint: { ignores: [{ tools: ['x'] }] } } });
    await expect(loadLintConfig({ cwd: root })).rejects.toThrow(/candor\.config\.json: ignores\[0\] has no "reason"/);
  });

  it('refuses unknown keys and bad JSON with clear messages', async () => {
    const root = await dir({ 'a.json': { lint: { profiles: 'x' } }, 'b.json': '{ nope' });
    await expect(loadLintConfig({ cwd: root, file: 'a.json' })).rejects.toThrow('unknown key in "lint": profiles');
    await expect(loadLintConfig({ cwd: root, file: 'b.json' })).rejects.toThrow('Cannot read lint config');
  });

  it('returns the defaults when there is no configuration anywhere up to the root', async () => {
    const root = await dir({ 'x/.keep': '' });
    const loaded = await loadLintConfig({ cwd: path.join(root, 'x') });
    // A config file higher up (outside the temp dir) would be found too; tmpdir has none here.
    expect(loaded.config).toEqual({});
  });
});
