/**
 * `candor ui` shows what servers offer besides tools: the reference `everything` server's
 * resources, resource templates and prompts (with their arguments) appear in the
 * "Resources and prompts" pane in Chromium, as `/api/offers` lists them; a server that
 * offers tools only (the workspace example) gets no empty entry.
 */
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureUiBuilt, launchChromium, startUi, type UiProcess } from '../support/ui-support.js';

const require = createRequire(import.meta.url);
const everything = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

let ui: UiProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  ensureUiBuilt();
  [ui, browser] = await Promise.all([
    startUi(['--example', 'workspace', '--', process.execPath, everything]),
    launchChromium(),
  ]);
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(ui.url);
  await page.waitForSelector('body[data-ready="true"]');
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ui?.stop();
});

describe('candor ui: resources and prompts', () => {
  it("shows the everything server's resources, templates and prompts, and nothing for a tools-only server", async () => {
    const servers = await page
      .locator('[data-offers]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-offers')));
    expect(servers.length).toBe(1);
    const name = servers[0]!;
    expect(name).not.toBe('workspace');
    const pane = page.locator(`[data-offers="${name}"]`);
    await expect
      .poll(() => pane.locator('[data-resource="demo://resource/static/document/architecture.md"]').textContent())
      .toBe(
        'demo://resource/static/document/architecture.md architecture.md · text/markdown · Static document file exposed from /docs: architecture.md',
      );
    expect(
      await pane.locator('[data-resource-template="demo://resource/dynamic/text/{resourceId}"] code').textContent(),
    ).toBe('demo://resource/dynamic/text/{resourceId}');
    expect(await pane.locator('[data-prompt="args-prompt"] code').textContent()).toBe('args-prompt(city, state?)');
    expect(await pane.locator('h4').allTextContents()).toEqual([
      expect.stringMatching(/^Resources \(\d+\)$/),
      expect.stringMatching(/^Resource templates \(\d+\)$/),
      expect.stringMatching(/^Prompts \(\d+\)$/),
    ]);
  });

  it('shows what /api/offers lists, item for item', async () => {
    const api = await page.evaluate(async (token) => {
      const response = await fetch('/api/offers', { headers: { 'X-Candor-Token': token } });
      return (await response.json()) as {
        servers: Array<{ server: string; resources: unknown[]; resourceTemplates: unknown[]; prompts: unknown[] }>;
      };
    }, ui.token);
    const workspace = api.servers.find((s) => s.server === 'workspace');
    expect(workspace).toEqual({ server: 'workspace', resources: [], resourceTemplates: [], prompts: [] });
    const other = api.servers.find((s) => s.server !== 'workspace')!;
    const pane = page.locator(`[data-offers="${other.server}"]`);
    expect(await pane.locator('[data-resource]').count()).toBe(other.resources.length);
    expect(await pane.locator('[data-resource-template]').count()).toBe(other.resourceTemplates.length);
    expect(await pane.locator('[data-prompt]').count()).toBe(other.prompts.length);
    expect(other.prompts.length).toBeGreaterThan(0);
  });
});
