/**
 * `candor scan` over the real CLI for the targets beyond a package name: an MCP
 * Registry server.json (valid, invalid, and one whose package needs an
 * environment variable nobody gave), a URL served by `candor serve` on loopback,
 * and a --budget that runs out.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, type ServeProcess, startServe } from '../support/cli-harness.js';

const fixtures = path.join(import.meta.dirname, '../fixtures');
const serverJson = path.join(fixtures, 'scan/server.json');
const observeFixture = path.join(fixtures, 'observe/server.mjs');
const WRITERS = ['create_entities', 'create_relations', 'delete_entities', 'delete_observations', 'delete_relations'];

let served: ServeProcess;

beforeAll(async () => {
  ensureBuilt();
  served = await startServe(['--example', 'workspace']);
}, 300_000);

afterAll(async () => {
  await served?.stop();
});

type Tool = { name: string; verdict: string; reason?: string };

describe('candor scan of a server.json', () => {
  it('installs its npm package and says the tools that failed need the required variable that was not given', async () => {
    const run = await runCli(['scan', serverJson, '--format', 'json'], { timeoutMs: 170_000 });
    expect(run.code).toBe(0);
    // Some tools ran, the writers did not: consistent where exercised, and the report says how many.
    expect(run.stderr).toContain('packages[0] needs MEMORY_FILE_PATH');
    const report = JSON.parse(run.stdout);
    expect(report.serverJson).toMatchObject({
      name: 'io.github.modelcontextprotocol/server-memory',
      entry: 'packages[0]',
    });
    expect(report.package).toMatchObject({ name: '@modelcontextprotocol/server-memory', version: '2026.8.31' });
    expect(report.needs).toEqual(['MEMORY_FILE_PATH']);
    const ran = report.tools.filter((t: Tool) => t.verdict !== 'not exercised').length;
    expect(ran).toBeGreaterThan(0);
    expect(report).toMatchObject({ verdict: 'partial', exercised: ran, total: report.tools.length });
    expect(report.label).toBe(`consistent (${report.exercised} of ${report.total} exercised)`);
    for (const name of WRITERS) {
      const tool = report.tools.find((t: Tool) => t.name === name);
      expect(tool.verdict).toBe('not exercised');
      expect(tool.reason).toMatch(/^needs MEMORY_FILE_PATH/);
    }
    // lint still covers the tools that were not exercised
    expect(report.lint.some((f: { tool?: string }) => f.tool === 'create_entities')).toBe(true);
    expect(report.tools.find((t: Tool) => t.name === 'read_graph').verdict).toBe('consistent');
  }, 180_000);

  it('exercises those tools once the variable is given, with {workdir} naming the sandbox copy', async () => {
    const run = await runCli(
      ['scan', serverJson, '--env', 'MEMORY_FILE_PATH={workdir}/memory.jsonl', '--format', 'json'],
      { timeoutMs: 170_000 },
    );
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.needs).toBeUndefined();
    for (const name of WRITERS) expect(report.tools.find((t: Tool) => t.name === name).verdict).toBe('consistent');
  }, 180_000);

  it('refuses an invalid server.json with the file, the JSON path and the reason, and installs nothing', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'candor-scan-sj-'));
    const file = path.join(dir, 'server.json');
    await writeFile(
      file,
      JSON.stringify({
        name: 'no-slash-here',
        description: 'A server.json with three mistakes.',
        version: '1.0.0',
        packages: [{ registryType: 'npm', identifier: 'x', version: 'latest', transport: { type: 'stdio' } }],
        remotes: [{ type: 'streamable-http', url: 'ftp://example.com/mcp' }],
      }),
    );
    const run = await runCli(['scan', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}: $.name: must be reverse-DNS`);
    expect(run.stderr).toContain(`${file}: $.packages[0].version: must be an exact version, not "latest"`);
    expect(run.stderr).toContain(`${file}: $.remotes[0].url: must start with http://, https:// or a {variable}`);
    expect(run.stderr).not.toContain('installing');
  });

  it('refuses a server.json that is not JSON, naming the file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'candor-scan-sj-'));
    const file = path.join(dir, 'server.json');
    await writeFile(file, '{ "name": "io.github.x/y", ');
    const run = await runCli(['scan', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}: $: not valid JSON`);
  });

  it('scans the remote of a server.json, with its URL variable filled from --env, once its loopback address is allowed', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'candor-scan-sj-'));
    const file = path.join(dir, 'server.json');
    const url = new URL(served.url);
    await writeFile(
      file,
      JSON.stringify({
        name: 'dev.candor.test/workspace',
        description: 'The workspace example, served on loopback.',
        version: '1.0.0',
        remotes: [
          {
            type: 'streamable-http',
            url: `http://${url.hostname}:{port}${url.pathname}`,
            variables: { port: { description: 'The port', isRequired: true } },
          },
        ],
      }),
    );
    const refused = await runCli(['scan', file, '--env', `port=${url.port}`]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `remotes[0]: ${served.url} resolves to 127.0.0.1 (loopback), not a public address`,
    );
    const run = await runCli([
      'scan',
      file,
      '--env',
      `port=${url.port}`,
      '--allow-private-network',
      '--format',
      'json',
    ]);
    expect(run.code).toBe(3);
    const report = JSON.parse(run.stdout);
    expect(report.serverJson.entry).toBe('remotes[0]');
    expect(report.remote.url).toBe(served.url);
    expect(report.tools.length).toBeGreaterThan(5);
  });
});

describe('candor scan --format server-json', () => {
  it('prints the scanned server.json with the verdict under _meta["dev.candor/scan"] and the rest unchanged', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'candor-scan-sj-'));
    const file = path.join(dir, 'server.json');
    const original = {
      $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
      name: 'dev.candor.test/workspace',
      description: 'The workspace example, served on loopback.',
      version: '1.0.0',
      remotes: [{ type: 'streamable-http', url: served.url }],
      _meta: { 'io.modelcontextprotocol.registry/publisher-provided': { tool: 'test' } },
    };
    await writeFile(file, `${JSON.stringify(original, null, 2)}\n`);
    const run = await runCli(['scan', file, '--allow-private-network', '--format', 'server-json']);
    expect(run.code).toBe(3);
    const copy = JSON.parse(run.stdout);
    const { 'dev.candor/scan': verdict, ...publisher } = copy._meta;
    expect({ ...copy, _meta: publisher }).toEqual(original);
    // Only listed, never run: not verified, and the copy says so.
    expect(verdict).toMatchObject({
      verdict: 'not verified',
      exercised: 0,
      entry: 'remotes[0]',
      candorVersion: expect.any(String),
    });
    expect(Date.parse(verdict.date)).not.toBeNaN();
    const read = verdict.tools.find((t: { name: string }) => t.name === 'read_file');
    expect(read).toMatchObject({ hints: { readOnlyHint: true }, verdict: 'not exercised' });
    expect(verdict.evidence).toMatchObject({ notExercised: verdict.tools.length, contradicts: 0, lintErrors: 0 });
  });

  it('refuses a target that is not a server.json', async () => {
    const run = await runCli(['scan', served.url, '--format', 'server-json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('give one server.json as the target');
  });
});

describe('candor scan of a URL', () => {
  it('lists the tools over Streamable HTTP, lints and pins them, and says observe cannot sandbox a remote server', async () => {
    const run = await runCli(['scan', served.url, '--format', 'json']);
    expect(run.code).toBe(3);
    const report = JSON.parse(run.stdout);
    expect(report.remote).toEqual({ url: served.url, transport: 'streamable-http' });
    const names = report.tools.map((t: Tool) => t.name);
    expect(names).toContain('read_file');
    for (const tool of report.tools) {
      expect(tool.verdict).toBe('not exercised');
      expect(tool.reason).toContain('observe cannot sandbox a remote server');
      expect(tool.pin).toMatch(/^sha256:/);
    }
    const markdown = await runCli(['scan', served.url, '--format', 'markdown']);
    expect(markdown.stdout).toContain(`remote ${served.url} (streamable-http)`);
  });

  it('exits 2 naming the URL when nothing listens there', async () => {
    const run = await runCli(['scan', 'http://127.0.0.1:9/mcp']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('could not scan http://127.0.0.1:9/mcp');
  });
});

describe('candor scan --budget', () => {
  it('marks the tools left when the budget ran out as not exercised, out of time, and still checks their definitions', async () => {
    // The server takes 1.5 s to start (it blocks before loading), so the 1 s budget is spent before its first tool.
    const slowStart = 'data:text/javascript,Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500)';
    const run = await runCli(
      ['scan', '--budget', '1', '--format', 'json', '--', process.execPath, '--import', slowStart, observeFixture],
      { timeoutMs: 170_000 },
    );
    const report = JSON.parse(run.stdout);
    expect(report.budgetSeconds).toBe(1);
    const late = report.tools.filter((t: Tool) => t.reason === 'out of time');
    expect(late.length).toBeGreaterThan(0);
    expect(late.at(-1).name).toBe(report.tools.at(-1).name);
    // the definitions of the tools left were still checked
    expect(late.at(-1).pin).toMatch(/^sha256:/);
  }, 180_000);

  it('refuses a budget that is not a whole number of seconds', async () => {
    const run = await runCli(['scan', '--budget', 'soon', '--', process.execPath, observeFixture]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('expected a whole number');
  });
});
