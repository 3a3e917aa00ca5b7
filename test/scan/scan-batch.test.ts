/**
 * `candor scan --list` over the real CLI: servers scanned two at a time into an
 * output folder with one report per server and an index, then the batch resumed
 * with a longer list (finished servers skipped), then forced.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, type ServeProcess, startServe } from '../support/cli-harness.js';

const fixture = path.join(import.meta.dirname, '../fixtures/observe/server.mjs');

let served: ServeProcess;
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  served = await startServe(['--example', 'workspace']);
  dir = await mkdtemp(path.join(tmpdir(), 'candor-scan-batch-'));
  await writeFile(
    path.join(dir, 'mcp.json'),
    JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [fixture] } } }),
  );
  await writeFile(
    path.join(dir, 'remote.server.json'),
    JSON.stringify({
      name: 'dev.candor.test/workspace',
      description: 'The workspace example, served on loopback.',
      version: '1.0.0',
      remotes: [{ type: 'streamable-http', url: served.url }],
    }),
  );
}, 300_000);

afterAll(async () => {
  await served?.stop();
});

type Entry = { target: string; slug: string; verdict: string; tools?: number; exercised?: number; error?: string };
const index = async (out: string): Promise<Entry[]> => JSON.parse(await readFile(path.join(out, 'index.json'), 'utf8'));

describe('candor scan --list', () => {
  it('writes a report per server and an index, and a resumed batch skips the servers already finished', async () => {
    const out = path.join(dir, 'out');
    await writeFile(path.join(dir, 'first.txt'), `# the first half\n${served.url}\n`);
    const first = await runCli(['scan', '--list', path.join(dir, 'first.txt'), '--out', out, '--skip', 'hang']);
    // A remote server is only listed (observe cannot sandbox it): nothing ran, so it is not verified (exit 3).
    expect(first.code).toBe(3);
    const [remote] = await index(out);
    expect(remote).toMatchObject({ target: served.url, verdict: 'not verified', exercised: 0 });
    const reportFile = path.join(out, `${remote!.slug}.json`);
    const firstReport = JSON.parse(await readFile(reportFile, 'utf8'));
    expect(firstReport.remote.url).toBe(served.url);
    expect(await readFile(path.join(out, `${remote!.slug}.html`), 'utf8')).toContain('data-verdict="not verified"');

    // The whole list, as a JSON array, two at a time: the finished server is not scanned again.
    await writeFile(
      path.join(dir, 'all.json'),
      JSON.stringify([served.url, 'mcp.json#fixture', 'http://127.0.0.1:1/mcp', './remote.server.json']),
    );
    const resumed = await runCli(
      [
        'scan',
        '--list',
        path.join(dir, 'all.json'),
        '--out',
        out,
        '--jobs',
        '2',
        '--skip',
        'hang',
        '--allow-private-network',
      ],
      { timeoutMs: 170_000 },
    );
    expect(resumed.stderr).toContain(`${served.url}: finished before, skipped`);
    expect(resumed.code).toBe(2);
    expect(JSON.parse(await readFile(reportFile, 'utf8')).date).toBe(firstReport.date);
    const entries = await index(out);
    expect(entries.map((e) => e.verdict)).toEqual(['not verified', 'contradictions', 'could not scan', 'not verified']);
    // a server.json target also gets a copy of its file carrying the verdict
    const copy = JSON.parse(await readFile(path.join(out, `${entries[3]!.slug}.server.json`), 'utf8'));
    expect(copy._meta['dev.candor/scan']).toMatchObject({ verdict: 'not verified', entry: 'remotes[0]' });
    expect(entries[1]!.target).toBe(path.join(dir, 'mcp.json#fixture'));
    expect(entries[2]!.error).toContain('http://127.0.0.1:1/mcp');
    const markdown = await readFile(path.join(out, 'index.md'), 'utf8');
    expect(markdown).toContain(`(${entries[1]!.slug}.md)`);
    expect(await readFile(path.join(out, `${entries[1]!.slug}.md`), 'utf8')).toMatch(
      /\| get_status \|.*\| contradicts \|/,
    );
    expect(await readFile(path.join(out, 'index.html'), 'utf8')).toContain(`href="${entries[1]!.slug}.html"`);
    expect(resumed.stdout).toContain('| Server | Version | Tools |');

    const forced = await runCli(['scan', '--list', path.join(dir, 'first.txt'), '--out', out, '--force']);
    expect(forced.code).toBe(3);
    expect(forced.stderr).not.toContain('skipped');
    expect(JSON.parse(await readFile(reportFile, 'utf8')).date).not.toBe(firstReport.date);
  }, 180_000);

  it('refuses a list without --out, and a list whose JSON entries are not targets', async () => {
    await writeFile(path.join(dir, 'bad.json'), JSON.stringify(['a', 3]));
    const noOut = await runCli(['scan', '--list', path.join(dir, 'bad.json')]);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toContain('--list needs --out');
    const bad = await runCli(['scan', '--list', path.join(dir, 'bad.json'), '--out', path.join(dir, 'x')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('$[1]: each entry must be a target string');
  });
});
