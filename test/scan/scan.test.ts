/**
 * `candor scan` over the real CLI: a package installed from the npm registry by
 * npm in the sandbox, a package that does not exist, a command target with lying
 * tools, and the HTML card opened in Chromium.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../support/cli-harness.js';

const fixture = path.join(import.meta.dirname, '../fixtures/observe/server.mjs');
const MEMORY = '@modelcontextprotocol/server-memory@2026.8.31';

beforeAll(() => {
  ensureBuilt();
}, 300_000);

describe('candor scan', () => {
  it('installs a real npm package in the sandbox, reports its version and integrity, and leaves no install folder', async () => {
    const before = await readdir(path.join(homedir(), '.cache', 'candor', 'scan')).catch(() => []);
    const run = await runCli(['scan', MEMORY, '--format', 'json'], { timeoutMs: 170_000 });
    expect(run.stderr).toContain(`installed ${MEMORY}`);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.package).toMatchObject({ name: '@modelcontextprotocol/server-memory', version: '2026.8.31' });
    expect(report.package.integrity).toMatch(/^sha512-/);
    // Without MEMORY_FILE_PATH the writers fail (EROFS beside their own code): consistent only where exercised.
    expect(report).toMatchObject({
      verdict: 'partial',
      label: 'consistent (3 of 9 exercised)',
      exercised: 3,
      total: 9,
    });
    expect(report.reasons.find((r: { tool: string }) => r.tool === 'create_entities').reason).toContain('EROFS');
    const read = report.tools.find((t: { name: string }) => t.name === 'read_graph');
    expect(read).toMatchObject({ verdict: 'consistent', declared: { readOnlyHint: true } });
    expect(read.pin).toMatch(/^sha256:/);
    expect(await readdir(path.join(homedir(), '.cache', 'candor', 'scan'))).toEqual(before);
  }, 180_000);

  it('exits 2 with npm’s own message for a package that does not exist', async () => {
    const run = await runCli(['scan', '@candor-scan-test/no-such-package-3f9c2'], { timeoutMs: 170_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('could not install @candor-scan-test/no-such-package-3f9c2');
    expect(run.stderr).toMatch(/E404|404 Not Found/);
  }, 180_000);

  it('exits 1 when a command’s tools contradict their hints, with the evidence in the Markdown report', async () => {
    const run = await runCli(['scan', '--skip', 'hang', '--format', 'markdown', '--', process.execPath, fixture], {
      timeoutMs: 170_000,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/\| get_status \| readOnly=true .*\| contradicts \|/);
    expect(run.stdout).toContain('observe/');
  }, 180_000);

  it('writes an HTML card that Chromium renders with a row per tool and the verdict', async () => {
    const run = await runCli(['scan', '--skip', 'hang', '--format', 'html', '--', process.execPath, fixture], {
      timeoutMs: 170_000,
    });
    expect(run.code).toBe(1);
    const file = path.join(tmpdir(), `candor-scan-card-${process.pid}.html`);
    await writeFile(file, run.stdout);
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(pathToFileURL(file).href);
      expect(await page.getAttribute('#verdict', 'data-verdict')).toBe('contradictions');
      const status = page.locator('tr', { hasText: 'get_status' });
      expect(await status.locator('td').nth(3).textContent()).toBe('contradicts');
      expect(await page.locator('tbody tr').count()).toBeGreaterThan(3);
    } finally {
      await browser.close();
    }
  }, 180_000);
});
