/**
 * `candor observe` against third-party servers from npm, in the real
 * sandbox: server-filesystem (every tool exercised with generated paths), and
 * server-memory through a config entry whose env points its store into the
 * workdir. What they show is recorded in the README; the real workdir stays
 * byte-identical.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observe } from '../../src/observe/index.js';
import { REPO, runCli } from '../support/cli-harness.js';

const serverBin = (name: string) => path.join(REPO, 'node_modules/@modelcontextprotocol', name, 'dist/index.js');
let workdir: string;
let before: string;

function fingerprint(dir: string): string {
  const hash = createHash('sha256');
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) hash.update(`${full}/\n${fingerprint(full)}`);
    else hash.update(`${full}:${statSync(full).size}\n`).update(readFileSync(full));
  }
  return hash.digest('hex');
}

beforeAll(() => {
  workdir = mkdtempSync(path.join(tmpdir(), 'candor-observe-npm-'));
  writeFileSync(path.join(workdir, 'a.txt'), 'alpha\n');
  mkdirSync(path.join(workdir, 'sub'));
  writeFileSync(path.join(workdir, 'sub', 'b.md'), '# beta\n');
  before = fingerprint(workdir);
});

afterAll(() => rmSync(workdir, { recursive: true, force: true }));

describe('candor observe on npm servers', () => {
  it('server-filesystem: every tool exercised, consistent with its hints', async () => {
    const report = await observe({
      command: process.execPath,
      args: [serverBin('server-filesystem'), workdir],
      workdir,
      timeoutMs: 20_000,
    });
    expect(report.tools.length).toBeGreaterThanOrEqual(14);
    expect(report.tools.filter((t) => t.notExercised).map((t) => [t.name, t.notExercised])).toEqual([]);
    expect(report.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    const wrote = (name: string) =>
      report.tools.find((t) => t.name === name)!.calls.some((c) => c.diff.created.length + c.diff.modified.length > 0);
    expect(wrote('write_file')).toBe(true);
    expect(report.tools.find((t) => t.name === 'move_file')!.calls.some((c) => c.diff.deleted.length > 0)).toBe(true);
    expect(wrote('read_text_file')).toBe(false);
    expect(fingerprint(workdir)).toBe(before);
  }, 120_000);

  it('server-filesystem with no folder argument takes the workdir from the client roots observe offers', async () => {
    const report = await observe({
      command: process.execPath,
      args: [serverBin('server-filesystem')],
      workdir,
      tools: ['list_allowed_directories', 'read_text_file', 'list_directory', 'write_file'],
      timeoutMs: 20_000,
    });
    expect(report.tools.filter((t) => t.notExercised).map((t) => [t.name, t.notExercised])).toEqual([]);
    // Paths in the report are said relative to the workdir: the one allowed folder is the copy.
    expect(report.tools.find((t) => t.name === 'list_allowed_directories')!.calls[0]!.answer).toContain('.');
    expect(report.tools.find((t) => t.name === 'read_text_file')!.calls[0]!.answer).toMatch(/alpha|beta/);
    expect(report.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(fingerprint(workdir)).toBe(before);
  }, 120_000);

  it('server-memory via a config entry: writes exercised, reads clean', async () => {
    const config = path.join(tmpdir(), `candor-observe-memory-${process.pid}.json`);
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          memory: {
            command: process.execPath,
            args: [serverBin('server-memory')],
            env: { MEMORY_FILE_PATH: path.join(workdir, 'memory.jsonl') },
          },
        },
      }),
    );
    const run = await runCli(['observe', `${config}#memory`, '--format', 'json'], { cwd: workdir, timeoutMs: 120_000 });
    rmSync(config, { force: true });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      tools: Array<{ name: string; notExercised?: string; findings: Array<{ ruleId: string }> }>;
    };
    const byName = new Map(report.tools.map((t) => [t.name, t]));
    expect(byName.get('create_entities')!.notExercised).toBeUndefined();
    for (const read of ['read_graph', 'search_nodes', 'open_nodes']) {
      expect(byName.get(read)!.notExercised).toBeUndefined();
      expect(byName.get(read)!.findings).toEqual([]);
    }
    expect(fingerprint(workdir)).toBe(before);
  }, 120_000);
});
