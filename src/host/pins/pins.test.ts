import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import { comparePins, formatReport, hasDrift } from './compare.js';
import { diffDefinitions, formatChange } from './field-diff.js';
import { parseLockfile, pinTools, readLockfile, writeLockfile } from './lockfile.js';
import { pinHash } from './pin-hash.js';

const readFile = {
  name: 'read_file',
  title: 'Read file',
  description: 'Read a file.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  annotations: { readOnlyHint: true },
  _meta: { ui: { visibility: ['model'] }, 'other/key': 1 },
};

describe('canonical JSON', () => {
  it('sorts keys at every depth and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: [{ d: null, c: 'x' }], u: undefined })).toBe('{"a":[{"c":"x","d":null}],"b":1}');
  });
});

describe('pin hashes', () => {
  it('do not depend on key order or on _meta keys other than ui', () => {
    const reordered = {
      _meta: { 'other/key': 2, ui: { visibility: ['model'] } },
      annotations: { readOnlyHint: true },
      inputSchema: { properties: { path: { type: 'string' } }, type: 'object' },
      description: 'Read a file.',
      title: 'Read file',
      name: 'read_file',
    };
    expect(pinHash(reordered)).toBe(pinHash(readFile));
  });

  it('change with any pinned field', () => {
    const base = pinHash(readFile);
    expect(pinHash({ ...readFile, description: 'Read or write a file.' })).not.toBe(base);
    expect(pinHash({ ...readFile, annotations: { readOnlyHint: false } })).not.toBe(base);
    expect(pinHash({ ...readFile, _meta: { ui: { visibility: ['app'] } } })).not.toBe(base);
    expect(pinHash({ ...readFile, outputSchema: { type: 'object' } })).not.toBe(base);
  });
});

describe('field diffs', () => {
  it('name hints on their own and show absent values', () => {
    const before = { name: 'x', annotations: { readOnlyHint: true } };
    const after = { name: 'x', annotations: { readOnlyHint: false, destructiveHint: true } };
    expect(diffDefinitions(before, after).map(formatChange)).toEqual([
      'destructiveHint (absent) → true',
      'readOnlyHint true → false',
    ]);
  });

  it('walk into schemas and call the ui field _meta.ui', () => {
    const changes = diffDefinitions(
      { name: 'x', inputSchema: { properties: { p: { type: 'string' } } }, ui: { visibility: ['model', 'app'] } },
      { name: 'x', inputSchema: { properties: { p: { type: 'number' } } }, ui: { visibility: ['app'] } },
    );
    expect(changes.map(formatChange)).toEqual([
      'inputSchema.properties.p.type "string" → "number"',
      '_meta.ui.visibility ["model","app"] → ["app"]',
    ]);
  });
});

describe('comparePins', () => {
  const pins = pinTools([
    readFile,
    { name: 'write_file', description: 'Write a file.', inputSchema: { type: 'object' } },
  ]);

  it('reports nothing for the same tools', () => {
    const report = comparePins(pins, [
      readFile,
      { name: 'write_file', description: 'Write a file.', inputSchema: { type: 'object' } },
    ]);
    expect(hasDrift(report)).toBe(false);
    expect(report.unchanged).toEqual(['read_file', 'write_file']);
  });

  it('reports new, changed and removed tools', () => {
    const report = comparePins(pins, [
      { ...readFile, annotations: { readOnlyHint: false } },
      { name: 'rm', inputSchema: {} },
    ]);
    expect(report.changed.map((c) => c.name)).toEqual(['read_file']);
    expect(report.added).toEqual(['rm']);
    expect(report.removed).toEqual(['write_file']);
    expect(formatReport('fs', report)).toEqual([
      'fs: changed read_file',
      '    readOnlyHint true → false',
      'fs: new tool rm',
      'fs: removed write_file',
    ]);
  });

  it('pairs a renamed tool by identical content, then by description and schema', () => {
    const renamed = comparePins(pins, [
      { ...readFile, name: 'read_text_file' },
      {
        name: 'put_file',
        description: 'Write a file.',
        inputSchema: { type: 'object' },
        annotations: { destructiveHint: false },
      },
    ]);
    expect(renamed.renamed).toEqual([
      { from: 'read_file', to: 'read_text_file', changes: [] },
      {
        from: 'write_file',
        to: 'put_file',
        changes: [{ path: 'annotations.destructiveHint', before: undefined, after: false }],
      },
    ]);
    expect(renamed.added).toEqual([]);
    expect(renamed.removed).toEqual([]);
  });
});

describe('lockfiles', () => {
  it('round-trip through disk in a stable order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'candor-lock-'));
    try {
      const path = join(dir, 'candor.lock.json');
      await writeLockfile(path, { lockfileVersion: 1, servers: { z: pinTools([readFile]), a: pinTools([]) } });
      const text = readFileSync(path, 'utf8');
      expect(text.indexOf('"a"')).toBeLessThan(text.indexOf('"z"'));
      expect(text.endsWith('\n')).toBe(true);
      const lock = await readLockfile(path);
      expect(lock!.servers.z!.tools.read_file!.hash).toBe(pinHash(readFile));
      expect(await readLockfile(join(dir, 'missing.json'))).toBeUndefined();
      writeFileSync(path, '{ not json');
      await expect(readLockfile(path)).rejects.toThrow(/not valid JSON/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuse a malformed lockfile with the path of the problem', () => {
    expect(() => parseLockfile({ lockfileVersion: 2, servers: {} })).toThrow(/lockfileVersion/);
    expect(() => parseLockfile({ lockfileVersion: 1, servers: { s: { tools: { t: { hash: 1 } } } } })).toThrow(
      /servers\.s\.tools\.t/,
    );
  });
});
