/**
 * A list names the doubles each server needs, over the real CLI with the real
 * PostgreSQL from Debian: a list line's own `--service` starts the seeded database
 * beside that server only (its lying tool is caught through the witness, while the
 * same server listed without the option reaches no database), and a server.json's
 * `_meta["dev.candor/services"]` does the same for the reference PostgreSQL server
 * installed from npm, whose `{postgres}` argument becomes the double's URL.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../support/cli-harness.js';

const fixture = path.join(import.meta.dirname, '../fixtures/observe/db-server.mjs');

type Entry = { target: string; slug: string; verdict: string; exercised?: number; error?: string };
type Report = {
  tools: Array<{ name: string; verdict: string; reason?: string; calls?: Array<{ arguments: unknown; ok: boolean }> }>;
  observe: { findings: Array<{ tool?: string; ruleId: string; evidence?: string[] }> };
};

let dir: string;

beforeAll(async () => {
  ensureBuilt();
  dir = await mkdtemp(path.join(tmpdir(), 'candor-scan-list-services-'));
  const entry = { command: process.execPath, args: [fixture], env: { DB_KIND: 'postgres' } };
  await writeFile(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { pg: entry, plain: entry } }));
});

const read = async <T>(file: string): Promise<T> => JSON.parse(await readFile(file, 'utf8')) as T;

describe('candor scan --list with the doubles each server needs', () => {
  it("starts a line's own --service beside that server only", async () => {
    const list = path.join(dir, 'lines.txt');
    await writeFile(
      list,
      '# two servers, one with its database\nmcp.json#pg --service postgres=DATABASE_URL\nmcp.json#plain\n',
    );
    const out = path.join(dir, 'lines-out');
    const run = await runCli(['scan', '--list', list, '--out', out, '--jobs', '2'], { timeoutMs: 240_000 });
    const [withDb, without] = await read<Entry[]>(path.join(out, 'index.json'));
    expect(withDb!.target).toBe(`${path.join(dir, 'mcp.json#pg')} --service postgres=DATABASE_URL`);
    expect(withDb!.verdict).toBe('contradictions');
    const report = await read<Report>(path.join(out, `${withDb!.slug}.json`));
    const lie = report.observe.findings.find((f) => f.tool === 'list_orders');
    expect(lie).toMatchObject({
      ruleId: 'observe/read-only-db-write',
      evidence: ['postgres: inserted 1 row in public.notes'],
    });
    // Beside the finding, the report keeps the calls that showed it (what was sent, and that it did its work).
    const calls = report.tools.find((t) => t.name === 'list_orders')!.calls ?? [];
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.some((c) => c.ok && typeof c.arguments === 'object')).toBe(true);
    expect(report.tools.find((t) => t.name === 'list_customers')!.verdict).toBe('consistent');
    expect(report.tools.find((t) => t.name === 'list_customers')!.calls).toBeUndefined();
    // The same server without the option gets no database: none of its tools did its work.
    expect(without!.exercised).toBe(0);
    // The worst verdict of the list: a contradiction (1) outranks "not verified" (3).
    expect(run.code).toBe(1);
  }, 300_000);

  it('starts the doubles a server.json names in its _meta, filling {postgres} in its arguments', async () => {
    const file = path.join(dir, 'postgres.server.json');
    await writeFile(
      file,
      JSON.stringify({
        name: 'io.github.modelcontextprotocol/server-postgres',
        description: 'PostgreSQL, pointed at the seeded double.',
        version: '0.6.2',
        packages: [
          {
            registryType: 'npm',
            identifier: '@modelcontextprotocol/server-postgres',
            version: '0.6.2',
            transport: { type: 'stdio' },
            packageArguments: [{ type: 'positional', value: '{postgres}' }],
          },
        ],
        _meta: { 'dev.candor/services': ['postgres'] },
      }),
    );
    await writeFile(path.join(dir, 'json.txt'), 'postgres.server.json\n');
    const out = path.join(dir, 'json-out');
    const run = await runCli(['scan', '--list', path.join(dir, 'json.txt'), '--out', out], { timeoutMs: 240_000 });
    const [entry] = await read<Entry[]>(path.join(out, 'index.json'));
    const report = await read<Report>(path.join(out, `${entry!.slug}.json`));
    // Its one tool runs a read-only query against the seeded database: exercised, and honest.
    expect(report.tools).toEqual([expect.objectContaining({ name: 'query', verdict: 'consistent' })]);
    expect(run.code).toBe(0);
  }, 300_000);

  it('refuses a list line with an option other than --service, or a double candor does not have, before scanning', async () => {
    await writeFile(path.join(dir, 'bad.txt'), 'mcp.json#pg --env A=b\n');
    const bad = await runCli(['scan', '--list', path.join(dir, 'bad.txt'), '--out', path.join(dir, 'bad-out')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('after the target a list line takes only --service KIND[=VALUE], not --env');
    await writeFile(path.join(dir, 'unknown.txt'), 'mcp.json#pg --service oracle\n');
    const unknown = await runCli(['scan', '--list', path.join(dir, 'unknown.txt'), '--out', path.join(dir, 'u-out')]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no double named "oracle"');
  });
});
