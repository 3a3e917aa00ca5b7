/**
 * The public surface is deliberate: every subpath in package.json
 * points at a built file and a source entry that exist, each entry lists its
 * exports by name (no `export *`), and importing the built entry gives the
 * names the source promises.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, string | { types: string; import: string }>;
  bin: Record<string, string>;
};

const entries = Object.entries(pkg.exports).filter(
  (entry): entry is [string, { types: string; import: string }] => typeof entry[1] === 'object',
);

function sourceOf(built: string): string {
  return join(root, built.replace(/^\.\/dist\//, '').replace(/\.js$/, '.ts'));
}

describe('package exports', () => {
  it('has a built file, a declaration file and a source file for every subpath', () => {
    expect(entries.length).toBeGreaterThan(1);
    for (const [subpath, target] of entries) {
      expect(existsSync(join(root, target.import)), `${subpath} → ${target.import}`).toBe(true);
      expect(existsSync(join(root, target.types)), `${subpath} → ${target.types}`).toBe(true);
      expect(existsSync(sourceOf(target.import)), `${subpath} source`).toBe(true);
    }
  });

  it('lists exports by name in every entry, never export *', () => {
    for (const [, target] of entries) {
      const source = readFileSync(sourceOf(target.import), 'utf8');
      expect(source).not.toMatch(/^export \* from/m);
    }
  });

  it('gives the names each source entry exports when the built entry is imported', async () => {
    for (const [subpath, target] of entries) {
      const source = readFileSync(sourceOf(target.import), 'utf8');
      const promised = [...source.matchAll(/^export (?!type )\{([^}]*)\}/gm)]
        .flatMap((m) => m[1]!.split(','))
        .map((name) => name.trim())
        .filter((name) => name.length > 0 && !name.startsWith('type '))
        .map((name) => name.split(/\s+as\s+/).pop()!);
      const built = await import(join(root, target.import));
      for (const name of promised) expect(built, `${subpath} exports ${name}`).toHaveProperty(name);
    }
  });

  it('exports one subpath per agent framework, each with its framework as an optional peer dependency', () => {
    const peers = (pkg as unknown as { peerDependencies: Record<string, string> }).peerDependencies;
    const optional = (pkg as unknown as { peerDependenciesMeta: Record<string, { optional?: boolean }> })
      .peerDependenciesMeta;
    const frameworks: Record<string, string> = {
      './ai-sdk': 'ai',
      './openai-agents': '@openai/agents',
      './langchain': 'langchain',
      './mastra': '@mastra/core',
    };
    for (const [subpath, peer] of Object.entries(frameworks)) {
      expect(pkg.exports[subpath], subpath).toBeDefined();
      expect(peers[peer], `${peer} is a peer dependency`).toBeDefined();
      expect(optional[peer]?.optional, `${peer} is optional`).toBe(true);
    }
  });

  it('names the package to install when an adapter cannot find its framework', async () => {
    const { requirePeer } = await import('../../src/adapters/tool-bridge.js');
    await expect(requirePeer('@candor-test/not-installed', 'candor/example')).rejects.toThrow(
      'candor/example needs the package "@candor-test/not-installed": npm install @candor-test/not-installed',
    );
    await expect(requirePeer('@candor-test/absent/tools', 'candor/example', '@candor-test/absent')).rejects.toThrow(
      'candor/example needs the package "@candor-test/absent": npm install @candor-test/absent',
    );
  });

  it('points the candor bin at the built CLI', () => {
    expect(existsSync(join(root, pkg.bin.candor!))).toBe(true);
  });
});
