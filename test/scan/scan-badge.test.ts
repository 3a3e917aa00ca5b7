/**
 * `candor scan --badge` over the real CLI: the SVG says the verdict the report says
 * (a lying server: contradictions), and a server that could not be scanned gets a
 * badge that says so rather than none.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../support/cli-harness.js';

const fixture = path.join(import.meta.dirname, '../fixtures/observe/server.mjs');
let dir: string;

beforeAll(async () => {
  ensureBuilt();
  dir = await mkdtemp(path.join(tmpdir(), 'candor-scan-badge-'));
}, 300_000);

describe('candor scan --badge', () => {
  it("writes the verdict of a lying server's scan as its badge", async () => {
    const badge = path.join(dir, 'lying.svg');
    const run = await runCli(['scan', '--badge', badge, '--skip', 'hang', '--', process.execPath, fixture], {
      timeoutMs: 170_000,
    });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain(`wrote the badge to ${badge}`);
    const svg = await readFile(badge, 'utf8');
    expect(svg).toContain('aria-label="candor: contradictions"');
    expect(svg).toContain('fill="#c62828"');
  }, 180_000);

  it('writes a "could not scan" badge when the server cannot be reached', async () => {
    const badge = path.join(dir, 'unreachable.svg');
    const run = await runCli(['scan', 'http://127.0.0.1:1/mcp', '--badge', badge]);
    expect(run.code).toBe(2);
    expect(await readFile(badge, 'utf8')).toContain('aria-label="candor: could not scan"');
  });

  it('names a badge file it cannot write', async () => {
    const run = await runCli(['scan', 'http://127.0.0.1:1/mcp', '--badge', path.join(dir, 'no/such/folder/b.svg')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('cannot write the badge (ENOENT)');
  });
});
