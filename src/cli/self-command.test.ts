import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { selfCommand } from './self-command.js';

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'candor-self-')));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A package folder with its CLI file, as npm lays it out under `prefix`. */
function installAt(prefix: string): { root: string; main: string } {
  const pkg = path.join(prefix, 'node_modules', 'candor');
  const main = path.join(pkg, 'dist', 'src', 'cli', 'main.js');
  mkdirSync(path.dirname(main), { recursive: true });
  writeFileSync(main, '');
  return { root: pkg, main };
}

const facts = (at: { root: string; main: string }, pathEnv: string) => ({
  ...at,
  version: '1.2.3',
  node: '/opt/node/bin/node',
  pathEnv,
  platform: 'linux' as const,
});

describe('the command a client config starts candor by', () => {
  it('is candor when the candor on PATH is this installation (a global install)', () => {
    const global = installAt(path.join(root, 'usr', 'lib'));
    const bin = path.join(root, 'usr', 'bin');
    mkdirSync(bin, { recursive: true });
    symlinkSync(global.main, path.join(bin, 'candor'));
    expect(selfCommand(facts(global, ['/nowhere', bin].join(path.delimiter)))).toEqual({
      command: 'candor',
      args: [],
      how: 'path',
    });
  });

  it("is npx -y candor@<exact version> from npx's cache, never the cache folder", () => {
    const cached = installAt(path.join(root, '.npm', '_npx', '0123abcd'));
    // Another candor on PATH (an older global one) is not this one: the entry must not start it.
    const other = installAt(path.join(root, 'old'));
    const bin = path.join(root, 'bin');
    mkdirSync(bin);
    symlinkSync(other.main, path.join(bin, 'candor'));
    const self = selfCommand(facts(cached, bin));
    expect(self).toMatchObject({ command: 'npx', args: ['-y', 'candor@1.2.3'], how: 'npx' });
    expect(JSON.stringify(self)).not.toContain('_npx');
  });

  it("is npx -y candor@<exact version> from a project's node_modules", () => {
    expect(selfCommand(facts(installAt(path.join(root, 'project')), '')).how).toBe('npx');
  });

  it('is the absolute path of node and the CLI for a checkout of the sources, and says so', () => {
    const checkout = path.join(root, 'candor');
    const main = path.join(checkout, 'dist', 'src', 'cli', 'main.js');
    mkdirSync(path.dirname(main), { recursive: true });
    mkdirSync(path.join(checkout, '.git'));
    writeFileSync(main, '');
    const self = selfCommand(facts({ root: checkout, main }, ''));
    expect(self).toMatchObject({ command: '/opt/node/bin/node', args: [main], how: 'checkout' });
    expect(self.note).toContain(`from this checkout (${checkout})`);
  });
});
