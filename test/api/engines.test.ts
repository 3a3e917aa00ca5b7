/**
 * The Node versions package.json's `engines` declares are ones every package a user's
 * `npm install candor` brings supports, by their own `engines`: the whole tree of
 * `dependencies` (optional peers are the user's choice and declare their own). An
 * install on the oldest Node we name then prints no EBADENGINE warning.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { REPO } from '../support/cli-harness.js';

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Manifest;

/** Where node resolves `name` from a package folder: its own node_modules, then each parent's. */
function resolveFrom(folder: string, name: string): string | undefined {
  for (let dir = folder; dir.startsWith(REPO); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === REPO) break;
  }
  return undefined;
}

/** Every installed package of the runtime dependency tree, by folder. */
function runtimeTree(): Map<string, Manifest> {
  const seen = new Map<string, Manifest>();
  const visit = (folder: string) => {
    const manifest = read(path.join(folder, 'package.json'));
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
      const found = resolveFrom(folder, name);
      if (found === undefined || seen.has(found)) continue; // an optional one not built for this machine
      seen.set(found, read(path.join(found, 'package.json')));
      visit(found);
    }
  };
  visit(REPO);
  return seen;
}

describe('engines', () => {
  it("declares a Node every runtime dependency supports, by the dependency's own engines", () => {
    const declared = read(path.join(REPO, 'package.json')).engines?.node;
    expect(declared).toBeDefined();
    const oldest = semver.minVersion(declared!)!.version;
    const tree = runtimeTree();
    expect(tree.size).toBeGreaterThan(20);
    const refusing = [...tree.values()]
      .filter((m) => m.engines?.node !== undefined && !semver.satisfies(oldest, m.engines.node))
      .map((m) => `${m.name}@${m.version} needs node ${m.engines!.node}`);
    expect(refusing).toEqual([]);
  });
});
