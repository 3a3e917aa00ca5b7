/** `candor lint` through commander, as the CLI's main will register it. */
import { mkdtemp, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerLint } from '../../src/cli/commands/lint.js';
import { startPagedServer } from '../fixtures/paged-http-server.js';
import { sarifValidator } from '../fixtures/sarif-validator.js';

const require = createRequire(import.meta.url);
const memory = require.resolve('@modelcontextprotocol/server-memory/dist/index.js');
const moduleFixture = path.join(import.meta.dirname, '../fixtures/lint-module-tools.ts');

async function candor(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  const program = new Command('candor').exitOverride();
  program.configureOutput({
    writeOut: (s) => {
      stdout += s;
    },
    writeErr: (s) => {
      stderr += s;
    },
  });
  registerLint(program);
  process.exitCode = undefined;
  try {
    await program.parseAsync(argv, { from: 'user' });
    return { code: Number(process.exitCode ?? 0), stdout, stderr };
  } catch (error) {
    const code = (error as { exitCode?: number }).exitCode ?? 1;
    return { code, stdout, stderr: stderr + String((error as Error).message) };
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.exitCode = undefined;
  }
}

describe('candor lint (CLI)', () => {
  let server: Awaited<ReturnType<typeof startPagedServer>>;
  beforeAll(async () => {
    server = await startPagedServer();
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(() => {
    process.exitCode = undefined;
  });

  it('runs the command after -- over stdio and exits 0 on a server without errors', async () => {
    const { code, stdout } = await candor('lint', '--', process.execPath, memory);
    expect(stdout).toContain('9 tools, 0 errors');
    expect(code).toBe(0);
  });

  it('writes SARIF that validates against the schema and exits 1 on errors', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'candor-sarif-'));
    const file = path.join(dir, 'out.sarif');
    const { code, stderr } = await candor('lint', server.url, '--format', 'sarif', '-o', file);
    expect(code).toBe(1);
    expect(stderr).toContain(`Wrote ${file}`);
    const log = JSON.parse(await readFile(file, 'utf8'));
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    expect(log.runs[0].results.some((r: { ruleId: string }) => r.ruleId === 'name-says-destructive')).toBe(true);
  });

  it('lints a module target and honours --max-warnings like eslint', async () => {
    const plain = await candor('lint', moduleFixture, '--format', 'json');
    const doc = JSON.parse(plain.stdout);
    expect(doc.summary.errors).toBe(0);
    expect(doc.summary.warnings).toBeGreaterThan(0);
    expect(plain.code).toBe(0);
    expect((await candor('lint', moduleFixture, '--max-warnings', '0', '--format', 'json')).code).toBe(1);
    expect(
      (await candor('lint', moduleFixture, '--max-warnings', String(doc.summary.warnings), '--format', 'json')).code,
    ).toBe(0);
  });

  it('applies --profile', async () => {
    const { stdout } = await candor('lint', moduleFixture, '--profile', 'openai', '--format', 'json');
    const rules = JSON.parse(stdout).servers[0].findings.map(
      (f: { ruleId: string; severity: string }) => `${f.ruleId}:${f.severity}`,
    );
    expect(rules).toContain('hints-missing:error');
  });

  it('rejects an unknown format and a bad target with usage errors', async () => {
    const format = await candor('lint', moduleFixture, '--format', 'xml');
    expect(format.code).not.toBe(0);
    expect(format.stderr).toContain("argument 'xml' is invalid");
    const target = await candor('lint', 'not-a-target');
    expect(target.code).toBe(2);
    expect(target.stderr).toContain('Cannot tell what "not-a-target" is');
  });
});
