/**
 * `candor ui` in a real browser: the console lists the tools of two
 * real servers (candor's workspace example and server-memory from npm) with
 * their hints, filters them with the registry's search semantics, and a
 * destructive call opens the host's dialog; deny leaves the file in place.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureUiBuilt, launchChromium, screenshotPath, startUi, type UiProcess } from '../support/ui-support.js';

const require = createRequire(import.meta.url);
const memory = require.resolve('@modelcontextprotocol/server-memory/dist/index.js');

let dir: string;
let ui: UiProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ensureUiBuilt();
  dir = mkdtempSync(path.join(tmpdir(), 'candor-ui-console-'));
  mkdirSync(path.join(dir, 'root'));
  writeFileSync(path.join(dir, 'root', 'keep.txt'), 'do not delete me\n');
  [ui, browser] = await Promise.all([
    startUi(['--example', 'workspace', '--root', path.join(dir, 'root'), '--', process.execPath, memory], {
      env: { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') },
    }),
    launchChromium(),
  ]);
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(ui.url);
  await page.waitForSelector('body[data-ready="true"]');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await ui?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const cellTexts = (name: string) => page.locator(`[data-tool="${name}"] td`).allTextContents();

describe('candor ui console', () => {
  it('lists the tools of both servers with the four hints, spec defaults marked', async () => {
    expect(await page.locator('[data-server]').count()).toBe(2);
    expect(await page.locator('[data-tool^="workspace__"]').count()).toBe(14);
    const memoryRows = await page.locator('[data-tool^="memory__"]').count();
    expect(memoryRows).toBeGreaterThanOrEqual(5);

    // columns: tool, title, read-only, destructive, idempotent, open-world, trust, tags, visibility, UI, lint, pin
    const read = await cellTexts('workspace__read_file');
    expect(read.slice(2, 7)).toEqual(['yes', 'no', 'yes', 'no', 'trusted']);
    const remove = await cellTexts('workspace__delete_path');
    expect(remove.slice(2, 6)).toEqual(['no', 'yes', 'yes', 'no']);

    // The page shows what the host's catalog says, tool by tool, including which hints are defaults.
    const api = await page.evaluate(async (token) => {
      const response = await fetch('/api/tools?server=memory', { headers: { 'X-Candor-Token': token } });
      return (await response.json()) as {
        tools: Array<{ name: string; hints: Record<string, boolean>; defaulted: string[] }>;
      };
    }, ui.token);
    expect(api.tools).toHaveLength(memoryRows);
    for (const tool of api.tools) {
      const cells = await cellTexts(tool.name);
      const hints = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];
      expect(cells.slice(2, 6)).toEqual(
        hints.map((h) => `${tool.hints[h] ? 'yes' : 'no'}${tool.defaulted.includes(h) ? ' (default)' : ''}`),
      );
      expect(cells[6]).toBe('untrusted');
    }
  });

  it('filters by text and by hint with the registry search semantics', async () => {
    await page.fill('input[name="text"]', 'delete');
    await expect.poll(() => page.locator('[data-tool]').count()).toBeLessThan(10);
    const names = await page.locator('[data-tool]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-tool')));
    expect(names).toContain('workspace__delete_path');
    expect(names).not.toContain('workspace__read_file');
    await page.fill('input[name="text"]', '');
    await page.selectOption('select[name="readOnly"]', 'true');
    await page.selectOption('select[name="server"]', 'workspace');
    await expect.poll(() => page.locator('[data-tool="workspace__create_file"]').count()).toBe(0);
    expect(await page.locator('[data-tool="workspace__read_file"]').count()).toBe(1);
    await page.selectOption('select[name="readOnly"]', 'any');
    await page.selectOption('select[name="tag"]', 'shell');
    await expect.poll(() => page.locator('[data-tool]').count()).toBe(1);
    expect(await page.locator('[data-tool="workspace__run_command"]').count()).toBe(1);
    await page.selectOption('select[name="tag"]', '');
    await page.selectOption('select[name="server"]', '');
    await expect.poll(() => page.locator('[data-tool^="memory__"]').count()).toBeGreaterThan(0);
  });

  it('asks before a destructive call, and deny leaves the file in place', async () => {
    await page.click('[data-tool="workspace__delete_path"] [data-action="call"]');
    // The row's Call opens a fresh form (the tool needs arguments) and focuses its first field.
    await page.waitForSelector('[data-detail="workspace__delete_path"] input[name="path"]:focus');
    await page.fill('[data-detail="workspace__delete_path"] input[name="path"]', 'keep.txt');
    await page.click('[data-detail="workspace__delete_path"] [data-action="call"]');
    const dialog = page.locator('dialog[data-dialog="confirm"]');
    await dialog.waitFor({ state: 'visible' });
    const text = await dialog.textContent();
    expect(text).toContain('workspace__delete_path');
    expect(text).toMatch(/destructive/i);
    await page.screenshot({ path: screenshotPath('ui-confirm.png') });
    await dialog.locator('[data-answer="deny"]').click();
    const result = page.locator('[data-result="workspace__delete_path"]').first();
    await expect.poll(() => result.getAttribute('data-status')).toBe('denied');
    expect(existsSync(path.join(dir, 'root', 'keep.txt'))).toBe(true);
    const log = await page.locator('#session').textContent();
    expect(log).toContain('deny');
  });

  it('asks again after a reload: an open question is never stranded', async () => {
    await page.click('[data-tool="workspace__delete_path"] [data-action="call"]');
    // The row's Call opens a fresh form (the tool needs arguments) and focuses its first field.
    await page.waitForSelector('[data-detail="workspace__delete_path"] input[name="path"]:focus');
    await page.fill('[data-detail="workspace__delete_path"] input[name="path"]', 'keep.txt');
    await page.click('[data-detail="workspace__delete_path"] [data-action="call"]');
    await page.locator('dialog[data-dialog="confirm"]').waitFor({ state: 'visible' });
    await page.reload();
    await page.waitForSelector('body[data-ready="true"]');
    const dialog = page.locator('dialog[data-dialog="confirm"]');
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.textContent()).toContain('keep.txt');
    await dialog.locator('[data-answer="deny"]').click();
    await expect.poll(() => page.locator('#session li.decision').count()).toBeGreaterThanOrEqual(2);
    expect(existsSync(path.join(dir, 'root', 'keep.txt'))).toBe(true);
  });

  it('runs a read through the host and shows content and structuredContent apart', async () => {
    await page.click('[data-tool="workspace__read_file"]');
    await page.fill('[data-detail="workspace__read_file"] input[name="path"]', 'keep.txt');
    await page.click('[data-detail="workspace__read_file"] [data-action="call"]');
    const result = page.locator('[data-result="workspace__read_file"]').first();
    await expect.poll(() => result.getAttribute('data-status')).toBe('ok');
    expect(await result.locator('.content.text').first().textContent()).toContain('do not delete me');
  });

  it('writes a screenshot of the console for the README', async () => {
    await page.click('[data-tool="workspace__delete_path"]');
    await page.evaluate(() => window.scrollTo(0, 0));
    const file = screenshotPath('ui-console.png');
    await page.screenshot({ path: file });
    expect(statSync(file).size).toBeGreaterThan(10_000);
  });
});
