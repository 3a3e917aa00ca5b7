/**
 * `candor ui` shows each kind of `content` block a real server sends:
 * server-everything from npm answers with a PNG image, resource
 * links, an embedded resource and structuredContent; a fixture answers with an
 * SVG image (not rendered: SVG can carry script) and `isError`. Driven in
 * Debian's Chromium like a person: click the row's call button, read the card.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../support/cli-harness.js';
import { ensureUiBuilt, launchChromium, startUi, type UiProcess } from '../support/ui-support.js';

const require = createRequire(import.meta.url);
const everything = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const odd = path.join(REPO, 'test', 'fixtures', 'ui', 'odd-content.ts');

let ui: UiProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ensureUiBuilt();
  [ui, browser] = await Promise.all([
    startUi(
      // Trusted, so their read-only hints let calls run without the dialog (tested elsewhere).
      [odd, '--trust', 'odd-content', '--trust', 'everything', '--', process.execPath, everything, 'stdio'],
    ),
    launchChromium(),
  ]);
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(ui.url);
  await page.waitForSelector('body[data-ready="true"]');
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await ui?.stop();
});

/** A server-everything tool's name in the console (the server is named after its package). */
const everythingTool = (tool: string) => `everything__${tool}`;

/** Call a tool from its row (or its form, when it takes arguments) and wait for its result card. */
async function call(name: string, fill: Record<string, string> = {}): Promise<Locator> {
  await page.click(`[data-tool="${name}"]`);
  const detail = page.locator(`[data-detail="${name}"]`);
  for (const [field, value] of Object.entries(fill)) {
    const input = detail.locator(`[name="${field}"]`);
    // An enum is a <select> in the form.
    if ((await input.evaluate((el) => el.tagName)) === 'SELECT') await input.selectOption(value);
    else await input.fill(value);
  }
  await detail.locator('[data-action="call"]').click();
  const card = page.locator(`[data-result="${name}"]`).first();
  await expect.poll(() => card.getAttribute('data-status'), { timeout: 20_000 }).not.toBe('pending');
  return card;
}

describe('candor ui result content', () => {
  it('renders a PNG image block as an image the page actually loads', async () => {
    const card = await call(everythingTool('get-tiny-image'));
    expect(await card.getAttribute('data-status')).toBe('ok');
    const image = card.locator('img.content.image');
    expect(await image.count()).toBe(1);
    expect(await image.getAttribute('src')).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    // Decoded under the console's CSP (img-src allows data:), so it has a size.
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    expect(await card.locator('.content.text').first().textContent()).toContain("Here's the image");
  });

  it('shows resource links with their URI and name', async () => {
    const card = await call(everythingTool('get-resource-links'), { count: '2' });
    const links = card.locator('.content.link');
    expect(await links.count()).toBe(2);
    expect(await links.nth(0).textContent()).toMatch(/demo:\/\/resource\/dynamic\/\w+\/1 \(.+\)/);
    expect(await card.locator('img').count()).toBe(0);
  });

  it('shows an embedded resource apart from text', async () => {
    const card = await call(everythingTool('get-resource-reference'));
    expect(await card.locator('details.content.resource').count()).toBe(1);
    expect(await card.locator('details.content.resource pre').textContent()).toContain('"uri"');
  });

  it('shows structuredContent apart from the content blocks', async () => {
    const card = await call(everythingTool('get-structured-content'), { location: 'Chicago' });
    expect(await card.getAttribute('data-status')).toBe('ok');
    const structured = card.locator('details.structured pre');
    expect(JSON.parse((await structured.textContent())!)).toMatchObject({ temperature: expect.any(Number) });
    expect(await card.locator('[data-is-error]').count()).toBe(0);
  });

  it('does not render an SVG image, and marks isError', async () => {
    const card = await call('odd-content__odd_result');
    expect(await card.locator('[data-is-error]').count()).toBe(1);
    expect(await card.locator('img').count()).toBe(0);
    expect(await card.textContent()).toContain('(image of type image/svg+xml not shown)');
    expect(await card.locator('.content.text').textContent()).toBe('the operation failed halfway');
  });
});
