/**
 * `candor observe` end to end: a fixture server run in the real
 * sandbox (bubblewrap + strace, as CI installs them), every kind of lie caught
 * with evidence, the honest tools clean, and the real folders untouched.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ObserveReport, observe } from '../../src/observe/index.js';
import { prepareSandbox } from '../../src/observe/sandbox.js';
import { sarifValidator } from '../fixtures/sarif-validator.js';
import { ensureBuilt, runCli } from '../support/cli-harness.js';

const fixture = path.join(import.meta.dirname, '../fixtures/observe/server.mjs');
let workdir: string;
let report: ObserveReport;
let before: string;
let homeBefore: string;
let realHome: string | undefined;

/** A fingerprint of every file (path, size, content) under a folder. */
function fingerprint(dir: string, depth = 0): string {
  if (depth > 2) return '';
  const hash = createHash('sha256');
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) hash.update(`${full}/\n${fingerprint(full, depth + 1)}`);
    else if (entry.isFile() && statSync(full).size < 1_000_000) hash.update(`${full}\n`).update(readFileSync(full));
  }
  return hash.digest('hex');
}

beforeAll(async () => {
  ensureBuilt();
  workdir = mkdtempSync(path.join(tmpdir(), 'candor-observe-test-'));
  mkdirSync(path.join(workdir, 'notes'));
  writeFileSync(path.join(workdir, 'notes', 'a.txt'), 'alpha');
  writeFileSync(path.join(workdir, 'notes', 'b.txt'), 'beta');
  before = fingerprint(workdir);
  // A HOME of this test's own: other test files running at the same time (npm, npx, sign-ins)
  // write to the machine's real HOME, so its fingerprint said nothing about observe.
  realHome = process.env.HOME;
  process.env.HOME = mkdtempSync(path.join(tmpdir(), 'candor-observe-home-'));
  mkdirSync(path.join(homedir(), '.ssh'));
  writeFileSync(path.join(homedir(), '.ssh', 'id_rsa'), 'not a real key');
  writeFileSync(path.join(homedir(), '.gitconfig'), '[user]\n\tname = test\n');
  homeBefore = fingerprint(homedir());
  report = await observe({ command: process.execPath, args: [fixture], workdir, timeoutMs: 15_000, skip: ['hang'] });
}, 120_000);

afterAll(() => {
  rmSync(workdir, { recursive: true, force: true });
  rmSync(homedir(), { recursive: true, force: true });
  if (realHome === undefined) delete process.env.HOME;
  else process.env.HOME = realHome;
});

const rulesOf = (tool: string) =>
  report.tools
    .find((t) => t.name === tool)!
    .findings.map((f) => f.ruleId)
    .sort();

describe('candor observe', () => {
  it('catches a read-only tool that writes, with the file as evidence', () => {
    expect(rulesOf('get_status')).toEqual(['observe/read-only-wrote']);
    const finding = report.tools.find((t) => t.name === 'get_status')!.findings[0]!;
    // Paths are said relative to the person's workdir, not the sandbox's copy.
    expect(finding.evidence).toContain('wrote status.log');
  });

  it('catches a closed-world tool that reaches for the network (not a write), and the connection never left', () => {
    expect(rulesOf('lookup_local')).toEqual(['observe/closed-world-connected']);
    const evidence = report.tools.find((t) => t.name === 'lookup_local')!.findings.flatMap((f) => f.evidence);
    expect(evidence).toContain('connect 10.255.255.1:80 (attempted)');
  });

  it('catches a non-destructive tool that deletes, and an idempotent one that changes things again', () => {
    expect(rulesOf('add_note')).toEqual(['observe/non-destructive-deleted']);
    expect(report.tools.find((t) => t.name === 'add_note')!.findings[0]!.evidence).toContain('deleted notes/a.txt');
    expect(rulesOf('touch_log')).toEqual(['observe/idempotent-changed-again']);
  });

  it('finds nothing against honest tools: many reads, a declared write, stderr logging', () => {
    for (const tool of ['read_all', 'save_note', 'ping_log']) {
      const observed = report.tools.find((t) => t.name === tool)!;
      expect(observed.notExercised, tool).toBeUndefined();
      expect(observed.findings, tool).toEqual([]);
    }
  });

  it('reports start-up writes apart, and a tool that only errors as not exercised', () => {
    expect(report.startup.diff.created.some((f) => f.includes('/.cache/observe-fixture/'))).toBe(true);
    const broken = report.tools.find((t) => t.name === 'broken')!;
    expect(broken.notExercised).toContain('every call failed');
    expect(broken.findings).toEqual([]);
  });

  it('leaves the real workdir and HOME byte-identical', () => {
    expect(fingerprint(workdir)).toBe(before);
    expect(fingerprint(homedir())).toBe(homeBefore);
  });

  it('runs the server with no capabilities, also as root, through the shared sandbox; without its flags root keeps them', async () => {
    const sandbox = await prepareSandbox({ command: 'cat', args: ['/proc/self/status'], workdir });
    try {
      const capEff = (args: string[]) =>
        /CapEff:\s*([0-9a-f]+)/.exec(execFileSync('bwrap', args, { encoding: 'utf8' }))?.[1];
      expect(sandbox.args.slice(1, 4)).toEqual(['--unshare-user', '--cap-drop', 'ALL']);
      expect(capEff(sandbox.args)).toBe('0000000000000000');
      // The control: the same sandbox without those flags. Only root has capabilities to keep.
      const control = [sandbox.args[0]!, ...sandbox.args.slice(4)];
      if (process.getuid?.() === 0) expect(capEff(control)).not.toBe('0000000000000000');
    } finally {
      await sandbox.dispose();
    }
  });

  it('kills the sandbox when a call hangs, and reports the tool as not exercised', async () => {
    const hung = await observe({
      command: process.execPath,
      args: [fixture],
      workdir,
      tools: ['hang'],
      timeoutMs: 1_500,
    });
    expect(hung.killed).toBe(true);
    expect(hung.failure).toMatchObject({ kind: 'hung', tool: 'hang' });
    expect(hung.tools[0]!.notExercised).toContain('no answer within 1500 ms');
  });

  it('says clearly when the server exits at start, with its last stderr lines, and exits 2 (could not observe)', async () => {
    await expect(
      observe({ command: process.execPath, args: ['-e', 'process.exit(3)'], workdir, timeoutMs: 5_000 }),
    ).rejects.toThrow(/It wrote nothing to stderr/);
    const run = await runCli(
      ['observe', '--', process.execPath, '-e', 'console.error("boom: no config at ~/.app.json"); process.exit(3)'],
      { cwd: workdir, timeoutMs: 60_000 },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("The server's last stderr lines:");
    expect(run.stderr).toContain('  boom: no config at ~/.app.json');
  });

  it('observes a server in another language (Python, standard library only)', async () => {
    const python = await observe({
      command: 'python3',
      args: [path.join(import.meta.dirname, '../fixtures/observe/server.py')],
      workdir,
      timeoutMs: 15_000,
    });
    expect(python.tools.find((t) => t.name === 'get_info')!.findings.map((f) => f.ruleId)).toEqual([
      'observe/read-only-wrote',
    ]);
    expect(python.tools.find((t) => t.name === 'list_files')!.findings).toEqual([]);
    expect(python.tools.find((t) => t.name === 'list_files')!.notExercised).toBeUndefined();
  });

  it('takes exact arguments from --args and writes a SARIF log that validates', async () => {
    const argsFile = path.join(workdir, '..', `observe-args-${process.pid}.json`);
    writeFileSync(argsFile, JSON.stringify({ touch_log: { line: 'exact-argument' } }));
    const run = await runCli(
      [
        'observe',
        '--tools',
        'touch_log',
        '--tools',
        'get_status',
        '--args',
        argsFile,
        '--format',
        'sarif',
        '--source',
        path.dirname(fixture),
        '--',
        process.execPath,
        fixture,
      ],
      { cwd: workdir, timeoutMs: 120_000 },
    );
    rmSync(argsFile, { force: true });
    expect(run.code, run.stderr).toBe(1);
    const log = JSON.parse(run.stdout);
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const rules = log.runs[0].results.map((r: { ruleId: string }) => r.ruleId).sort();
    expect(rules).toEqual(['observe/idempotent-changed-again', 'observe/read-only-wrote']);
    expect(log.runs[0].tool.driver.rules.map((r: { id: string }) => r.id)).toContain('observe/closed-world-connected');
    // Each result points at the line where its tool is defined in the --source folder.
    const source = readFileSync(fixture, 'utf8').split('\n');
    for (const result of log.runs[0].results) {
      const tool = result.properties.tool as string;
      const { artifactLocation, region } = result.locations[0].physicalLocation;
      expect(artifactLocation.uri).toBe(pathToFileURL(fixture).href);
      expect(source[region.startLine - 1]!.slice(region.startColumn - 1)).toMatch(new RegExp(`^${tool}'`));
    }
    const exact = await observe({
      command: process.execPath,
      args: [fixture],
      workdir,
      tools: ['touch_log'],
      arguments: { touch_log: { line: 'exact-argument' } },
    });
    expect(exact.tools[0]!.calls.map((c) => c.args)).toEqual([{ line: 'exact-argument' }, { line: 'exact-argument' }]);
    const json = await runCli(
      [
        'observe',
        '--tools',
        'touch_log',
        '--args',
        argsFile.replace('.json', '-2.json'),
        '--format',
        'json',
        '--',
        process.execPath,
        fixture,
      ],
      { cwd: workdir, timeoutMs: 60_000 },
    );
    expect(json.code).toBe(2);
    expect(json.stderr).toContain('--args');
  });

  it('runs from the CLI: a table, the evidence, and exit code 1 on a contradiction', async () => {
    const run = await runCli(
      ['observe', '--tools', 'get_status', '--tools', 'read_all', '--', process.execPath, fixture],
      {
        cwd: workdir,
        timeoutMs: 120_000,
      },
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('get_status');
    expect(run.stdout).toContain('observe/read-only-wrote');
    expect(run.stdout).toContain('status.log');
  });
});
