/**
 * A View's destructive call always needs a person's click in the console's
 * dialog, outside the iframe, even under `--policy yolo` for a trusted server,
 * where the host itself would not ask.
 */
import path from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../support/cli-harness.js';
import { ensureUiBuilt, launchChromium, startUi, type UiProcess } from '../support/ui-support.js';

let ui: UiProcess;
let browser: Browser;
let page: Page;
let view: Frame;

beforeAll(async () => {
  ensureUiBuilt();
  [ui, browser] = await Promise.all([
    startUi([path.join(REPO, 'test', 'fixtures', 'ui', 'wipe-app.ts'), '--policy', 'yolo', '--trust', 'wipe-app']),
    launchChromium(),
  ]);
  page = await browser.newPage();
  await page.goto(ui.url);
  await page.waitForSelector('body[data-ready="true"]');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await ui?.stop();
});

const viewCall = (name: string) =>
  view.evaluate(
    (n) =>
      (window as unknown as { callTool(n: string, a: unknown): Promise<{ content: Array<{ text: string }> }> })
        .callTool(n, {})
        .then(
          (result) => ({ ran: true, text: result.content[0]?.text }),
          (error: Error) => ({ ran: false, text: error.message }),
        ),
    name,
  );

describe('a View asking for a destructive call', () => {
  it('the console runs it at once under yolo (the policy allows it)', async () => {
    await page.click('[data-tool="wipe-app__wipe"] [data-action="call"]');
    const result = page.locator('[data-result="wipe-app__wipe"]').first();
    await expect.poll(() => result.getAttribute('data-status')).toBe('ok');
    expect(await page.locator('dialog[data-dialog="confirm"][open]').count()).toBe(0);
  });

  it('the View must wait for the person: deny refuses it, allow runs it', async () => {
    await page.click('[data-tool="wipe-app__show"] [data-action="call"]');
    const frame = await (await page.waitForSelector('iframe[data-view="wipe-app__show"]')).contentFrame();
    await expect.poll(() => frame!.childFrames().length, { timeout: 10_000 }).toBe(1);
    view = frame!.childFrames()[0]!;
    await view.waitForSelector('li');

    const denied = viewCall('wipe');
    const dialog = page.locator('dialog[data-dialog="confirm"]');
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.textContent()).toContain('A View of wipe-app asks for this call.');
    await dialog.locator('[data-answer="deny"]').click();
    expect(await denied).toEqual({ ran: false, text: expect.stringContaining('denied') });

    const allowed = viewCall('wipe');
    await dialog.waitFor({ state: 'visible' });
    await dialog.locator('[data-answer="allow"]').click();
    expect(await allowed).toEqual({ ran: true, text: 'wiped 2 time(s)' });
  });
});
