import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SARIF_SCHEMA, sarifValidator } from '../../../test/fixtures/sarif-validator.js';
import type { ServerReport } from '../../targets/lint-targets.js';
import { lint } from '../lint.js';
import { formatJson } from './json.js';
import { formatPretty } from './pretty.js';
import { formatSarif } from './sarif.js';
import { exitCode, summarise } from './summary.js';

const schema = { type: 'object' };
const result = lint(
  [
    { name: 'delete_file', inputSchema: schema, annotations: { readOnlyHint: false, destructiveHint: false } },
    {
      name: 'list_files',
      title: 'List Files',
      description: 'Lists files.',
      inputSchema: schema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
  ],
  { ignores: [{ tools: ['delete_file'], rules: ['title-missing'], reason: 'a title is coming in v2' }] },
);
const reports: ServerReport[] = [
  {
    label: 'files',
    target: {
      kind: 'stdio',
      command: 'node',
      args: ['files.js'],
      label: 'files',
      source: { file: path.resolve('mcp.json'), name: 'files' },
    },
    status: 'ok',
    result,
    durationMs: 12,
  },
  {
    label: 'broken',
    target: { kind: 'stdio', command: 'nope', args: [], label: 'broken' },
    status: 'failed',
    error: 'broken: command not found: nope (checked PATH).',
    errorCode: 'target_not_found',
    durationMs: 3,
  },
  {
    label: 'clean',
    target: { kind: 'http', url: 'http://127.0.0.1:1/mcp', transport: 'streamable-http', label: 'clean' },
    status: 'ok',
    result: lint([]),
    durationMs: 5,
  },
];

describe('formatSarif', () => {
  const log = JSON.parse(formatSarif(reports, { version: '0.1.0', cwd: process.cwd() }));

  it('validates against the SARIF 2.1.0 JSON schema', () => {
    expect(SARIF_SCHEMA.title).toContain('SARIF');
    const validate = sarifValidator();
    const ok = validate(log);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('would fail the schema for a broken log (the validation is real)', () => {
    const validate = sarifValidator();
    expect(validate({ ...log, version: '2.0.0' })).toBe(false);
    expect(
      validate({ ...log, runs: [{ ...log.runs[0], results: [{ level: 'fatal', message: { text: 'x' } }] }] }),
    ).toBe(false);
  });

  it('lists every rule and one result per finding, suppressed ones with the reason', () => {
    const run = log.runs[0];
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toContain('name-says-destructive');
    expect(run.results).toHaveLength(result.findings.length + result.suppressed.length);
    const suppressed = run.results.filter((r: { suppressions?: unknown }) => r.suppressions);
    expect(suppressed[0].suppressions[0]).toEqual({ kind: 'external', justification: 'a title is coming in v2' });
    const destructive = run.results.find((r: { ruleId: string }) => r.ruleId === 'name-says-destructive');
    expect(destructive.level).toBe('error');
    expect(destructive.locations[0].logicalLocations[0].fullyQualifiedName).toBe('files/delete_file');
    expect(destructive.locations[0].physicalLocation.artifactLocation.uri).toBe('mcp.json');
  });

  it('reports the server that failed to start as an error notification and an unsuccessful run', () => {
    const invocation = log.runs[0].invocations[0];
    expect(invocation.executionSuccessful).toBe(false);
    expect(invocation.toolExecutionNotifications[0].message.text).toContain('broken: failed to start');
  });
});

describe('formatJson', () => {
  it('reports every server, the failed one with its error, and totals', () => {
    const doc = JSON.parse(formatJson(reports));
    expect(doc.servers.map((s: { server: string; status: string }) => [s.server, s.status])).toEqual([
      ['files', 'ok'],
      ['broken', 'failed'],
      ['clean', 'ok'],
    ]);
    expect(doc.servers[1].error).toContain('command not found');
    expect(doc.summary).toMatchObject({ servers: 3, failedServers: 1, errors: result.errorCount, suppressed: 1 });
  });
});

describe('formatPretty', () => {
  it('groups by server and tool, without colour unless asked', () => {
    const text = formatPretty(reports);
    expect(text).not.toContain('\u001b[');
    expect(text).toContain('files  2 tools');
    expect(text).toMatch(/\n {2}delete_file\n {4}error {4}Claims destructiveHint: false/);
    expect(text).toContain('broken  ✖ failed to start');
    expect(text).toContain('clean  0 tools');
    expect(text).toContain('✔ no problems');
    expect(text).toContain('(1 failed to start)');
  });

  it('uses ANSI colours when asked', () => {
    expect(formatPretty(reports, { color: true })).toContain('\u001b[31m');
  });
});

describe('exitCode', () => {
  const clean = [reports[2]!];
  it('is 1 when errors remain or a server failed, 0 otherwise', () => {
    expect(exitCode(summarise(reports))).toBe(1);
    expect(exitCode(summarise([reports[1]!]))).toBe(1);
    expect(exitCode(summarise(clean))).toBe(0);
  });

  it('is 1 when warnings exceed --max-warnings, like eslint', () => {
    const warnOnly: ServerReport[] = [
      { ...reports[2]!, result: lint([{ name: 'x', description: 'Does x.', inputSchema: schema }]) } as ServerReport,
    ];
    const s = summarise(warnOnly);
    expect(s.errors).toBe(0);
    expect(s.warnings).toBeGreaterThan(0);
    expect(exitCode(s)).toBe(0);
    expect(exitCode(s, { maxWarnings: s.warnings })).toBe(0);
    expect(exitCode(s, { maxWarnings: s.warnings - 1 })).toBe(1);
  });
});
