/**
 * Review in the console, in real Chromium: `candor ui --config … --lock …`
 * lists the servers a gateway would quarantine with the scan at the door's findings;
 * Approve asks in the console's confirmation dialog (deny writes nothing) and pins
 * through the same code as `candor pin`. Also: a risky "yes" reads as a warning, a
 * tool's detail opens under its row, and hint sources and lint counts are words.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../support/cli-harness.js';
import { ensureUiBuilt, type OpenConsole, openConsole } from '../support/ui-support.js';

const door = path.join(REPO, 'test/fixtures/sandbox/door-server.mjs');
const probe = path.join(REPO, 'test/fixtures/sandbox/probe-server.mjs');
let dir: string;
let lock: string;
let opened: OpenConsole | undefined;
let page: Page;

beforeAll(async () => {
  ensureUiBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'candor-ui-review-'));
  lock = path.join(dir, 'candor.lock.json');
  const config = path.join(dir, 'candor.gateway.json');
  const entry = (kind: string) => ({ command: process.execPath, args: [door], env: { DOOR_SERVER: kind } });
  writeFileSync(
    config,
    JSON.stringify({
      servers: { notes: entry('clean'), shady: entry('poisoned'), probe: { command: process.execPath, args: [probe] } },
    }),
  );
  opened = await openConsole(['--config', config, '--lock', lock]);
  page = opened.page;
}, 60_000);

afterAll(async () => {
  await opened?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const lockfile = () =>
  existsSync(lock)
    ? (JSON.parse(readFileSync(lock, 'utf8')) as {
        servers: Record<string, { tools: Record<string, { accepted?: string[] }> }>;
      })
    : undefined;

describe('candor ui review', () => {
  it('lists the quarantined servers with the findings of the scan at the door', async () => {
    await page.waitForSelector('[data-review="shady"]');
    expect(await page.locator('[data-review]').evaluateAll((a) => a.map((e) => e.getAttribute('data-review')))).toEqual(
      ['notes', 'probe', 'shady'],
    );
    const shady = (await page.locator('[data-review="shady"]').textContent()) ?? '';
    expect(shady).toContain('quarantined: not pinned yet');
    expect(shady).toMatch(/error description-steering: lookup: description contains an instruction override/);
    expect(shady).toMatch(/error hidden-unicode: weather: description contains/);
    expect(await page.locator('[data-review="notes"] [data-action="approve"]').textContent()).toBe('Approve');
  }, 60_000);

  it('approves only after yes in the confirmation dialog, pinning as candor pin does', async () => {
    const dialog = page.locator('dialog[data-dialog="confirm"]');
    await page.click('[data-review="notes"] [data-action="approve"]');
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.textContent()).toContain('Approve notes: pin 2 tools');
    await dialog.locator('[data-answer="deny"]').click();
    await expect
      .poll(() => page.locator('[data-review="notes"] .review-status').textContent())
      .toContain('Not approved');
    expect(lockfile()).toBeUndefined();

    await page.click('[data-review="notes"] [data-action="approve"]');
    await dialog.waitFor({ state: 'visible' });
    await dialog.locator('[data-answer="allow"]').click();
    await expect.poll(() => lockfile()?.servers.notes !== undefined).toBe(true);
    expect(Object.keys(lockfile()!.servers.notes!.tools).sort()).toEqual(['list_notes', 'read_file']);
    await expect.poll(() => page.locator('[data-review="notes"]').count()).toBe(0);

    // Now that notes is approved, shady's read_file shadows it; Approve says what it accepts.
    await expect
      .poll(() => page.locator('[data-review="shady"] [data-action="approve"]').textContent())
      .toBe('Approve, accepting description-steering, hidden-unicode, name-shadows-tool');
    await page.click('[data-review="shady"] [data-action="approve"]');
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.textContent()).toContain('accepting description-steering, hidden-unicode, name-shadows-tool');
    await dialog.locator('[data-answer="allow"]').click();
    await expect.poll(() => lockfile()?.servers.shady?.tools.lookup?.accepted).toEqual(['description-steering']);
    expect(lockfile()?.servers.shady?.tools.read_file?.accepted).toEqual(['name-shadows-tool']);
  }, 90_000);

  it('shows a risky yes in a warning colour, the detail under its row, and hint sources and lint in words', async () => {
    const color = (selector: string) => page.locator(selector).evaluate((cell) => getComputedStyle(cell).color);
    const readOnlyYes = await color('[data-tool="probe__read_file"] td:nth-child(3)');
    const destructiveYes = await color('[data-tool="probe__write_file"] td.hint.yes.risky');
    const openWorldYes = await color('[data-tool="probe__connect"] td.hint.yes.risky');
    expect(destructiveYes).not.toBe(readOnlyYes);
    expect(openWorldYes).toBe(destructiveYes);

    await page.click('[data-tool="probe__read_file"] td:first-child');
    await page.waitForSelector('tr.detail-row [data-detail="probe__read_file"]');
    const next = await page
      .locator('[data-tool="probe__read_file"]')
      .evaluate((row) => row.nextElementSibling?.querySelector('[data-detail]')?.getAttribute('data-detail'));
    expect(next).toBe('probe__read_file');
    const detail = (await page.locator('[data-detail="probe__read_file"]').textContent()) ?? '';
    expect(detail).toContain('Where each hint comes from: read-only: stated by the server;');

    expect(await page.locator('#tools thead th').allTextContents()).toContain('Lint findings');
    const lintCell = await page.locator('[data-tool="probe__read_file"] td.lint').textContent();
    expect(lintCell).toMatch(/^(none|\d+ (error|warning|note)s?(, \d+ (warning|note)s?)*)$/);
  }, 60_000);
});
