import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverVerdict } from '../observe/server-verdict.js';
import { readServerJson } from './server-json.js';
import { SCAN_META_KEY, serverJsonWithVerdict } from './server-json-verdict.js';
import type { ScanReport } from './types.js';

const report: ScanReport = {
  target: 'server.json',
  serverJson: { file: '/x/server.json', name: 'io.github.x/y', version: '1.0.0', entry: 'packages[0]' },
  package: { name: '@x/y', version: '1.0.0', integrity: 'sha512-abc' },
  tools: [
    { name: 'read', declared: { readOnlyHint: true }, effects: [], verdict: 'consistent', pin: 'sha256:1' },
    { name: 'send', declared: {}, effects: [], verdict: 'not exercised', reason: 'needs API_KEY', pin: 'sha256:2' },
  ],
  door: [],
  lint: [{ ruleId: 'hint-missing', severity: 'warning', tool: 'send', message: 'm' }] as ScanReport['lint'],
  observe: { findings: [], warnings: [] },
  needs: ['API_KEY'],
  ...serverVerdict({
    listed: ['read', 'send'],
    tools: [{ name: 'read' }, { name: 'send', notExercised: 'needs API_KEY' }],
    contradictions: false,
  }),
  seconds: 1,
  candorVersion: '0.1.0',
  date: '2026-11-28T11:00:00.000Z',
};

const original = `{
    "name": "io.github.x/y",
    "description": "Kept as written.",
    "version": "1.0.0",
    "packages": [{ "registryType": "npm", "identifier": "@x/y", "version": "1.0.0", "transport": { "type": "stdio" } }],
    "_meta": { "io.modelcontextprotocol.registry/publisher-provided": { "tool": "x" } }
}
`;

describe('serverJsonWithVerdict', () => {
  it('adds the verdict under its own _meta key, keeps every other byte, and the copy is still a valid server.json', async () => {
    const copy = serverJsonWithVerdict(original, report);
    const data = JSON.parse(copy);
    expect(data._meta['io.modelcontextprotocol.registry/publisher-provided']).toEqual({ tool: 'x' });
    expect(data._meta[SCAN_META_KEY]).toMatchObject({
      verdict: 'partial',
      label: 'consistent (1 of 2 exercised)',
      exercised: 1,
      total: 2,
      entry: 'packages[0]',
      package: { version: '1.0.0', integrity: 'sha512-abc' },
      tools: [
        { name: 'read', hints: { readOnlyHint: true }, verdict: 'consistent', pin: 'sha256:1' },
        { name: 'send', verdict: 'not exercised', reason: 'needs API_KEY' },
      ],
      evidence: { consistent: 1, contradicts: 0, notExercised: 1, lintErrors: 0, lintWarnings: 1 },
      needs: ['API_KEY'],
      candorVersion: '0.1.0',
      date: '2026-11-28T11:00:00.000Z',
    });
    expect(copy.startsWith(original.slice(0, original.indexOf('"_meta"')))).toBe(true);
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'candor-sj-')), 'server.json');
    await writeFile(file, copy);
    await expect(readServerJson(file)).resolves.toMatchObject({ name: 'io.github.x/y' });
  });

  it('replaces an earlier verdict instead of adding a second', () => {
    const once = serverJsonWithVerdict(original, report);
    const twice = serverJsonWithVerdict(once, { ...report, verdict: 'contradictions' });
    expect(twice.split(SCAN_META_KEY).length).toBe(2);
    expect(JSON.parse(twice)._meta[SCAN_META_KEY].verdict).toBe('contradictions');
  });
});
