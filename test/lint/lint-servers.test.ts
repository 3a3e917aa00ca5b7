/**
 * Lint real third-party servers installed from npm, over stdio, and assert what is
 * really true of them. Also an HTTP server built with the official SDK and a
 * module of candor tools.
 */
import { mkdtemp } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '../../src/lint/types.js';
import { lintTargets, type ServerReport } from '../../src/targets/lint-targets.js';
import type { Target } from '../../src/targets/types.js';
import { startPagedServer } from '../fixtures/paged-http-server.js';

const require = createRequire(import.meta.url);
const bin = (pkg: string) => require.resolve(`@modelcontextprotocol/${pkg}/dist/index.js`);
const stdio = (label: string, args: string[]): Target => ({ kind: 'stdio', command: process.execPath, args, label });

function ok(report: ServerReport | undefined) {
  if (report?.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(report)}`);
  return report.result;
}
const byRule = (findings: Finding[], ruleId: string) => findings.filter((f) => f.ruleId === ruleId);

describe('lint against npm servers over stdio', () => {
  let reports: ServerReport[];
  beforeAll(async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'candor-lint-fs-'));
    reports = await lintTargets(
      [
        stdio('filesystem', [bin('server-filesystem'), root]),
        stdio('memory', [bin('server-memory')]),
        stdio('everything', [bin('server-everything'), 'stdio']),
      ],
      { concurrency: 3, timeoutMs: 30_000 },
    );
  });

  it('finds no errors or warnings in server-filesystem, whose hints are explicit and consistent', () => {
    const result = ok(reports[0]);
    expect(result.toolCount).toBeGreaterThanOrEqual(11);
    expect(result.errorCount).toBe(0);
    expect(result.warningCount).toBe(0);
  });

  it('reports server-filesystem parameters that have no description (path of write_file, source of move_file)', () => {
    const result = ok(reports[0]);
    const params = byRule(result.findings, 'param-description-missing');
    expect(params.find((f) => f.tool === 'write_file')?.message).toContain('"path", "content"');
    expect(params.find((f) => f.tool === 'move_file')?.message).toContain('"source", "destination"');
    // read_text_file describes head/tail but not path.
    const readText = params.find((f) => f.tool === 'read_text_file')?.message ?? '';
    expect(readText).toContain('"path"');
    expect(readText).not.toContain('"head"');
  });

  it('accepts server-memory: its delete tools say destructiveHint true and its reads readOnlyHint true', () => {
    const result = ok(reports[1]);
    expect(result.toolCount).toBe(9);
    expect(result.errorCount).toBe(0);
    expect(byRule(result.findings, 'name-says-destructive')).toEqual([]);
    expect(byRule(result.findings, 'hints-missing')).toEqual([]);
    expect(byRule(result.findings, 'param-description-missing').map((f) => f.tool)).toContain('create_entities');
  });

  it('notes that server-everything claims read-only for trigger-long-running-operation, which the name cannot confirm', () => {
    const result = ok(reports[2]);
    expect(result.errorCount).toBe(0);
    const unverifiable = byRule(result.findings, 'read-only-unverifiable');
    expect(unverifiable.map((f) => f.tool)).toEqual(['trigger-long-running-operation']);
    expect(unverifiable[0]?.severity).toBe('info');
  });
});

describe('lint against an HTTP server built with the official SDK', () => {
  let server: Awaited<ReturnType<typeof startPagedServer>>;
  beforeAll(async () => {
    server = await startPagedServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('reads every page and reports wrong hints, a malformed hint and a missing UI resource', async () => {
    const [report] = await lintTargets([
      { kind: 'http', url: server.url, transport: 'streamable-http', label: 'paged' },
    ]);
    const result = ok(report);
    expect(result.toolCount).toBe(5);
    const pairs = result.findings.filter((f) => f.severity === 'error').map((f) => `${f.tool}:${f.ruleId}`);
    expect(pairs).toEqual(
      expect.arrayContaining([
        'delete_note:name-says-destructive',
        'odd_tool:hints-type',
        'show_chart:ui-resource-missing',
      ]),
    );
    expect(byRule(result.findings, 'name-says-open-world').map((f) => f.tool)).toEqual(['web_fetch']);
  });
});

describe('lint against a module of candor tools', () => {
  it('lints the manifest in process and flags the undeclared destructive tool', async () => {
    const file = path.join(import.meta.dirname, '../fixtures/lint-module-tools.ts');
    const [report] = await lintTargets([{ kind: 'module', path: file, label: 'lint-module-tools.ts' }]);
    const result = ok(report);
    expect(result.toolCount).toBe(2);
    expect(result.findings.filter((f) => f.tool === 'read_note')).toEqual([]);
    const purge = result.findings.filter((f) => f.tool === 'purge_notes');
    expect(purge.map((f) => f.ruleId)).toContain('hints-missing');
    expect(purge.find((f) => f.ruleId === 'hints-missing')?.patch).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      openWorldHint: false,
    });
  });
});

describe('lint against a module exporting a createServer result', () => {
  it('reads the tools and the served resources, and flags only the view that is not served', async () => {
    const file = path.join(import.meta.dirname, '../fixtures/lint-module-server.ts');
    const [report] = await lintTargets([{ kind: 'module', path: file, label: 'lint-module-server.ts' }]);
    const result = ok(report);
    expect(result.toolCount).toBe(2);
    expect(result.findings.map((f) => `${f.tool}:${f.ruleId}`)).toEqual(['show_pie_chart:ui-resource-missing']);
  });
});
