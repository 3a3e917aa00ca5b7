/**
 * `candor audit` over a real audit log: a gateway in front of the
 * candor fixture upstream writes one line per call (an SDK v2 client calls an
 * allowed read twice and a write that needs a confirmation it cannot give), then the built CLI filters it by
 * decision, tool glob, server and age, as a table and as JSON lines.
 */
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createGateway } from '../../src/gateway/index.js';
import { ensureBuilt, REPO, runCli } from '../support/cli-harness.js';

const fixture = path.join(REPO, 'test/fixtures/gateway/upstream.mjs');
const silent = { error() {}, warn() {}, info() {}, debug() {} };
let dir: string;
let log: string;

beforeAll(async () => {
  ensureBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'candor-audit-'));
  log = path.join(dir, 'audit.jsonl');
  const gateway = await createGateway({
    logger: silent,
    servers: { notes: { command: process.execPath, args: [fixture], trust: 'trusted' } },
    policy: 'confirm-writes',
    audit: log,
  });
  const listener = await gateway.listen({ port: 0, handleSignals: false });
  const client = new Client({ name: 'audit', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
  await client.callTool({ name: 'notes__read_notes', arguments: {} });
  await client.callTool({ name: 'notes__read_notes', arguments: {} });
  // A write needs a confirmation this client cannot give (no elicitation): asked, not run.
  const asked = await client.callTool({ name: 'notes__delete_notes', arguments: {} });
  expect(asked.isError).toBe(true);
  await client.close();
  await listener.close();
  await gateway.close();
  // An old entry and a torn line, as a log that lived through a crash has.
  appendFileSync(
    log,
    `${JSON.stringify({ time: '2020-01-01T00:00:00.000Z', tool: 'notes__read_notes', server: 'notes', decision: 'allow', decidedBy: 'preset:yolo', pin: 'unpinned', durationMs: 1, outcome: 'ok', args: { sha256: 'x', keys: [] } })}\n{"time": "2026-`,
  );
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('candor audit', () => {
  test('filters by decision and prints a table', async () => {
    const run = await runCli(['audit', log, '--decision', 'ask']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/TIME\s+PRINCIPAL\s+TOOL\s+DECISION\s+BY\s+OUTCOME\s+TOOK/);
    expect(run.stdout).toMatch(/notes__delete_notes\s+ask\s+no-elicitation\s+denied/);
    expect(run.stdout).not.toContain('notes__read_notes');
    expect(run.stdout).toContain('1 call(s)');
    expect(run.stderr).toContain('skipped 1 line(s)');
  });

  test('--json, --tool glob, --server and --since', async () => {
    const all = await runCli(['audit', log, '--tool', 'notes__read_*', '--server', 'notes', '--json']);
    const entries = all.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { tool: string; time: string });
    expect(entries.map((e) => e.tool)).toEqual(['notes__read_notes', 'notes__read_notes', 'notes__read_notes']);
    const recent = await runCli(['audit', log, '--tool', 'notes__read_*', '--since', '1h', '--json']);
    expect(recent.stdout.trim().split('\n')).toHaveLength(2);
    const none = await runCli(['audit', log, '--server', 'other']);
    expect(none.stdout).toBe('No matching calls.\n');
  });

  test('bad input is refused clearly', async () => {
    const since = await runCli(['audit', log, '--since', 'yesterday-ish']);
    expect(since.code).not.toBe(0);
    expect(since.stderr).toMatch(/--since yesterday-ish: expected a duration \(90s, 15m, 1h, 7d\) or an ISO time/);
    const missing = await runCli(['audit', path.join(dir, 'nope.jsonl')]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/Cannot read the audit log .*nope\.jsonl/);
  });
});
