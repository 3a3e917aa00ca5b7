/**
 * `candor/fetch` runs where Node.js does not: its import graph (walked by esbuild from
 * src/fetch.ts, static and dynamic imports alike, as a Worker bundler would) reaches no
 * Node.js built-in and none of the packages that need one (ioredis, Ajv,
 * rate-limiter-flexible load through a call-time `require` on Node only). And the bundle
 * a Worker gets for a one-tool server stays small; docs/serve/fetch-runtimes.md gives the
 * measured size.
 */
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bundleWorker } from '../support/workerd.js';

const entry = fileURLToPath(new URL('../../src/fetch.ts', import.meta.url));
const worker = fileURLToPath(new URL('../fixtures/worker/server.ts', import.meta.url));
const NODE_ONLY_PACKAGES = ['ioredis', 'ajv', 'rate-limiter-flexible', 'web-tree-sitter', 'sh-syntax', 'commander'];

/** Every import of a Node.js built-in or a Node-only package reachable from the entry, as `importer → specifier`. */
async function nodeImportsOf(file: string): Promise<string[]> {
  const found: string[] = [];
  const record: Plugin = {
    name: 'record-node-imports',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        const bare = args.path.replace(/^node:/, '').split('/')[0]!;
        const builtin = args.path.startsWith('node:') || builtinModules.includes(bare);
        const nodeOnly = NODE_ONLY_PACKAGES.some((p) => args.path === p || args.path.startsWith(`${p}/`));
        if (!builtin && !nodeOnly) return undefined;
        found.push(`${args.importer.replace(/^.*?\/(src|node_modules)\//, '$1/')} → ${args.path}`);
        return { path: args.path, external: true };
      });
    },
  };
  await build({
    entryPoints: [file],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'import'],
    plugins: [record],
    logLevel: 'silent',
  });
  return found;
}

describe('the fetch entry point', () => {
  it('imports no Node.js built-in and no Node-only package, statically or dynamically', async () => {
    expect(await nodeImportsOf(entry)).toEqual([]);
  });

  it('is told apart from the main entry, which does import Node.js built-ins (so the check can fail)', async () => {
    const main = await nodeImportsOf(fileURLToPath(new URL('../../src/index.ts', import.meta.url)));
    expect(main.some((line) => line.endsWith('→ node:http'))).toBe(true);
  });

  it('gives a one-tool Worker a bundle under 1 MiB minified and 256 KiB gzipped', async () => {
    // Measured 2026-11-28: 738 KB minified, 184 KB gzipped (zod is 443 KB of it); the bounds leave headroom.
    const code = await bundleWorker(worker, { minify: true });
    expect(code.length).toBeLessThan(1024 * 1024);
    expect(gzipSync(code).length).toBeLessThan(256 * 1024);
  });
});
