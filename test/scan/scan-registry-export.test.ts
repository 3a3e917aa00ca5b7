/**
 * `candor scan --list` of an MCP Registry export over the real CLI: the API's
 * `{ servers: [{ server, _meta }] }` answer becomes one server.json per entry, each
 * scanned and indexed; an entry the registry marks deleted is left out and named,
 * and an entry that is not a valid server.json is "could not scan" with its reason.
 */
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, type ServeProcess, startServe } from '../support/cli-harness.js';

let served: ServeProcess;
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  served = await startServe(['--example', 'workspace']);
  dir = await mkdtemp(path.join(tmpdir(), 'candor-scan-registry-'));
}, 300_000);

afterAll(async () => {
  await served?.stop();
});

const official = (status: string) => ({
  'io.modelcontextprotocol.registry/official': { status, isLatest: true, publishedAt: '2026-11-01T00:00:00Z' },
});

describe('candor scan --list <registry export>', () => {
  it('scans every entry of the export, leaves out deleted ones by name, and indexes them in order', async () => {
    const server = (name: string) => ({
      name,
      description: 'The workspace example, served on loopback.',
      version: '1.0.0',
      remotes: [{ type: 'streamable-http', url: served.url }],
    });
    const exportFile = path.join(dir, 'allow-list.json');
    await writeFile(
      exportFile,
      JSON.stringify({
        servers: [
          { server: server('dev.candor.test/workspace'), _meta: official('active') },
          { server: server('dev.candor.test/retired'), _meta: official('deleted') },
          { server: { name: 'dev.candor.test/broken', description: 'No version.' }, _meta: official('active') },
        ],
        metadata: { count: 3 },
      }),
    );
    const out = path.join(dir, 'out');
    const run = await runCli(
      ['scan', '--list', exportFile, '--out', out, '--allow-private-network', '--skip', 'hang'],
      {
        timeoutMs: 170_000,
      },
    );
    expect(run.stderr).toContain('left out dev.candor.test/retired@1.0.0: deleted in the registry');
    const entries = JSON.parse(await readFile(path.join(out, 'index.json'), 'utf8')) as Array<{
      target: string;
      slug: string;
      verdict: string;
      error?: string;
    }>;
    // A remote server's tools are linted, never run in the sandbox: not verified, and said so.
    expect(entries.map((e) => e.verdict)).toEqual(['not verified', 'could not scan']);
    expect(path.basename(entries[0]!.target)).toBe('0000-dev.candor.test-workspace@1.0.0.server.json');
    expect(entries[1]!.error).toMatch(/version/);
    // the written server.json is the entry's server object, and the batch's copy carries the verdict
    expect(JSON.parse(await readFile(entries[0]!.target, 'utf8'))).toEqual(server('dev.candor.test/workspace'));
    const copy = JSON.parse(await readFile(path.join(out, `${entries[0]!.slug}.server.json`), 'utf8'));
    expect(copy._meta['dev.candor/scan']).toMatchObject({ verdict: 'not verified' });
    expect((await readdir(path.join(out, 'server-json'))).sort()).toEqual([
      '0000-dev.candor.test-workspace@1.0.0.server.json',
      '0002-dev.candor.test-broken.server.json',
    ]);
    expect(run.code).toBe(2);
  }, 180_000);

  it('names an export given as a single target and says how to scan it', async () => {
    const file = path.join(dir, 'export.json');
    await writeFile(file, JSON.stringify([{ name: 'dev.candor.test/a', version: '1.0.0', packages: [] }]));
    const run = await runCli(['scan', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `is an MCP Registry export (a list of servers): scan it with --list ${file} --out <dir>`,
    );
  });

  it('refuses an export whose every entry is deleted, and a JSON object that is neither an export nor a list', async () => {
    const gone = path.join(dir, 'gone.json');
    await writeFile(
      gone,
      JSON.stringify({ servers: [{ server: { name: 'a/b', version: '1' }, _meta: official('deleted') }] }),
    );
    const none = await runCli(['scan', '--list', gone, '--out', path.join(dir, 'gone-out')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('the registry export has no server left to scan (a/b@1: deleted in the registry)');
    const config = path.join(dir, 'config.json');
    await writeFile(config, JSON.stringify({ mcpServers: {} }));
    const wrong = await runCli(['scan', '--list', config, '--out', path.join(dir, 'config-out')]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('a JSON list must be an array of targets or a registry export');
  });
});
