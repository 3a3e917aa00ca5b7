/**
 * `candor ui` with a module target: progress and the server's log
 * lines stream into the page while a call runs, and `--trust` lets a trusted
 * read run without a prompt. Also the command line: `--help`, `--policy FILE`
 * and clear errors for bad input.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotesTools, NoteStore } from '../../examples/notes-app/index.js';
import { pinTools, writeLockfile } from '../../src/host/pins/lockfile.js';
import { REPO, runCli } from '../support/cli-harness.js';
import { ensureUiBuilt, launchChromium, startUi, type UiProcess } from '../support/ui-support.js';

const steps = path.join(REPO, 'test', 'fixtures', 'ui', 'steps.ts');
let dir: string;
let ui: UiProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ensureUiBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'candor-ui-stream-'));
  const policy = path.join(dir, 'policy.json');
  writeFileSync(policy, JSON.stringify({ preset: 'default', rules: [{ decision: 'deny', tools: 'notes__*' }] }));
  // A lockfile in which list_notes was pinned with another description: the console shows the drift.
  const wire = createNotesTools(new NoteStore()).map((tool) => ({ ...tool.wire }));
  const pinned = wire.map((tool) => (tool.name === 'list_notes' ? { ...tool, description: 'List notes.' } : tool));
  const lock = path.join(dir, 'candor.lock.json');
  await writeLockfile(lock, { lockfileVersion: 1, servers: { notes: pinTools(pinned as never) } });
  [ui, browser] = await Promise.all([
    startUi([
      steps,
      'http://127.0.0.1:9/mcp',
      '--example',
      'notes-app',
      '--trust',
      'steps',
      '--policy',
      policy,
      '--lock',
      lock,
    ]),
    launchChromium(),
  ]);
  page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  await page.goto(ui.url);
  await page.waitForSelector('body[data-ready="true"]');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await ui?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('candor ui streams', () => {
  it('shows progress and log lines while the call runs, then the result', async () => {
    await page.click('[data-tool="steps__count_steps"] [data-action="call"]');
    await page.fill('[data-detail="steps__count_steps"] input[name="n"]', '4');
    await page.click('[data-detail="steps__count_steps"] [data-action="call"]');
    const result = page.locator('[data-result="steps__count_steps"]').first();
    await expect.poll(() => result.locator('.progress').textContent(), { timeout: 5_000 }).toMatch(/\d\/4 step \d/);
    await expect.poll(() => result.getAttribute('data-status'), { timeout: 5_000 }).toBe('ok');
    expect(await result.locator('.structured pre').textContent()).toContain('"counted": 4');
    const logs = await page.locator('#server-logs').textContent();
    expect(logs).toContain('steps info: step 1 of 4');
    expect(logs).toContain('step 4 of 4');
  });

  it('applies the --policy file: its deny rule refuses the notes tools without asking', async () => {
    await page.click('[data-tool="notes__list_notes"] [data-action="call"]');
    const result = page.locator('[data-result="notes__list_notes"]').first();
    await expect.poll(() => result.getAttribute('data-status')).toBe('denied');
    expect(await page.locator('iframe[data-view]').count()).toBe(0);
  });
});

describe('candor ui servers', () => {
  it('shows a server it cannot reach as failed, with the reason, next to the others', async () => {
    const card = page.locator('.server[data-server="127.0.0.1-9"]');
    expect(await card.textContent()).toMatch(/failed/);
    expect(await card.locator('.error').textContent()).toContain(
      'fetch refuses port 9 (a port browsers block for safety). Serve MCP on another port.',
    );
    expect(await page.locator('.server[data-server="steps"]').textContent()).toContain('connected');
  });
});

describe('candor ui pins', () => {
  it('shows pin state per tool, and the changed fields of a tool that drifted', async () => {
    expect(await page.locator('[data-tool="notes__list_notes"] td.pin').textContent()).toBe('changed');
    expect(await page.locator('[data-tool="notes__add_note"] td.pin').textContent()).toBe('pinned');
    expect(await page.locator('[data-tool="steps__count_steps"] td.pin').textContent()).toBe('unpinned');
    await page.click('[data-tool="notes__list_notes"]');
    const diff = await page.locator('[data-detail="notes__list_notes"] .pin-diff').textContent();
    expect(diff).toContain('description "List notes." →');
  });
});

describe('candor ui command line', () => {
  it('documents itself in --help', async () => {
    const { code, stdout } = await runCli(['ui', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--port <n>');
    expect(stdout).toContain('--policy <preset|file>');
  });

  it('refuses bad input with one clear line', async () => {
    const port = await runCli(['ui', '--port', 'abc']);
    expect(port.code).not.toBe(0);
    expect(port.stderr).toContain('must be a port number');
    const example = await runCli(['ui', '--example', 'nope']);
    expect(example.code).not.toBe(0);
    expect(example.stderr).toContain('There is no example named "nope"');
    const policy = await runCli(['ui', '--policy', path.join(dir, 'missing.json')]);
    expect(policy.code).not.toBe(0);
    expect(policy.stderr).toContain('not a preset');
    const trust = await runCli(['ui', '--example', 'notes-app', '--trust', 'other']);
    expect(trust.code).not.toBe(0);
    expect(trust.stderr).toContain('--trust other: no server of that name');
  });
});
