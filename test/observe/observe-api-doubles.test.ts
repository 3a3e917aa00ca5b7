/**
 * `candor observe --service https-api=HOST` and `--service page` over the real CLI, in
 * the real sandbox: a server on the official SDK reaches https://api.example-saas.test
 * through the bridge's route on 443 and TLS verified against the run's CA, a browser
 * server (Debian Chromium through playwright-core) opens candor's local page, and the
 * tools that lie about their hints are caught while their honest twins get no finding.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObserveReport } from '../../src/observe/index.js';
import { ensureBuilt, runCli } from '../support/cli-harness.js';

const saas = path.join(import.meta.dirname, '../fixtures/observe/saas-server.mjs');
const browser = path.join(import.meta.dirname, '../fixtures/observe/browser-server.mjs');
const HOST = 'api.example-saas.test';
let workdir: string;

beforeAll(() => {
  ensureBuilt();
  workdir = mkdtempSync(path.join(tmpdir(), 'candor-observe-api-'));
});
afterAll(() => rmSync(workdir, { recursive: true, force: true }));

async function observeWith(flags: string[], fixture: string): Promise<{ code: number | null; report: ObserveReport }> {
  const run = await runCli(['observe', ...flags, '--format', 'json', '--', process.execPath, fixture], {
    cwd: workdir,
    timeoutMs: 180_000,
  });
  if (!run.stdout.trim()) throw new Error(`no report (exit ${run.code}):\n${run.stderr}`);
  return { code: run.code, report: JSON.parse(run.stdout) as ObserveReport };
}

const toolOf = (report: ObserveReport, name: string) => {
  const seen = report.tools.find((t) => t.name === name);
  if (!seen) throw new Error(`${name} was not listed`);
  if (seen.notExercised) throw new Error(`${name} was not exercised: ${seen.notExercised}`);
  return seen;
};
const rulesOf = (report: ObserveReport, name: string) => toolOf(report, name).findings.map((f) => f.ruleId);

describe('observe --service https-api', () => {
  let code: number | null;
  let report: ObserveReport;
  beforeAll(async () => {
    ({ code, report } = await observeWith(['--service', `https-api=${HOST}`], saas));
  }, 180_000);

  it('exercises every tool over verified TLS and exits 1 for the lies', () => {
    expect(code).toBe(1);
    expect(report.tools.filter((t) => t.notExercised).map((t) => [t.name, t.notExercised])).toEqual([]);
    // Each tool answers the double's status first: a 200 or 201 is an answer over the trusted route.
    for (const tool of report.tools) expect(tool.calls[0]!.answer, tool.name).toMatch(/^20[01] /);
  });

  it('catches a read-only tool that PATCHes the API', () => {
    expect(rulesOf(report, 'get_project')).toEqual(['observe/read-only-sent-write']);
    expect(toolOf(report, 'get_project').findings[0]!.evidence).toEqual([
      `sent PATCH https://${HOST}/v1/projects/1 (a write)`,
    ]);
    expect(toolOf(report, 'get_project').effects).toContain('API write');
  });

  it('catches a "list" tool that runs a GraphQL mutation', () => {
    expect(rulesOf(report, 'list_items')).toEqual(['observe/read-only-sent-write']);
    expect(toolOf(report, 'list_items').findings[0]!.evidence).toEqual([
      `sent POST https://${HOST}/graphql (a GraphQL mutation)`,
    ]);
  });

  it('catches an openWorldHint: false tool that calls the API', () => {
    expect(rulesOf(report, 'count_local')).toEqual(['observe/closed-world-requested']);
  });

  it('gives the honest twins no finding: a GET, a GraphQL query, a search by POST, a writer that writes', () => {
    for (const name of ['get_project_honest', 'list_items_honest', 'search_items', 'create_item']) {
      expect(rulesOf(report, name), name).toEqual([]);
    }
    expect(toolOf(report, 'get_project_honest').effects).toEqual(['API read']);
    expect(toolOf(report, 'create_item').effects).toContain('API write');
  });

  it('keeps no credential in the report', () => {
    const text = JSON.stringify(report);
    for (const secret of ['sk_live_fixture_secret_4f9a2b7c', 'qs_fixture_secret_8d1e']) {
      expect(text).not.toContain(secret);
    }
  });

  it('scans with the double too: candor scan --service https-api=HOST', async () => {
    const run = await runCli(
      ['scan', '--service', `https-api=${HOST}`, '--format', 'json', '--', process.execPath, saas],
      { cwd: workdir, timeoutMs: 180_000 },
    );
    const scanned = JSON.parse(run.stdout) as {
      verdict: string;
      tools: Array<{ name: string; verdict: string }>;
      observe: { findings: Array<{ tool?: string; ruleId: string }> };
    };
    expect(run.code).toBe(1);
    expect(scanned.verdict).toBe('contradictions');
    expect(scanned.tools.find((t) => t.name === 'get_project_honest')!.verdict).toBe('consistent');
    expect(
      scanned.observe.findings
        .filter((f) => f.ruleId.startsWith('observe/'))
        .map((f) => [f.tool, f.ruleId])
        .sort(),
    ).toEqual([
      ['count_local', 'observe/closed-world-requested'],
      ['get_project', 'observe/read-only-sent-write'],
      ['list_items', 'observe/read-only-sent-write'],
    ]);
  }, 240_000);

  it('refuses https-api without a host name, or with an address (exit 2)', async () => {
    for (const flag of ['https-api', 'https-api=10.0.0.1']) {
      const run = await runCli(['observe', '--service', flag, '--', process.execPath, saas], { cwd: workdir });
      expect(run.code, flag).toBe(2);
      expect(run.stderr).toContain(`after "https-api=" come the API's host names`);
    }
  });
});

describe('observe --service page', () => {
  let code: number | null;
  let report: ObserveReport;
  beforeAll(async () => {
    ({ code, report } = await observeWith(['--service', 'page'], browser));
  }, 240_000);

  it("hands a tool's url property the page's address and catches a read-only tool that submits the order form", () => {
    expect(code).toBe(1);
    const read = toolOf(report, 'read_table');
    expect(String(read.calls[0]!.args.url)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(read.calls[0]!.answer).toContain('Blue notebook');
    expect(rulesOf(report, 'fill_form')).toEqual(['observe/read-only-sent-write']);
    expect(toolOf(report, 'fill_form').findings[0]!.evidence).toEqual([
      "submitted a form: POST /order on candor's local page",
    ]);
  });

  it('gives the reading tools and the tool that says it writes no finding', () => {
    for (const name of ['read_table', 'search', 'place_order']) expect(rulesOf(report, name), name).toEqual([]);
  });
});
