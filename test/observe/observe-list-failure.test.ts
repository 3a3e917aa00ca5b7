/**
 * A server that starts but fails its tools/list: the error names the request,
 * says the server answered it with an error (and which), and ends with the
 * server's own stderr, instead of a bare "fetch failed". Exit 2: nothing was observed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../support/cli-harness.js';

const fixture = path.join(import.meta.dirname, '../fixtures/observe/list-fails.mjs');
let workdir: string;

beforeAll(() => {
  ensureBuilt();
  workdir = mkdtempSync(path.join(tmpdir(), 'candor-observe-list-fails-'));
});

afterAll(() => rmSync(workdir, { recursive: true, force: true }));

describe('observe: a tools/list that fails', () => {
  it('names the request, the server’s JSON-RPC error and its stderr, and exits 2', async () => {
    const run = await runCli(['observe', '--', process.execPath, fixture], { cwd: workdir, timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain("tools/list failed: fetch failed (the server's JSON-RPC error -32603).");
    expect(run.stderr).toMatch(
      /The server's last stderr lines:\n\s+could not load the tools: connect ECONNREFUSED 127\.0\.0\.1:\d+/,
    );
  }, 90_000);
});
